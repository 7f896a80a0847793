import { Secret } from './secret.js';

/**
 * Where memsvc keeps its data: a PostgreSQL server or an embedded PGlite database. A PostgreSQL
 * URL may carry a password, so it is held as a Secret.
 */
export type DatabaseTarget =
  | { readonly engine: 'postgres'; readonly url: Secret }
  | { readonly engine: 'pglite'; readonly storage: 'memory' }
  | { readonly engine: 'pglite'; readonly storage: 'directory'; readonly directory: string };

export type DatabaseUrlResult = { readonly ok: true; readonly target: DatabaseTarget } | { readonly ok: false; readonly reason: string };

const PGLITE_PREFIX = 'pglite://';
const POSTGRES_SCHEMES = new Set(['postgres:', 'postgresql:']);

/**
 * Reads a `DATABASE_URL`. `postgres://` and `postgresql://` select a PostgreSQL server;
 * `pglite://memory` a throw-away in-memory database; `pglite://<dir>` an embedded database kept
 * in `<dir>` (absolute as `pglite:///var/lib/memsvc`, relative to the working directory as
 * `pglite://./data`). The reason on failure never repeats the URL, which may hold a password.
 */
export function parseDatabaseUrl(text: string): DatabaseUrlResult {
  const trimmed = text.trim();
  if (trimmed.toLowerCase().startsWith(PGLITE_PREFIX)) {
    const location = trimmed.slice(PGLITE_PREFIX.length);
    if (location === '' || location === '/') {
      return { ok: false, reason: 'a pglite:// URL needs a directory or "memory" after the scheme' };
    }
    if (location === 'memory' || location === 'memory/') {
      return { ok: true, target: { engine: 'pglite', storage: 'memory' } };
    }
    return { ok: true, target: { engine: 'pglite', storage: 'directory', directory: location } };
  }
  let url: URL;
  try {
    url = new URL(trimmed);
  } catch {
    return { ok: false, reason: 'not a valid URL' };
  }
  if (!POSTGRES_SCHEMES.has(url.protocol)) {
    const scheme = url.protocol.replace(/:$/, '');
    return {
      ok: false,
      reason: `unsupported scheme "${scheme}" (use postgres://, postgresql://, pglite://<dir> or pglite://memory)`,
    };
  }
  if (url.hostname === '' && !url.searchParams.has('host')) {
    return { ok: false, reason: 'a postgres:// URL needs a host' };
  }
  return { ok: true, target: { engine: 'postgres', url: new Secret(trimmed) } };
}

/** The URL with any password replaced, safe to log or show in an error. */
export function redactDatabaseUrl(text: string): string {
  if (text.trim().toLowerCase().startsWith(PGLITE_PREFIX)) return text.trim();
  try {
    const url = new URL(text.trim());
    if (url.password) url.password = '*****';
    for (const key of [...url.searchParams.keys()]) {
      if (/pass|secret|token|key/i.test(key)) url.searchParams.set(key, '*****');
    }
    return url.toString();
  } catch {
    return '[unparseable DATABASE_URL]';
  }
}

/** A short label of the engine for logs and health output. */
export function describeDatabaseTarget(target: DatabaseTarget): string {
  if (target.engine === 'postgres') return redactDatabaseUrl(target.url.reveal());
  return target.storage === 'memory' ? 'pglite://memory' : `pglite://${target.directory}`;
}
