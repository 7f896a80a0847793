import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** The PostgreSQL files live in a subdirectory, so the lock file sits beside them, not inside. */
export const PGDATA_SUBDIRECTORY = 'pgdata';
export const LOCK_FILE = 'memsvc.lock';

/** The absolute directory `pglite://<directory>` names (a leading `~` is the home directory). */
export function embeddedDirectory(directory: string): string {
  return resolve(directory.replace(/^~(?=$|\/)/, homedir()));
}

/**
 * Whether `pglite://<directory>` holds a database already, found without opening, locking or
 * creating anything (opening a directory without one creates it): for commands that only read.
 */
export function embeddedDatabaseExists(directory: string): boolean {
  return existsSync(join(embeddedDirectory(directory), PGDATA_SUBDIRECTORY));
}
