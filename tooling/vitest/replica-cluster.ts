import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import { createTestDatabase, type TestDatabase } from './test-databases.ts';

const script = join(dirname(fileURLToPath(import.meta.url)), '..', 'scripts', 'pg-local.sh');
const run = promisify(execFile);

/** A primary and a hot standby of it, both from tooling/scripts/pg-local.sh. */
export interface StandbyCluster {
  /** The primary's URL (database `memsvc`). */
  readonly primaryUrl: string;
  /** The standby's URL (the same database, on the standby's port). */
  readonly standbyUrl: string;
  /** The standby's name for pg-local.sh (`''` for the shared one). */
  readonly name: string;
  /**
   * A fresh database on the primary and the same database's URL on the standby, once the
   * standby has replayed its creation; dropped by `dropDatabases`.
   */
  freshDatabase(prefix?: string): Promise<{ primary: string; standby: string }>;
  dropDatabases(): Promise<void>;
  /** Runs `pg-local.sh replica-<command> <name>` on this standby (`stop`, `destroy`) or starts it again (`start`). */
  control(command: 'start' | 'stop' | 'destroy'): Promise<void>;
}

/** A standby, or why a suite cannot have one. */
export type StandbyResult = { readonly ok: true; readonly cluster: StandbyCluster } | { readonly ok: false; readonly reason: string };

/**
 * Starts (or reuses) a hot standby with `pg-local.sh replica [name]` — a named one is the
 * suite's own, to pause or promote without disturbing other suites; destroy it after, and end
 * its name with `-<pid>` so that one left by a test process that died is destroyed by the next.
 * Without a real PostgreSQL for the run (`pgvectorTestUrl` null) there is none, with the reason;
 * under CI=true a script that fails is an error, never a skip.
 */
export async function startStandby(pgvectorTestUrl: string | null, name = ''): Promise<StandbyResult> {
  if (!pgvectorTestUrl)
    return { ok: false, reason: 'no real PostgreSQL for this run (run tooling/scripts/pg-local.sh or set PGVECTOR_TEST_URL)' };
  try {
    for (const stale of staleStandbys(name)) await pgLocal('replica-destroy', stale);
    const standbyUrl = await pgLocal('replica', name);
    const primaryUrl = await pgLocal('url');
    return { ok: true, cluster: cluster(primaryUrl, standbyUrl, name) };
  } catch (error) {
    if (process.env.CI === 'true')
      throw new Error(`CI needs a hot standby and pg-local.sh could not start one: ${(error as Error).message}`);
    return { ok: false, reason: `pg-local.sh could not start a hot standby: ${(error as Error).message.split('\n')[0]}` };
  }
}

/** Waits until the standby has replayed everything the primary had flushed when asked. */
export async function waitForReplay(primaryUrl: string, standbyUrl: string, timeoutMs = 30_000): Promise<void> {
  const flushed = await queryOne<{ lsn: string }>(primaryUrl, 'SELECT pg_current_wal_flush_lsn()::text AS lsn');
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const replayed = await queryOne<{ done: boolean }>(
      standbyUrl,
      'SELECT coalesce(pg_last_wal_replay_lsn() >= $1::pg_lsn, false) AS done',
      [flushed.lsn],
    ).catch(() => ({ done: false }));
    if (replayed.done) return;
    if (Date.now() > deadline) throw new Error(`the standby did not replay up to ${flushed.lsn} in ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Runs one statement on a fresh connection and returns its first row. */
export async function queryOne<T>(url: string, statement: string, values: unknown[] = []): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(statement, values)).rows[0] as T;
  } finally {
    await client.end();
  }
}

function cluster(primaryUrl: string, standbyUrl: string, name: string): StandbyCluster {
  const created: TestDatabase[] = [];
  return {
    primaryUrl,
    standbyUrl,
    name,
    freshDatabase: async (prefix = 'memsvc_replica') => {
      const database = await createTestDatabase(primaryUrl, prefix);
      created.push(database);
      const standby = new URL(standbyUrl);
      standby.pathname = new URL(database.url).pathname;
      await waitForReplay(primaryUrl, standby.toString());
      return { primary: database.url, standby: standby.toString() };
    },
    dropDatabases: async () => {
      for (const database of created.splice(0)) await database.drop();
    },
    control: async (command) => {
      await pgLocal(command === 'start' ? 'replica' : `replica-${command}`, name);
    },
  };
}

/** Standbys named like `name` but for another process (`<prefix>-<pid>`) that no longer runs. */
function staleStandbys(name: string): string[] {
  const owned = /^(.+)-(\d+)$/.exec(name);
  if (!owned) return [];
  const primaryDir = process.env.MEMSVC_PG_DIR ?? join(process.env.TMPDIR ?? '/tmp', `memsvc-pg${process.env.MEMSVC_PG_MAJOR ?? '15'}`);
  const pattern = new RegExp(`^${basename(primaryDir)}-replica-(${owned[1]}-(\\d+))$`);
  const entries = (() => {
    try {
      return readdirSync(dirname(primaryDir));
    } catch {
      return [];
    }
  })();
  return entries.flatMap((entry) => {
    const match = pattern.exec(entry);
    return match?.[1] && match[2] && match[1] !== name && !isAlive(Number(match[2])) ? [match[1]] : [];
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as { code?: string }).code === 'EPERM';
  }
}

async function pgLocal(command: string, name = ''): Promise<string> {
  const { stdout } = await run('bash', [script, command, ...(name ? [name] : [])], { encoding: 'utf8', timeout: 300_000 });
  const url = stdout.trim().split('\n').at(-1) ?? '';
  if ((command === 'replica' || command === 'url') && !url.startsWith('postgres://')) {
    throw new Error(`pg-local.sh ${command} printed no URL (got "${url}")`);
  }
  return url;
}
