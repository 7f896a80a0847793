import type { DatabaseTarget } from '@memsvc/access';
import { MemsvcError } from '@memsvc/core';
import { embeddedDatabaseExists } from '@memsvc/store-pg';

/**
 * For commands that read what is there: a `pglite://<dir>` that holds no database yet is an
 * error naming the directory, not a new database (opening it would run initdb there and leave
 * one behind, under a path that may simply be mistyped). PostgreSQL needs no such check: a
 * database that does not exist is refused by the server.
 */
export function assertDatabaseExists(target: DatabaseTarget): void {
  const directory = directoryWithoutDatabase(target);
  if (directory !== undefined) {
    throw new MemsvcError(
      'STORAGE_UNAVAILABLE',
      `no embedded database in ${directory} yet (memsvc migrate or memsvc-server creates one there)`,
      {
        directory,
      },
    );
  }
}

/** False only for a `pglite://<dir>` that holds no database yet. */
export function databaseExists(target: DatabaseTarget): boolean {
  return directoryWithoutDatabase(target) === undefined;
}

function directoryWithoutDatabase(target: DatabaseTarget): string | undefined {
  return target.engine === 'pglite' && target.storage === 'directory' && !embeddedDatabaseExists(target.directory)
    ? target.directory
    : undefined;
}
