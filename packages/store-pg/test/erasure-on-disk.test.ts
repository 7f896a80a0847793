import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { type CallContext, createMemoryEngine, systemClock, toTenantId } from '@memsvc/core';
import { LocalEmbedder } from '@memsvc/embeddings';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import type { MemsvcStore } from '../src/index.js';
import { temporaryDirectory } from './support/each-engine.js';
import { filesContaining } from './support/files-containing.js';
import { openTestStore } from './support/open-test-store.js';

const alice: CallContext = { tenant: toTenantId('alice'), actor: { id: 'user:alice' } };

function engineOn(store: MemsvcStore) {
  return createMemoryEngine({
    store: store.memories,
    embedder: new LocalEmbedder(),
    clock: systemClock,
    erasures: store.erasures,
    grants: store.grants,
  });
}

/**
 * What to look for in the files: a short random word, and slices of a long random one (3,000
 * characters of base64: stored out of line in TOAST, and incompressible, so pglz cannot hide it).
 */
function secrets() {
  const short = `zebracorn${randomBytes(6).toString('hex')}`;
  const long = `zebracorn-${randomBytes(2250).toString('base64url')}`;
  const needles = { short, ...Object.fromEntries([0, 1000, 2000].map((at) => [`long@${at}`, long.slice(at, at + 64)])) };
  return { short, long, needles };
}

describe('erasure on a PGlite directory', () => {
  it(
    verifies('R-ERASE-PGLITE-FILES', 'after an erasure the text is in no file of the data directory, recycled WAL segments included'),
    { timeout: 120_000 },
    async () => {
      const directory = join(temporaryDirectory(), 'data');
      const { short, long, needles } = secrets();
      let store = await openTestStore({ database: `pglite://${directory}` });
      const memories = engineOn(store);
      const first = await memories.create(alice, { tier: 'ltm', content: `The vault word was ${short} until March` });
      await memories.update(alice, first.memory.id, { content: `The vault word is ${short}, changed in March` }, 1);
      const second = await memories.create(alice, { tier: 'ltm', content: `Recovery key ${long}` });
      const kept = await memories.create(alice, { tier: 'ltm', content: 'The garden gate code is 2291' });
      const db = store.connection.db;
      // Statistics sample the words (pg_statistic), and a checkpoint puts every page in its file.
      await sql`ANALYZE`.execute(db);
      await sql`CHECKPOINT`.execute(db);
      // A database written before memsvc turned WAL recycling off: the segment holding the words is
      // renamed to a future segment's name, its bytes unchanged.
      await db.transaction().execute(async (trx) => {
        await sql`SET LOCAL wal_recycle = on`.execute(trx);
        await sql`SELECT pg_switch_wal()`.execute(trx);
        await sql`CHECKPOINT`.execute(trx);
      });
      const before = filesContaining(directory, needles);
      expect(before.some((file) => file.startsWith('pgdata/base/'))).toBe(true);
      expect(before.some((file) => file.startsWith('pgdata/pg_wal/'))).toBe(true);

      const receipt = await memories.erase(alice, [first.memory.id, second.memory.id]);
      await store.close();

      expect(filesContaining(directory, needles)).toEqual([]);
      // The database is whole: what was kept is there, and the erasure checks out.
      store = await openTestStore({ database: `pglite://${directory}` });
      try {
        const again = engineOn(store);
        expect((await again.getUncounted(alice, kept.memory.id)).content).toContain('2291');
        expect((await again.verifyErasure(alice, receipt.erasureId)).verified).toBe(true);
      } finally {
        await store.close();
      }
    },
  );

  it(
    verifies('R-ERASE-PGLITE-FILES', 'an erasure made by a process attached to the host compacts the files the host owns'),
    { timeout: 120_000 },
    async () => {
      const directory = join(temporaryDirectory(), 'data');
      const { short, long, needles } = secrets();
      const host = await openTestStore({ database: `pglite://${directory}` });
      const attached = await openTestStore({ database: `pglite://${directory}` });
      try {
        expect([host.connection.hosting?.(), attached.connection.hosting?.()]).toEqual([true, false]);
        const memories = engineOn(attached);
        const secret = await memories.create(alice, { tier: 'ltm', content: `The vault word is ${short}, key ${long}` });
        await sql`ANALYZE`.execute(attached.connection.db);
        await sql`CHECKPOINT`.execute(attached.connection.db);
        expect(filesContaining(directory, needles)).not.toEqual([]);
        await memories.erase(alice, [secret.memory.id]);
        // Still open in the host: the compaction ran there, through the socket.
        expect(filesContaining(directory, needles)).toEqual([]);
      } finally {
        await attached.close();
        await host.close();
      }
      expect(filesContaining(directory, needles)).toEqual([]);
    },
  );
});
