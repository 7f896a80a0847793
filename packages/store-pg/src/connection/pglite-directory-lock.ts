import { randomUUID } from 'node:crypto';
import { linkSync, readFileSync, renameSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { MemsvcError } from '@memsvc/core';

interface LockOwner {
  readonly pid: number;
  readonly hostname: string;
  readonly nonce: string;
  /** The holder's process start time (Linux), so a reused pid is not mistaken for the holder. */
  readonly processStart: string | null;
  readonly acquiredAt: string;
}

/** A held lock on a PGlite directory; `release` is idempotent. */
export interface DirectoryLock {
  readonly path: string;
  release(): void;
}

/** Nonces of the locks this process holds, to tell "held by me" from "left by my previous life". */
const heldNonces = new Set<string>();

/** A lock file that cannot be read this long after it was written is debris, not a lock being written. */
const UNREADABLE_GRACE_MS = 10_000;

/**
 * One process per PGlite directory. PGlite has no locking of its own: two processes that open
 * the same directory both succeed and one of them silently loses its writes. The lock file is
 * published atomically — written in full under a private name, then hard-linked into place,
 * which fails if a lock is already there — so a reader never sees a half-written lock. A second
 * opener fails with DATABASE_LOCKED naming the holder. A lock whose holder is gone (killed,
 * crashed, or a container restarted as the same pid) is taken over, and a takeover that raced
 * with another one backs off instead of stealing a fresh lock.
 */
export function acquireDirectoryLock(lockPath: string, label: string): DirectoryLock {
  const owner: LockOwner = {
    pid: process.pid,
    hostname: hostname(),
    nonce: randomUUID(),
    processStart: processStartTime(process.pid),
    acquiredAt: new Date().toISOString(),
  };
  for (let attempt = 0; attempt < 3; attempt++) {
    if (publish(lockPath, owner)) {
      heldNonces.add(owner.nonce);
      return heldLock(lockPath, owner);
    }
    const holder = readOwner(lockPath);
    if (holder === 'missing') continue;
    if (holder === 'unreadable' ? isFresh(lockPath) : isAlive(holder)) throw lockedError(lockPath, label, holder);
    if (!moveAsideIfStill(lockPath, holder)) throw lockedError(lockPath, label, readOwner(lockPath));
  }
  throw new MemsvcError('DATABASE_LOCKED', `${label}: could not take the lock file ${lockPath}`, { lockPath });
}

/** Writes the owner under a private name and links it into place; false if a lock exists. */
function publish(lockPath: string, owner: LockOwner): boolean {
  const draft = `${lockPath}.${owner.nonce}.tmp`;
  writeFileSync(draft, `${JSON.stringify(owner)}\n`, { mode: 0o644 });
  try {
    linkSync(draft, lockPath);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  } finally {
    unlinkSync(draft);
  }
}

/**
 * Moves a stale lock aside, but only the one judged stale: if another process replaced it in
 * the meantime, its fresh lock is put back and the caller reports the directory as locked.
 */
function moveAsideIfStill(lockPath: string, judged: LockOwner | 'unreadable'): boolean {
  const aside = `${lockPath}.stale-${randomUUID()}`;
  try {
    renameSync(lockPath, aside);
  } catch {
    return true; // already moved by someone else; the next attempt decides
  }
  const moved = readOwner(aside);
  const sameLock = judged === 'unreadable' ? moved === 'unreadable' : typeof moved === 'object' && moved.nonce === judged.nonce;
  if (!sameLock) {
    try {
      linkSync(aside, lockPath);
    } catch {
      // A third process published meanwhile; its lock stands either way.
    }
    unlinkSync(aside);
    return false;
  }
  unlinkSync(aside);
  return true;
}

function readOwner(lockPath: string): LockOwner | 'unreadable' | 'missing' {
  let text: string;
  try {
    text = readFileSync(lockPath, 'utf8');
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable';
  }
  try {
    const parsed = JSON.parse(text) as Partial<LockOwner>;
    return typeof parsed.pid === 'number' && typeof parsed.hostname === 'string' && typeof parsed.nonce === 'string'
      ? (parsed as LockOwner)
      : 'unreadable';
  } catch {
    return 'unreadable';
  }
}

function isAlive(holder: LockOwner): boolean {
  // A lock from another host (a shared volume) cannot be checked: treat it as held.
  if (holder.hostname !== hostname()) return true;
  // Our own pid: held only if this very process holds it; otherwise it is our previous life's
  // (a container restarted as pid 1 after SIGKILL).
  if (holder.pid === process.pid) return heldNonces.has(holder.nonce);
  try {
    process.kill(holder.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const stat = processStat(holder.pid);
  // A zombie (killed, not yet reaped by its parent) holds no files: its lock is stale.
  if (stat?.state === 'Z' || stat?.state === 'X') return false;
  // The pid is taken; it is the holder only if it started when the holder did.
  const start = stat?.startTime ?? null;
  return holder.processStart === null || start === null || start === holder.processStart;
}

function isFresh(lockPath: string): boolean {
  try {
    return Date.now() - statSync(lockPath).mtimeMs < UNREADABLE_GRACE_MS;
  } catch {
    return false;
  }
}

/** Field 22 of /proc/<pid>/stat (start time in clock ticks since boot); null where unavailable. */
function processStartTime(pid: number): string | null {
  return processStat(pid)?.startTime ?? null;
}

/** Fields 3 (state: R, S, D, Z…) and 22 (start time) of /proc/<pid>/stat; undefined where unavailable. */
function processStat(pid: number): { state: string | undefined; startTime: string | null } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may contain spaces and parentheses; fields after it are plain.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0], startTime: fields[19] ?? null };
  } catch {
    return undefined;
  }
}

function lockedError(lockPath: string, label: string, holder: LockOwner | 'unreadable' | 'missing'): MemsvcError {
  const described =
    typeof holder === 'object'
      ? `${holder.pid === process.pid && holder.hostname === hostname() ? 'this process' : `process ${holder.pid} on ${holder.hostname}`} (since ${holder.acquiredAt})`
      : 'another process';
  return new MemsvcError(
    'DATABASE_LOCKED',
    `${label} is already open in ${described}. An embedded PGlite database is hosted by one process at a time (the others attach to it); stop the ` +
      `other process, or use PostgreSQL (postgres://…) to share one database between several processes. If no such ` +
      `process exists, delete ${lockPath}.`,
    { lockPath, ...(typeof holder === 'object' ? { holderPid: holder.pid } : {}) },
  );
}

function heldLock(lockPath: string, owner: LockOwner): DirectoryLock {
  let released = false;
  const release = () => {
    if (released) return;
    released = true;
    heldNonces.delete(owner.nonce);
    process.off('exit', release);
    // Remove the file only while it is still ours.
    const current = readOwner(lockPath);
    if (typeof current === 'object' && current.nonce === owner.nonce) {
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
