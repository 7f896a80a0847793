import { type DatabaseTarget, parseDatabaseUrl, redactDatabaseUrl, Secret } from '@memsvc/access';
import type { ConfigIssue } from './config-error.js';
import type { ReadDatabaseConfig } from './config-types.js';

/**
 * Reads DATABASE_READ_URL: a PostgreSQL hot standby of the DATABASE_URL primary, for the read
 * tools. Only what can be known without connecting is checked here — a postgres:// URL, a
 * PostgreSQL primary, not the primary's own URL; that the server really is a standby of that
 * primary is checked when the store opens. Problems are added to `issues`, never thrown, and
 * never repeat the URL (it may hold a password).
 */
export function readDatabaseSettings(
  raw: string | undefined,
  maxLagMs: number | undefined,
  primary: DatabaseTarget | undefined,
  issues: ConfigIssue[],
): ReadDatabaseConfig | undefined {
  if (raw === undefined) return undefined;
  const parsed = parseDatabaseUrl(raw);
  if (!parsed.ok) {
    issues.push({ variable: 'DATABASE_READ_URL', message: parsed.reason });
    return undefined;
  }
  if (parsed.target.engine !== 'postgres') {
    issues.push({
      variable: 'DATABASE_READ_URL',
      message: 'must be a postgres:// or postgresql:// URL of a PostgreSQL hot standby: an embedded pglite:// database has no replicas',
    });
    return undefined;
  }
  // Undefined when DATABASE_URL itself is missing or invalid: that is already reported.
  if (primary === undefined) return undefined;
  if (primary.engine !== 'postgres') {
    issues.push({
      variable: 'DATABASE_READ_URL',
      message: 'needs DATABASE_URL to be PostgreSQL: a read replica is a hot standby of a PostgreSQL primary, and pglite:// has none',
    });
    return undefined;
  }
  if (sameUrl(primary.url.reveal(), raw)) {
    issues.push({
      variable: 'DATABASE_READ_URL',
      message: 'is the same as DATABASE_URL: name the hot standby that replicates it, or leave DATABASE_READ_URL unset',
    });
    return undefined;
  }
  return { url: new Secret(raw.trim()), target: parsed.target, displayUrl: redactDatabaseUrl(raw), maxLagMs: maxLagMs ?? 10_000 };
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a.trim()).toString() === new URL(b.trim()).toString();
  } catch {
    return a.trim() === b.trim();
  }
}
