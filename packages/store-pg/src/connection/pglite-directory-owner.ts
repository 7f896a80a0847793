import { lstatSync, type Stats, statSync } from 'node:fs';
import { MemsvcError } from '@memsvc/core';

/**
 * Whether ownership is checked: POSIX systems only. Windows has no owner uid or mode bits in
 * `stat` (its ACLs decide), so a directory there is trusted as it is (docs/installation.md).
 */
const CHECKS_OWNERS = process.platform !== 'win32' && typeof process.getuid === 'function';
/** Write permission for the group or for others. */
const WRITABLE_BY_OTHERS = 0o022;

/**
 * Refuses a `pglite://` directory that is not this OS user's alone (issue 51 #4): another user
 * who made it first (in /tmp, or a shared working directory where a relative path lands) would
 * host it, or plant a socket in it, and read and write every memory this process stores. It
 * must be owned by the current user — root too is held to its own uid — and not writable by
 * group or others. A symbolic link is followed only if the link too is this user's (in a sticky
 * directory only a link's owner can replace it). A directory that does not exist yet passes:
 * it is checked again once created (pglite-instance.ts), since another user may make it in between.
 */
export function refuseUnsafeDirectory(directory: string, label: string): void {
  if (!CHECKS_OWNERS) return;
  const link = statOrUndefined(directory, lstatSync);
  if (!link) return; // none yet, or not visible to this user: opening it reports that
  if (link.isSymbolicLink()) refuseForeign(directory, link, label, 'directory (a symbolic link)');
  const stats = link.isSymbolicLink() ? statOrUndefined(directory, statSync) : link;
  if (!stats?.isDirectory()) return; // opening it says what it is
  refuseForeign(directory, stats, label, 'directory');
  refuseOpen(directory, stats, label, 'directory');
}

/**
 * Refuses a lock file, socket or host file in the directory that is a symbolic link, another
 * user's, or writable by group or others: such a file can only come from someone else having
 * had write access to the directory, and a process would attach through it to that user's host.
 */
export function refuseUnsafeEntry(path: string, label: string, kind: string): void {
  if (!CHECKS_OWNERS) return;
  const stats = statOrUndefined(path, lstatSync);
  if (!stats) return;
  if (stats.isSymbolicLink()) {
    throw new MemsvcError(
      'STORAGE_UNAVAILABLE',
      `${label}: its ${kind} ${path} is a symbolic link; memsvc never follows one there. Remove it (with no memsvc process running on this directory) and start again.`,
      { path, unsafe: 'symlink' },
    );
  }
  refuseForeign(path, stats, label, kind);
  refuseOpen(path, stats, label, kind);
}

/**
 * Whether an error is one of these refusals. The foreign-owner one shares DATABASE_LOCKED with a
 * lock held by a live process (as another user's directory always did), but must never be taken
 * for "someone hosts it: attach".
 */
export function isUnsafeDirectoryError(error: unknown): boolean {
  return error instanceof MemsvcError && error.data.unsafe !== undefined;
}

/**
 * The error for a directory (or socket) this OS user was refused by the system (EACCES, EPERM)
 * because another user owns it: one it could not even look at before opening.
 */
export function otherUsersDirectoryError(root: string, error: unknown): MemsvcError | undefined {
  const codeOf = (value: unknown) => (value as { code?: unknown } | null)?.code;
  const codes = [codeOf(error), codeOf((error as { cause?: unknown } | null)?.cause)];
  if (!codes.includes('EACCES') && !codes.includes('EPERM')) return undefined;
  try {
    if (statSync(root).uid === process.getuid?.()) return undefined;
  } catch {
    // Not even visible to this user: someone else's.
  }
  return new MemsvcError(
    'DATABASE_LOCKED',
    `the embedded database pglite://${root} belongs to another OS user; only that user's memsvc processes may open it`,
    { directory: root, unsafe: 'owner' },
  );
}

function refuseForeign(path: string, stats: Stats, label: string, kind: string): void {
  const me = process.getuid?.();
  if (stats.uid === me) return;
  throw new MemsvcError(
    'DATABASE_LOCKED',
    `${label}: its ${kind} ${path} belongs to another OS user (uid ${stats.uid}; this process runs as uid ${me}); another user's directory could read and plant every memory stored in it, so memsvc will not use it. Use a directory of your own (for example under your home directory), or, if this one is yours, chown it to uid ${me}.`,
    { path, ownerUid: stats.uid, unsafe: 'owner' },
  );
}

function refuseOpen(path: string, stats: Stats, label: string, kind: string): void {
  const mode = stats.mode & 0o777;
  if ((mode & WRITABLE_BY_OTHERS) === 0) return;
  const who = [mode & 0o020 ? 'its group' : '', mode & 0o002 ? 'other users' : ''].filter(Boolean).join(' and ');
  throw new MemsvcError(
    'STORAGE_UNAVAILABLE',
    `${label}: its ${kind} ${path} is writable by ${who} (mode 0${mode.toString(8)}); they could replace its files or plant a socket that reads every memory. If everything in it is yours, run chmod 700 on it (chmod go-w for a file); otherwise use another directory.`,
    { path, mode, unsafe: 'mode' },
  );
}

function statOrUndefined(path: string, stat: (path: string) => Stats): Stats | undefined {
  try {
    return stat(path);
  } catch {
    return undefined;
  }
}
