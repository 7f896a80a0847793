import { existsSync, mkdirSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { MemsvcError } from '@memsvc/core';
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
 * missing, proven writable, and locked to this process; if anything fails, whatever this call
 * created is removed again, so a failed start leaves nothing half-made.
 */
export async function openPglite(storage: { directory: string } | 'memory'): Promise<OpenPglite> {
  if (storage === 'memory') {
    const pglite = await PGlite.create({ extensions: { vector } });
    return { pglite, directory: undefined, close: () => pglite.close() };
  }

  const directory = resolve(storage.directory.replace(/^~(?=$|\/)/, homedir()));
  const label = `the embedded database pglite://${storage.directory}`;
  const createdRoot = prepareDirectory(directory, label);
  let lock: DirectoryLock | undefined;
  try {
    lock = acquireDirectoryLock(join(directory, LOCK_FILE), label);
    const pglite = await PGlite.create(join(directory, PGDATA_SUBDIRECTORY), { extensions: { vector } });
    const heldLock = lock;
    return {
      pglite,
      directory,
      close: async () => {
        try {
          await pglite.close();
        } finally {
          heldLock.release();
        }
      },
    };
  } catch (error) {
    lock?.release();
    removeQuietly(createdRoot);
    if (error instanceof MemsvcError) throw error;
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
  const existed = existsSync(directory);
  const createdRoot = existed ? undefined : outermostMissing(directory);
  if (existed && !statSync(directory).isDirectory()) {
    throw new MemsvcError('STORAGE_UNAVAILABLE', `${label}: ${directory} exists and is not a directory`, { directory });
  }
  try {
    if (!existed) mkdirSync(directory, { recursive: true });
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

function outermostMissing(directory: string): string {
  let missing = directory;
  while (!existsSync(dirname(missing)) && dirname(missing) !== missing) missing = dirname(missing);
  return missing;
}

function removeQuietly(path: string | undefined): void {
  if (path === undefined) return;
  try {
    rmSync(path, { recursive: true, force: true });
  } catch {
    // Nothing was created there after all (its parent is not a directory).
  }
}
