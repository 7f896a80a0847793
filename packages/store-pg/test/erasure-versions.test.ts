import { type CallContext, createMemoryEngine, FUSION_WEIGHTS, type MemoryEngine, toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { LocalEmbedder } from '@memsvc/embeddings';
import { type Kysely, sql } from 'kysely';
import { beforeEach, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import type { MemsvcStore } from '../src/index.js';
import { describeEachEngine } from './support/each-engine.js';
import { rowsContaining } from './support/rows-containing.js';
import { useSuiteStore } from './support/suite-store.js';

const START = '2026-07-01T09:00:00.000Z';
const alice: CallContext = { tenant: toTenantId('alice'), actor: { id: 'user:alice' } };
/** A word only the first version of the edited turn has: where it (or its stem) remains, the erasure missed a version. */
const FIRST_ONLY = 'vorpalsnicket';
const TABLES = ['memory_grant_defaults', 'memory_grants', 'memory_erasures', 'memory_audit', 'memory_links', 'memory_import_ledger'];

describeEachEngine('erasure of an edited turn that a later turn quotes', (engine) => {
  const clock = new ManualClock(START);
  const opened = useSuiteStore(engine, clock, { tables: TABLES, start: START });
  let store: MemsvcStore;
  let memories: MemoryEngine;

  beforeEach(async () => {
    store = opened.current;
    await sql`DELETE FROM memories`.execute(store.connection.db);
    memories = createMemoryEngine({
      store: store.memories,
      embedder: new LocalEmbedder(),
      clock,
      fusion: FUSION_WEIGHTS.local,
      erasures: store.erasures,
      grants: store.grants,
    });
  });

  /** Two turns, the second quoting the first; then the first is edited (a new version, without FIRST_ONLY). */
  async function quotedThenEdited() {
    const turns = await memories.ingestConversation(alice, {
      turns: [
        { role: 'user', content: `My locker code is hidden under the ${FIRST_ONLY} lamp` },
        { role: 'assistant', content: 'Noted, I will keep that in mind for the gym' },
      ],
      date: new Date('2026-06-30T00:00:00Z'),
    });
    const [first, second] = turns.memoryIds as [string, string];
    clock.advance(60_000);
    await memories.update(alice, first, { content: 'user: My locker code is hidden under the desk lamp' }, 1);
    return { first, second };
  }

  const lexicalIds = async (query: string) =>
    (await memories.recall(alice, { query, limit: 10 })).results.filter((r) => r.lexicalRank !== undefined).map((r) => r.memory.id);

  it(
    verifies(
      'R-ERASE-EVERY-VERSION',
      "erasing an edited turn removes every version's words from the later turns that quoted it: no table, recall or export keeps them, and the check finds a quote put back",
    ),
    async () => {
      const { first, second } = await quotedThenEdited();
      const db = store.connection.db as Kysely<unknown>;
      // Before: the later turn is found by the first version's word, through its quote.
      expect(await lexicalIds(FIRST_ONLY)).toContain(second);

      const receipt = await memories.erase(alice, [first]);
      expect(receipt.counts.searchContexts).toBe(1);

      expect(await rowsContaining(db, FIRST_ONLY.slice(0, 9))).toEqual({});
      expect(await lexicalIds(FIRST_ONLY)).not.toContain(second);
      const page = await store.exports.exportPage(alice.tenant, {
        includeDeleted: true,
        includeSuperseded: true,
        includeAudit: true,
        includeVectors: false,
        limit: 100,
      });
      expect(page.memories.map((memory) => memory.id)).toEqual([second]);
      expect(JSON.stringify(page)).not.toContain(FIRST_ONLY.slice(0, 9));
      // The later turn keeps what it says and the rest of its context.
      expect((await memories.getUncounted(alice, second)).content).toContain('keep that in mind');
      expect(await lexicalIds('gym')).toContain(second);

      expect(await memories.verifyErasure(alice, receipt.erasureId)).toMatchObject({ verified: true });
      // The first version's quote planted back into the later turn's context: the check finds it.
      await sql`UPDATE memories SET search_context = search_context || ${`; after: My locker code is hidden under the ${FIRST_ONLY} lamp`}
        WHERE id = ${second}`.execute(db);
      expect(await memories.verifyErasure(alice, receipt.erasureId)).toMatchObject({ verified: false, remaining: { searchContexts: 1 } });
    },
  );
});
