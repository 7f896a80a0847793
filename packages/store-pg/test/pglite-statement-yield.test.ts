import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type StoreConnection } from '../src/index.js';

/**
 * PGlite runs on this thread and answers through promises alone: without a loop turn between
 * statements, a long transaction kept every timer, socket and HTTP request of the process
 * waiting until its end (pglite-statement-yield.ts).
 */
describe('the embedded engine lets the event loop turn between statements', () => {
  let connection: StoreConnection;
  beforeAll(async () => {
    connection = await openDatabase('pglite://memory');
  });
  afterAll(async () => {
    await connection?.close();
  });

  it('runs a timer that falls due in the middle of a 40-statement transaction before the transaction ends', async () => {
    const events: string[] = [];
    let statements = 0;
    const work = connection.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 40; i++) {
        await sql`SELECT pg_sleep(0.002)`.execute(trx);
        statements++;
      }
      events.push('transaction ended');
    });
    const timer = new Promise<void>((resolve) =>
      setTimeout(() => {
        events.push(`timer ran after ${statements} statements`);
        resolve();
      }, 10),
    );
    await Promise.all([work, timer]);
    expect(events).toHaveLength(2);
    expect(events[0]).toMatch(/^timer ran after \d+ statements$/);
    expect(statements).toBe(40);
    const after = Number(/after (\d+)/.exec(events[0] ?? '')?.[1]);
    expect(after).toBeGreaterThan(0);
    expect(after).toBeLessThan(40);
  });

  it('keeps the statements of concurrent callers in order and apart', async () => {
    await sql`CREATE TEMP TABLE turns_log (caller int, step int, at bigserial)`.execute(connection.db);
    await Promise.all(
      [1, 2, 3].map((caller) =>
        connection.db.transaction().execute(async (trx) => {
          for (let step = 0; step < 10; step++) await sql`INSERT INTO turns_log (caller, step) VALUES (${caller}, ${step})`.execute(trx);
        }),
      ),
    );
    const rows = (await sql<{ caller: number; step: number }>`SELECT caller, step FROM turns_log ORDER BY at`.execute(connection.db)).rows;
    expect(rows).toHaveLength(30);
    // One connection: each transaction's ten statements run together, in their order.
    for (let block = 0; block < 3; block++) {
      const slice = rows.slice(block * 10, block * 10 + 10);
      expect(new Set(slice.map((row) => row.caller)).size).toBe(1);
      expect(slice.map((row) => row.step)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    }
  });
});
