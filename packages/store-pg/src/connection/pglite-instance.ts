import { existsSync, mkdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { vector } from '@electric-sql/pglite-pgvector';
import { isMemsvcError, MemsvcError } from '@memsvc/core';
import { acquireDirectoryLock, type DirectoryLock } from './pglite-directory-lock.js';
import { refuseUnsafeDirectory, refuseUnsafeEntry } from './pglite-directory-owner.js';
import { embeddedDirectory, LOCK_FILE, PGDATA_SUBDIRECTORY } from './pglite-layout.js';

/** An open embedded database and what must be undone when it closes. */
export interface OpenPglite {
  readonly pglite: PGlite;
  readonly directory: string | undefined;
  /**
   * How its files came to be: `existing` (a directory opened again), `template` (a new database
   * loaded from the template tarball) or `initdb` (a new, empty cluster).
   */
  readonly startedFrom: 'existing' | 'template' | 'initdb';
  /** Why a template that was given could not be loaded (the database then started from initdb). */
  readonly templateError?: unknown;
  close(): Promise<void>;
}

/** What a new database may start from instead of initdb: a tarball of PGlite's `dumpDataDir`. */
export type PgliteTemplateSource = () => Promise<Blob | undefined>;

const EXTENSIONS = { vector, btree_gin };

/**
 * PGlite's start parameters for an in-memory database: its buffer pool at 32 MB instead of
 * PostgreSQL's 128 MB. In memory every page already sits in the process (PGlite's in-memory file
 * system), so a buffer miss costs a copy, not a read from disk; and starting with the larger pool
 * cost ~0.6 s more CPU each time (its memory is touched at startup): ~1.1 against ~0.5 s to open
 * a database from the template on a 2-core machine. A directory database keeps 128 MB: its misses
 * go to the file system.
 */
const IN_MEMORY_START_PARAMS = [...PGlite.defaultStartParams, '-c', 'shared_buffers=32MB'];

/**
 * A directory runs with PostgreSQL's WAL defaults, recycling included: a recycled segment keeps
 * the bytes of rows long gone, but the compaction after an erasure turns recycling off for its
 * own checkpoints and moves the WAL past every segment on disk, recycled ones too
 * (R-ERASE-PGLITE-FILES), so ordinary writes pay nothing for it.
 */
const DIRECTORY_START_PARAMS = [...PGlite.defaultStartParams];

/**
 * Opens PGlite with pgvector, in memory or in a directory. For a directory: it is created if
 * missing, proven writable, and locked to this process. If opening fails, whatever this call
 * created is removed again — but only once the lock is ours: a process that loses the lock
 * touches nothing, since the directory belongs to the winner. A new database (memory, or a
 * directory without one) starts from `template`'s tarball when it gives one (PgliteTemplates).
 */
export async function openPglite(storage: { directory: string } | 'memory', template?: PgliteTemplateSource): Promise<OpenPglite> {
  if (storage === 'memory') {
    const created = await createNew(template, (loadDataDir) =>
      PGlite.create({ extensions: EXTENSIONS, startParams: IN_MEMORY_START_PARAMS, ...(loadDataDir ? { loadDataDir } : {}) }),
    );
    return { ...created, directory: undefined, close: () => created.pglite.close() };
  }

  const directory = embeddedDirectory(storage.directory);
  const label = `the embedded database pglite://${storage.directory}`;
  const createdRoot = prepareDirectory(directory, label);
  let lock: DirectoryLock;
  try {
    // Another user's lock would make this process attach to that user's host.
    refuseUnsafeEntry(join(directory, LOCK_FILE), label, 'lock file');
    lock = acquireDirectoryLock(join(directory, LOCK_FILE), label);
  } catch (error) {
    if (!isMemsvcError(error, 'DATABASE_LOCKED')) removeQuietly(createdRoot);
    throw error;
  }

  const pgdata = join(directory, PGDATA_SUBDIRECTORY);
  const pgdataExisted = existsSync(pgdata);
  try {
    const open = (loadDataDir?: Blob) =>
      PGlite.create(pgdata, { extensions: EXTENSIONS, startParams: DIRECTORY_START_PARAMS, ...(loadDataDir ? { loadDataDir } : {}) });
    const created: Started = pgdataExisted
      ? { pglite: await open(), startedFrom: 'existing' }
      : await createNew(template, open, () => removeQuietly(pgdata));
    const { pglite } = created;
    return {
      ...created,
      directory,
      close: async () => {
        try {
          await pglite.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (error) {
    // We hold the lock, so nobody else is in here: undo what this call made.
    if (!pgdataExisted) removeQuietly(pgdata);
    lock.release();
    removeQuietly(createdRoot);
    throw new MemsvcError(
      'STORAGE_UNAVAILABLE',
      `${label} could not be opened: ${(error as Error).message}`,
      { directory },
      { cause: error },
    );
  }
}

type Started = Pick<OpenPglite, 'pglite' | 'startedFrom' | 'templateError'>;

/**
 * A new database: from the template when there is one and it loads, else from initdb. A
 * template that cannot be read or loaded is reported, never fatal; `discard` removes what the
 * failed load left behind first (PGlite refuses to load into a directory that has a cluster).
 */
async function createNew(
  template: PgliteTemplateSource | undefined,
  create: (loadDataDir?: Blob) => Promise<PGlite>,
  discard: () => void = () => undefined,
): Promise<Started> {
  let templateError: unknown;
  try {
    const tarball = await template?.();
    if (tarball) return { pglite: await create(tarball), startedFrom: 'template' };
  } catch (error) {
    templateError = error;
    discard();
  }
  return { pglite: await create(), startedFrom: 'initdb', ...(templateError === undefined ? {} : { templateError }) };
}

/**
 * Makes sure the directory exists, is this OS user's alone (pglite-directory-owner.ts) and is
 * writable. Returns the outermost directory this call created (to remove on failure), or
 * undefined when the directory was already there.
 */
function prepareDirectory(directory: string, label: string): string | undefined {
  if (existsSync(directory) && !statSync(directory).isDirectory()) {
    throw new MemsvcError('STORAGE_UNAVAILABLE', `${label}: ${directory} exists and is not a directory`, { directory });
  }
  // Before anything is written into it.
  refuseUnsafeDirectory(directory, label);
  let createdRoot: string | undefined;
  try {
    // mkdir reports the first directory it actually created, so a concurrent creator's
    // directory is never counted as ours. Every directory it creates, the parents too, is the
    // owner's alone (0700, whatever the umask lets through is less).
    createdRoot = mkdirSync(directory, { recursive: true, mode: 0o700 });
    // Again now it exists: another user may have made it between the check above and mkdir.
    refuseUnsafeDirectory(directory, label);
    // access(W_OK) is not enough: it says yes to root on a read-only filesystem. Write a probe.
    const probe = join(directory, `.memsvc-write-probe-${process.pid}`);
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (error) {
    removeQuietly(createdRoot);
    if (error instanceof MemsvcError) throw error;
    throw new MemsvcError(
      'STORAGE_UNAVAILABLE',
      `${label}: directory ${directory} is not writable (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})`,
      { directory },
      { cause: error },
    );
  }
  return createdRoot;
}

function removeQuietly(path: string | undefined): void {
  if (path === undefined) return;
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // Nothing was created there after all.
  }
}
