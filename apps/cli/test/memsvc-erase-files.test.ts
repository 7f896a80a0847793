import { randomBytes } from 'node:crypto';
import { createMemoryEngine, systemClock, toTenantId } from '@memsvc/core';
import { DisabledEmbedder } from '@memsvc/embeddings';

import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { verifies } from '../../../packages/core/test/requirements.js';
import { filesContaining } from '../../../packages/store-pg/test/support/files-containing.js';
import { cliWorkspace, openTestStore } from './support/cli-engines.js';
import { runInProcess } from './support/run-in-process.js';

const { workDir, engines } = cliWorkspace('memsvc-erase-files');

describe('memsvc erase on a PGlite directory', () => {
  it(
    verifies('R-ERASE-PGLITE-FILES', 'erase user compacts the directory: the text of every memory of the user is in no file'),
    { timeout: 120_000 },
    async () => {
      const directory = `${workDir}/data`;
      const databaseUrl = `pglite://${directory}`;
      const short = `zebracorn${randomBytes(6).toString('hex')}`;
      const long = `zebracorn-${randomBytes(2250).toString('base64url')}`;
      const needles = { short, 'long@0': long.slice(0, 64), 'long@2000': long.slice(2000, 2064) };
      const store = await openTestStore({ database: databaseUrl, pool: { maxConnections: 1 } });
      try {
        const memories = createMemoryEngine({
          store: store.memories,
          embedder: new DisabledEmbedder(),
          clock: systemClock,
          grants: store.grants,
          erasures: store.erasures,
        });
        const alice = { tenant: toTenantId('alice'), actor: { id: 'user:alice' } };
        await memories.create(alice, { tier: 'ltm', content: `The vault word is ${short}` });
        await memories.create(alice, { tier: 'ltm', content: `Recovery key ${long}` });
        await memories.create({ tenant: toTenantId('bob'), actor: { id: 'user:bob' } }, { tier: 'ltm', content: 'Bob keeps bees' });
        await sql`ANALYZE`.execute(store.connection.db);
        await sql`CHECKPOINT`.execute(store.connection.db);
      } finally {
        await store.close();
      }
      expect(filesContaining(directory, needles)).not.toEqual([]);

      const memsvc = (args: string[]) => runInProcess('memsvc', args, { DATABASE_URL: databaseUrl }, workDir);
      const erased = await memsvc(['erase', 'user', '--user', 'alice', '--confirm', 'alice', '--json']);
      expect(erased.code, erased.stderr).toBe(0);
      const receipt = JSON.parse(erased.stdout.trimEnd().split('\n').pop() ?? '') as { state: string; compaction?: { tables: number } };
      expect(receipt).toMatchObject({ state: 'completed', compaction: { tables: expect.any(Number) } });
      expect(filesContaining(directory, needles)).toEqual([]);

      // On its own, for an erasure whose compaction failed or that an older memsvc made.
      const compacted = await memsvc(['erase', 'compact']);
      expect([compacted.code, compacted.stdout]).toEqual([0, expect.stringContaining('in no file of')]);
    },
  );

  const postgres = engines.find((engine) => engine.name === 'postgres');
  const refusal = 'erase compact on PostgreSQL is refused, saying what the operator must do';
  it.skipIf(!postgres)(
    verifies('R-ERASE-PGLITE-FILES', postgres ? refusal : `${refusal} (skipped: no PostgreSQL in this run)`),
    async () => {
      const databaseUrl = (await postgres?.url()) ?? '';
      const store = await openTestStore({ database: databaseUrl, pool: { maxConnections: 1 } });
      await store.close();
      const refused = await runInProcess('memsvc', ['erase', 'compact'], { DATABASE_URL: databaseUrl }, workDir);
      expect([refused.code, refused.stderr]).toEqual([2, expect.stringContaining('VACUUM (FULL)')]);
    },
  );
});
