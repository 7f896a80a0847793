import { createHash } from 'node:crypto';
import { chmodSync, lstatSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { isMemsvcError, MemsvcError } from '@memsvc/core';
import pg from 'pg';
import { KNOWN_MIGRATIONS } from '../migrations/migrate.js';
import { isUnsafeDirectoryError, otherUsersDirectoryError, refuseUnsafeDirectory, refuseUnsafeEntry } from './pglite-directory-owner.js';
import { type OpenPglite, openPglite, type PgliteTemplateSource } from './pglite-instance.js';
import { embeddedDirectory } from './pglite-layout.js';
import { type PgliteSocketHost, servePglite } from './pglite-socket-host.js';
import { memsvcTypeParsers } from './type-parsers.js';

/**
 * The way into a PGlite directory for every memsvc process of the machine's user. node-postgres
 * finds a Unix socket as `<host>/.s.PGSQL.<port>`, so the socket sits in the directory under the
 * name PostgreSQL gives its own.
 */
export const SOCKET_PORT = 5432;
export const SOCKET_FILE = `.s.PGSQL.${SOCKET_PORT}`;
/** Which schema the host's build knows: a process that knows other migrations must not share it. */
export const HOST_FILE = 'memsvc.host';

/**
 * The schema this build knows, by the names of its migrations: an attached process speaks only
 * SQL to the host, so its own PGlite version does not matter, but a migration one side lacks does.
 */
function schemaBuild(): string {
  return createHash('sha256').update(KNOWN_MIGRATIONS.join('\n')).digest('hex').slice(0, 16);
}
/** Linux and macOS refuse a Unix socket path longer than this (sun_path, less its terminator). */
const MAX_SOCKET_PATH = 103;
/** How long a process waits for a host to serve the directory before it gives up on a call. */
export const ATTACH_PATIENCE_MS = 15_000;
/**
 * How often a process that is not the host checks that one is serving: a process that makes no
 * call (a worker whose jobs run only in the host) must still take over when the host is gone.
 */
const HOST_CHECK_MS = 2_000;
/** Connections one process keeps to the host; statements run one at a time there anyway. */
const CONNECTIONS_PER_PROCESS = 4;

/** What the process hosting the directory holds: the database itself and the socket it serves. */
interface Hosted {
  readonly open: OpenPglite;
  readonly server: PgliteSocketHost;
}

/** A PGlite directory shared by the machine's memsvc processes (see openSharedPglite). */
export interface SharedPglite {
  /** node-postgres connections to the directory's socket, whichever process serves it. */
  readonly pool: pg.Pool;
  /** Whether this process hosts the database now: it runs the background jobs. */
  isHost(): boolean;
  /** The hosted database, while this process hosts it (a new database's template is made from it). */
  hosted(): OpenPglite | undefined;
  /** Stops serving (another process then takes over) and closes the connections. Idempotent. */
  close(): Promise<void>;
}

/**
 * Opens `pglite://<directory>` so that any number of memsvc processes of this machine's user
 * share it (issue 40). PGlite runs in one process — the **host**, which holds the directory's lock
 * (pglite-directory-lock.ts), opens the database and serves it over the PostgreSQL wire protocol
 * on a Unix socket in the directory (pglite-socket-host.ts: one unit of work at a time, a
 * transaction's units together). Every process, the host included, reaches
 * the database through that socket with node-postgres — the same code path as PostgreSQL — so a
 * process's queries never interleave with another's transaction. When the host exits or is
 * killed, the first process that finds the socket gone takes the lock (a dead holder's lock is
 * taken over), opens the database and serves it; the others reconnect to the same socket.
 *
 * The socket file is made owner-only (0600) and the directory owner-only (0700): another OS user
 * can neither open the socket nor read the files. A directory, lock file, socket or host file
 * that is another user's, or that others may write, is refused before anything is opened or
 * attached (pglite-directory-owner.ts, issue 51 #4).
 */
export async function openSharedPglite(
  directory: string,
  options: { readonly template?: PgliteTemplateSource | undefined; readonly attachPatienceMs?: number | undefined } = {},
): Promise<SharedPglite> {
  const { template, attachPatienceMs = ATTACH_PATIENCE_MS } = options;
  const root = embeddedDirectory(directory);
  const socketPath = join(root, SOCKET_FILE);
  if (socketPath.length > MAX_SOCKET_PATH) {
    throw new MemsvcError(
      'INVALID_CONFIG',
      `DATABASE_URL: the embedded database's socket path ${socketPath} is ${socketPath.length} characters; Unix sockets allow ${MAX_SOCKET_PATH}. Use a shorter directory.`,
      { variable: 'DATABASE_URL' },
    );
  }
  // The directory first, then what is in it: only its owner can change a directory no one
  // else may write, so its entries checked now stay this user's. openPglite checks the
  // directory again once it exists, and the lock file.
  const label = `the embedded database pglite://${root}`;
  refuseUnsafeDirectory(root, label);
  const refuseUnsafeEntries = () => {
    refuseUnsafeEntry(socketPath, label, 'socket');
    refuseUnsafeEntry(join(root, HOST_FILE), label, 'host file');
  };
  refuseUnsafeEntries();
  let hosted: Hosted | undefined;
  let closed = false;
  let takingOver: Promise<void> | undefined;

  /** Hosts the directory if no live process does; a live holder's lock leaves this one attached. */
  const tryToHost = async (): Promise<void> => {
    if (hosted || closed) return;
    takingOver ??= host(root, socketPath, template)
      .then((result) => {
        if (closed) return result ? unhost(result) : undefined;
        hosted = result;
      })
      .finally(() => {
        takingOver = undefined;
      });
    await takingOver;
  };

  await tryToHost();
  if (!hosted) {
    // Attaching: the socket it connects to is the one a host of this user made.
    refuseUnsafeEntries();
    refuseAnotherBuild(root);
  }
  const watcher = setInterval(() => {
    if (hosted || closed || takingOver) return;
    void socketAnswers(socketPath).then((answers) => (answers ? undefined : tryToHost().catch(() => undefined)));
  }, HOST_CHECK_MS);
  watcher.unref();
  const pool = new pg.Pool({
    host: root,
    port: SOCKET_PORT,
    user: 'postgres',
    database: 'postgres',
    max: CONNECTIONS_PER_PROCESS,
    types: memsvcTypeParsers,
  });
  // A connection broken by its host going away is dropped by the pool; the statement it carried
  // fails (a retryable error), and the error event itself is expected, not a crash.
  pool.on('error', () => undefined);
  pool.on('connect', (client) => client.on('error', () => undefined));
  const connect = pool.connect.bind(pool);
  // The pool's connect waits for a host: it tries to become one when the socket is gone.
  pool.connect = (async () => {
    const deadline = Date.now() + attachPatienceMs;
    for (let attempt = 0; ; attempt++) {
      try {
        return await connect();
      } catch (error) {
        if (closed || !isHostGone(error) || Date.now() > deadline) throw attachError(root, error, attachPatienceMs);
        await tryToHost();
        await sleep(Math.min(500, 25 * 2 ** attempt));
      }
    }
  }) as typeof pool.connect;

  return {
    pool,
    isHost: () => hosted !== undefined,
    hosted: () => hosted?.open,
    close: async () => {
      if (closed) return;
      closed = true;
      clearInterval(watcher);
      await takingOver?.catch(() => undefined);
      try {
        // Kysely's destroy may have ended it already.
        if (!pool.ended) await pool.end();
      } finally {
        const mine = hosted;
        hosted = undefined;
        if (mine) await unhost(mine);
      }
    },
  };
}

/** Opens the database and serves it, or undefined when a live process holds the directory. */
async function host(root: string, socketPath: string, template?: PgliteTemplateSource): Promise<Hosted | undefined> {
  let open: OpenPglite;
  try {
    open = await openPglite({ directory: root }, template);
  } catch (error) {
    if (isMemsvcError(error, 'DATABASE_LOCKED') && !isUnsafeDirectoryError(error)) return undefined;
    throw otherUsersDirectoryError(root, error) ?? error;
  }
  try {
    // The database's files and its socket are the owner's alone.
    chmodSync(root, 0o700);
    // The lock is ours, so a socket file left here is a dead host's: never someone else's file.
    removeStaleSocket(socketPath);
    const server = await servePglite(open.pglite, socketPath);
    writeFileSync(join(root, HOST_FILE), `${JSON.stringify({ pid: process.pid, build: schemaBuild() })}\n`, {
      mode: 0o600,
    });
    return { open, server };
  } catch (error) {
    await open.close();
    throw error;
  }
}

async function unhost({ open, server }: Hosted): Promise<void> {
  const root = open.directory;
  try {
    await server.close();
  } finally {
    await open.close();
    if (root) removeHostFileIfOurs(root);
  }
}

function removeHostFileIfOurs(root: string): void {
  try {
    const file = join(root, HOST_FILE);
    if ((JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown }).pid === process.pid) unlinkSync(file);
  } catch {
    // gone already, or another host's
  }
}

function removeStaleSocket(socketPath: string): void {
  let isSocket: boolean;
  try {
    isSocket = lstatSync(socketPath).isSocket();
  } catch {
    return; // none
  }
  if (!isSocket) {
    throw new MemsvcError(
      'DATABASE_LOCKED',
      `${socketPath} is in the embedded database's directory and is not a socket; memsvc will not remove it. Move it away.`,
      { socketPath },
    );
  }
  unlinkSync(socketPath);
}

/**
 * An attaching process of another build (one that knows other migrations) would migrate the
 * database under the host's feet, or misread it: it is refused, naming both, while
 * that host lives. (Agents updated one at a time meet this: restart them all on one version.)
 */
function refuseAnotherBuild(root: string): void {
  let host: { pid?: unknown; build?: unknown };
  try {
    host = JSON.parse(readFileSync(join(root, HOST_FILE), 'utf8')) as { pid?: unknown; build?: unknown };
  } catch {
    return; // no host yet, or one still starting: the connection decides
  }
  const ours = schemaBuild();
  if (typeof host.pid !== 'number' || host.build === ours || !isRunning(host.pid)) return;
  throw new MemsvcError(
    'DATABASE_LOCKED',
    `the embedded database pglite://${root} is served by process ${host.pid}, a memsvc of another build (${String(host.build)}; this one is ${ours}). Run one memsvc version for every agent on this directory: stop that process, or start this one from the same installation.`,
    { directory: root, holderPid: host.pid },
  );
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Whether a process accepts connections on the socket (without speaking to it). */
function socketAnswers(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(socketPath);
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Whether a connect failed because nobody serves the socket (none yet, or its host died). */
function isHostGone(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  if (code === 'ENOENT' || code === 'ECONNREFUSED' || code === 'ECONNRESET' || code === 'EPIPE') return true;
  const message = (error as { message?: unknown } | null)?.message;
  return typeof message === 'string' && /Connection terminated|connection is closed/i.test(message);
}

function attachError(root: string, error: unknown, patienceMs: number): unknown {
  const foreign = otherUsersDirectoryError(root, error);
  if (foreign) return foreign;
  if (!isHostGone(error)) return error;
  return new MemsvcError(
    'STORAGE_UNAVAILABLE',
    `the embedded database pglite://${root} is not being served: no memsvc process could open it within ${patienceMs / 1000} s; try again`,
    { directory: root, retryable: true },
  );
}
