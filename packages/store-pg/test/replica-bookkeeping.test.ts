import { toTenantId } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { RecentWrites } from '../src/replica/recent-writes.js';
import { ReplayProgress } from '../src/replica/replay-progress.js';
import { parseWalPosition } from '../src/replica/wal-position.js';

// The arithmetic behind the read replica's routing, without a database: the suite over two real
// clusters (read-replica.test.ts) shows it at work.

describe('parseWalPosition', () => {
  it('reads pg_lsn text as a number that orders like the WAL', () => {
    expect(parseWalPosition('0/0')).toBe(0n);
    expect(parseWalPosition('16/B374D848')).toBe((0x16n << 32n) | 0xb374d848n);
    expect(parseWalPosition('1/0') > parseWalPosition('0/FFFFFFFF')).toBe(true);
    expect(() => parseWalPosition('not a position')).toThrow(/not a WAL position/);
  });
});

describe('ReplayProgress', () => {
  it('R-REPLICA-LAG: an idle primary does not make a caught-up standby look old, however long ago the last write was', () => {
    const progress = new ReplayProgress();
    progress.primaryAt(100n, 0, 0);
    expect(progress.standbyAt(100n, 0).lagMs).toBe(0);
    // An hour without writes: the primary stays at 100, the standby has it all.
    progress.primaryAt(100n, 3_600_000, 0);
    expect(progress.standbyAt(100n, 3_600_000).lagMs).toBe(0);
  });

  it('R-REPLICA-LAG: a standby is as old as the last moment the primary was where it is now', () => {
    const progress = new ReplayProgress();
    progress.primaryAt(100n, 0, 0);
    progress.primaryAt(200n, 1_000, 0);
    progress.primaryAt(300n, 2_000, 0);
    // Replayed 200 of 300 at 2.5 s: it lacks what was written after 1 s.
    expect(progress.standbyAt(250n, 2_500).lagMs).toBe(1_500);
    // Stuck there while the primary moves on, it keeps ageing.
    progress.primaryAt(400n, 60_000, 0);
    expect(progress.standbyAt(250n, 60_000).lagMs).toBe(59_000);
    expect(progress.standbyAt(400n, 60_100).lagMs).toBe(0);
  });

  it('R-REPLICA-LAG: behind everything it has seen, the lag is at least the age of the oldest position', () => {
    const progress = new ReplayProgress();
    progress.primaryAt(500n, 10_000, 0);
    progress.primaryAt(500n, 20_000, 0);
    expect(progress.standbyAt(400n, 30_000)).toMatchObject({ lagMs: 20_000, behindHistory: true });
    expect(progress.standbyAt(500n, 30_000)).toMatchObject({ lagMs: 0, behindHistory: false });
  });

  it('R-REPLICA-RYW: counts the writes completed before a position the standby has replayed as visible, never fewer later', () => {
    const progress = new ReplayProgress();
    progress.primaryAt(100n, 0, 3);
    progress.primaryAt(200n, 1_000, 5);
    expect(progress.standbyAt(150n, 1_000).visibleWrites).toBe(3);
    expect(progress.standbyAt(200n, 1_000).visibleWrites).toBe(5);
    progress.primaryAt(300n, 2_000, 9);
    expect(progress.standbyAt(250n, 2_000).visibleWrites).toBe(5);
  });
});

describe('RecentWrites', () => {
  const alice = toTenantId('alice');
  const bob = toTenantId('bob');

  it('R-REPLICA-RYW: a tenant waits until the standby shows its last write; other tenants do not wait', () => {
    const writes = new RecentWrites();
    expect(writes.pending(alice)).toBe(false);
    writes.wrote(alice);
    writes.wrote(bob);
    writes.wrote(alice);
    expect(writes.completed).toBe(3);
    writes.visibleUpTo(2);
    expect(writes.pending(bob)).toBe(false);
    expect(writes.pending(alice)).toBe(true);
    writes.visibleUpTo(3);
    expect(writes.pending(alice)).toBe(false);
    writes.visibleUpTo(1);
    expect(writes.pending(alice)).toBe(false);
  });

  it('R-REPLICA-RYW: past 50,000 tenants waiting, every tenant waits for the latest write (memory stays bounded)', () => {
    const writes = new RecentWrites();
    for (let i = 0; i <= 50_000; i++) writes.wrote(toTenantId(`tenant-${i}`));
    expect(writes.pending(toTenantId('never-wrote'))).toBe(true);
    writes.visibleUpTo(writes.completed);
    expect(writes.pending(toTenantId('never-wrote'))).toBe(false);
    expect(writes.pending(toTenantId('tenant-7'))).toBe(false);
  });
});
