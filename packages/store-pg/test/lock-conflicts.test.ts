import { setTimeout as sleep } from 'node:timers/promises';
import { ManualClock } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { LOCK_CONFLICT_ATTEMPTS } from '../src/connection/lock-conflicts.js';
import type { MemsvcStore } from '../src/index.js';
import { inSearchTransaction, type SearchSettings } from '../src/memory/write-transaction.js';
import { describeEachEngine } from './support/each-engine.js';
import { openTestStore } from './support/open-test-store.js';

const search: SearchSettings = { efSearch: undefined, iterativeScan: false };
const lockConflict = () => Object.assign(new Error('deadlock detected'), { code: '40P01' });

describeEachEngine('write transactions and lock conflicts', (engine) => {
  let store: MemsvcStore;
  const db = () => store.connection.db;
  const probe = async () =>
    (await sql<{ id: number; n: number }>`SELECT id, n FROM lock_probe ORDER BY id`.execute(db())).rows.map((row) => [row.id, row.n]);

  beforeAll(async () => {
    store = await openTestStore({
      database: await engine.freshDatabaseUrl(),
      clock: new ManualClock('2026-05-01T09:00:00.000Z'),
      vector: { dimensions: 8 },
    });
    await sql`CREATE TABLE lock_probe (id int PRIMARY KEY, n int NOT NULL)`.execute(db());
  });
  afterAll(async () => {
    await store?.close();
  });
  beforeEach(async () => {
    await sql`TRUNCATE lock_probe`.execute(db());
  });

  it('runs a transaction the server aborted for a lock conflict again, and the aborted attempt leaves nothing', async () => {
    let attempts = 0;
    const result = await inSearchTransaction(db(), search, async (trx) => {
      attempts++;
      await sql`INSERT INTO lock_probe VALUES (1, ${attempts})`.execute(trx);
      if (attempts === 1) throw lockConflict();
      return 'written';
    });
    expect(result).toBe('written');
    expect(attempts).toBe(2);
    expect(await probe()).toEqual([[1, 2]]);
  });

  it('gives up after LOCK_CONFLICT_ATTEMPTS, and never retries any other error', async () => {
    let attempts = 0;
    const conflicting = inSearchTransaction(db(), search, async (trx) => {
      attempts++;
      await sql`INSERT INTO lock_probe VALUES (1, 1)`.execute(trx);
      throw lockConflict();
    });
    await expect(conflicting).rejects.toMatchObject({ code: '40P01' });
    expect(attempts).toBe(LOCK_CONFLICT_ATTEMPTS);

    attempts = 0;
    const failing = inSearchTransaction(db(), search, async (trx) => {
      attempts++;
      await sql`INSERT INTO lock_probe VALUES (1, 1)`.execute(trx);
      await sql`INSERT INTO lock_probe VALUES (1, 1)`.execute(trx);
    });
    await expect(failing).rejects.toMatchObject({ code: '23505' });
    expect(attempts).toBe(1);
    expect(await probe()).toEqual([]);
  });

  it.runIf(engine.supportsSecondConnection)(
    'survives a real deadlock with another connection: the victim reruns and both commit',
    async () => {
      await sql`INSERT INTO lock_probe VALUES (1, 0), (2, 0)`.execute(db());
      let attempts = 0;
      let otherHoldsTwo!: () => void;
      const otherReady = new Promise<void>((resolve) => {
        otherHoldsTwo = resolve;
      });
      let oursHoldsOne!: () => void;
      const oursReady = new Promise<void>((resolve) => {
        oursHoldsOne = resolve;
      });
      let otherCommitted!: () => void;
      const otherDone = new Promise<void>((resolve) => {
        otherCommitted = resolve;
      });

      // The other connection locks row 2, then asks for row 1, which ours holds.
      let otherPid = 0;
      const other = db()
        .connection()
        .execute(async (connection) => {
          otherPid = (await sql<{ pid: number }>`SELECT pg_backend_pid() AS pid`.execute(connection)).rows[0]?.pid ?? 0;
          await sql`BEGIN`.execute(connection);
          // Far longer than ours: the server checks ours first however slow the machine is.
          await sql`SET LOCAL deadlock_timeout = '30s'`.execute(connection);
          await sql`UPDATE lock_probe SET n = n + 1 WHERE id = 2`.execute(connection);
          otherHoldsTwo();
          await oursReady;
          await sql`UPDATE lock_probe SET n = n + 1 WHERE id = 1`.execute(connection);
          await sql`COMMIT`.execute(connection);
          otherCommitted();
        });

      const waitUntilWaitingForLock = async (pid: number) => {
        for (let polls = 0; polls < 1_000; polls++) {
          const activity = await sql<{ waiting: boolean }>`
            SELECT wait_event_type = 'Lock' AS waiting FROM pg_stat_activity WHERE pid = ${pid}`.execute(db());
          if (activity.rows[0]?.waiting) return;
          await sleep(10);
        }
        throw new Error(`connection ${pid} never came to wait for row 1`);
      };

      const ours = inSearchTransaction(db(), search, async (trx) => {
        attempts++;
        // Ours checks for the deadlock first, so ours is the transaction the server aborts.
        if (attempts === 1) await sql`SET LOCAL deadlock_timeout = '20ms'`.execute(trx);
        // The rerun starts once the other has committed: woken at the same moment, the rerun could
        // otherwise take row 1 before the other and deadlock with it a second time.
        if (attempts > 1) await otherDone;
        await sql`UPDATE lock_probe SET n = n + 1 WHERE id = 1`.execute(trx);
        if (attempts === 1) {
          await otherReady;
          oursHoldsOne();
          // Only once the other connection waits for row 1 does ours ask for row 2: then ours
          // (20 ms deadlock_timeout against the other's 30 s) is the one the server aborts, however
          // busy the machine (a fixed sleep was not always long enough).
          await waitUntilWaitingForLock(otherPid);
        }
        await sql`UPDATE lock_probe SET n = n + 1 WHERE id = 2`.execute(trx);
      });

      await Promise.all([ours, other]);
      expect(attempts).toBe(2);
      expect(await probe()).toEqual([
        [1, 2],
        [2, 2],
      ]);
    },
  );
});
