import { randomUUID } from 'node:crypto';
import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';
import { MemsvcError } from '@memsvc/core';

interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  readonly nonce: string;
  readonly acquiredAt: string;
}

/** A held lock on a PGlite directory; `release` is idempotent. */
export interface DirectoryLock {
  readonly path: string;
  release(): void;
}

/**
 * One process per PGlite directory. PGlite has no locking of its own: two processes that open
 * the same directory both succeed and one of them silently loses its writes. This lock file,
 * created with O_EXCL, makes the second opener fail with DATABASE_LOCKED and a message that says
 * who holds it. A lock left by a process that no longer runs (killed, crashed) is taken over.
 */
export function acquireDirectoryLock(lockPath: string, label: string): DirectoryLock {
  const owner: LockOwner = { pid: process.pid, hostname: hostname(), nonce: randomUUID(), acquiredAt: new Date().toISOString() };
  for (let attempt = 0; attempt < 2; attempt++) {
    if (tryCreate(lockPath, owner)) return heldLock(lockPath, owner);
    const holder = readOwner(lockPath);
    if (holder && isAlive(holder)) {
      const where =
        holder.pid === process.pid && holder.hostname === owner.hostname ? 'this process' : `process ${holder.pid} on ${holder.hostname}`;
      throw new MemsvcError(
        'DATABASE_LOCKED',
        `${label} is already open in ${where} (since ${holder.acquiredAt}). An embedded PGlite database serves one ` +
          `process at a time; stop the other process, or use PostgreSQL (postgres://…) to share one database between ` +
          `several processes. If no such process exists, delete ${lockPath}.`,
        { lockPath, holderPid: holder.pid },
      );
    }
    // Stale (its process is gone) or unreadable: move it aside atomically and try again.
    try {
      renameSync(lockPath, `${lockPath}.stale-${owner.nonce}`);
      unlinkSync(`${lockPath}.stale-${owner.nonce}`);
    } catch {
      // Another process took it over first; the next attempt reports it.
    }
  }
  throw new MemsvcError('DATABASE_LOCKED', `${label}: could not take the lock file ${lockPath}`, { lockPath });
}

function tryCreate(lockPath: string, owner: LockOwner): boolean {
  let fd: number;
  try {
    fd = openSync(lockPath, 'wx', 0o644);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    writeSync(fd, `${JSON.stringify(owner)}\n`);
  } finally {
    closeSync(fd);
  }
  return true;
}

function readOwner(lockPath: string): LockOwner | undefined {
  try {
    const parsed = JSON.parse(readFileSync(lockPath, 'utf8')) as Partial<LockOwner>;
    return typeof parsed.pid === 'number' && typeof parsed.hostname === 'string' ? (parsed as LockOwner) : undefined;
  } catch {
    return undefined;
  }
}

function isAlive(holder: LockOwner): boolean {
  // A lock from another host (a shared volume) cannot be checked: treat it as held.
  if (holder.hostname !== hostname()) return true;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function heldLock(lockPath: string, owner: LockOwner): DirectoryLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    process.off('exit', release);
    // Remove the file only while it is still ours.
    if (readOwner(lockPath)?.nonce === owner.nonce) {
      try {
        unlinkSync(lockPath);
      } catch {
        // already gone
      }
    }
  };
  // A process that exits without closing the store (an uncaught error) still frees the lock.
  process.on('exit', release);
  return { path: lockPath, release };
}
