import { existsSync, mkdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { btree_gin } from '@electric-sql/pglite/contrib/btree_gin';
import { vector } from '@electric-sql/pglite-pgvector';
import { isMemsvcError, MemsvcError } from '@memsvc/core';
import { acquireDirectoryLock, type DirectoryLock } from './pglite-directory-lock.js';

/** An open embedded database and what must be undone when it closes. */
export interface OpenPglite {
  readonly pglite: PGlite;
  readonly directory: string | undefined;
  close(): Promise<void>;
}

/** The PostgreSQL files live in a subdirectory, so the lock file sits beside them, not inside. */
const PGDATA_SUBDIRECTORY = 'pgdata';
const LOCK_FILE = 'memsvc.lock';

/**
 * Opens PGlite with pgvector, in memory or in a directory. For a directory: it is created if
 * missing, proven writable, and locked to this process. If opening fails, whatever this call
 * created is removed again — but only once the lock is ours: a process that loses the lock
 * touches nothing, since the directory belongs to the winner.
 */
export async function openPglite(storage: { directory: string } | 'memory'): Promise<OpenPglite> {
  if (storage === 'memory') {
    const pglite = await PGlite.create({ extensions: { vector, btree_gin } });
    return { pglite, directory: undefined, close: () => pglite.close() };
  }

  const directory = resolve(storage.directory.replace(/^~(?=$|\/)/, homedir()));
  const label = `the embedded database pglite://${storage.directory}`;
  const createdRoot = prepareDirectory(directory, label);
  let lock: DirectoryLock;
  try {
    lock = acquireDirectoryLock(join(directory, LOCK_FILE), label);
  } catch (error) {
    if (!isMemsvcError(error, 'DATABASE_LOCKED')) removeQuietly(createdRoot);
    throw error;
  }

  const pgdata = join(directory, PGDATA_SUBDIRECTORY);
  const pgdataExisted = existsSync(pgdata);
  try {
    const pglite = await PGlite.create(pgdata, { extensions: { vector, btree_gin } });
    return {
      pglite,
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

/**
 * Makes sure the directory exists and is writable. Returns the outermost directory this call
 * created (to remove on failure), or undefined when the directory was already there.
 */
function prepareDirectory(directory: string, label: string): string | undefined {
  if (existsSync(directory) && !statSync(directory).isDirectory()) {
    throw new MemsvcError('STORAGE_UNAVAILABLE', `${label}: ${directory} exists and is not a directory`, { directory });
  }
  let createdRoot: string | undefined;
  try {
    // mkdir reports the first directory it actually created, so a concurrent creator's
    // directory is never counted as ours.
    createdRoot = mkdirSync(directory, { recursive: true });
    // access(W_OK) is not enough: it says yes to root on a read-only filesystem. Write a probe.
    const probe = join(directory, `.memsvc-write-probe-${process.pid}`);
    writeFileSync(probe, '');
    unlinkSync(probe);
  } catch (error) {
    removeQuietly(createdRoot);
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
