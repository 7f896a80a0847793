import { createMemoryEngine, systemClock, toTenantId } from '@memsvc/core';
import { DisabledEmbedder } from '@memsvc/embeddings';

import { beforeAll, describe, expect, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { cliWorkspace, openTestStore } from './support/cli-engines.js';
import type { Run } from './support/run-executable.js';
import { runInProcess } from './support/run-in-process.js';

const { workDir, engines } = cliWorkspace('memsvc-erase');

function lastJsonLine<T>(run: Run): T {
  const lines = run.stdout.trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '') as T;
}

for (const engine of engines) {
  describe(`memsvc erase [${engine.name}]`, () => {
    let databaseUrl = '';
    let ids: { alice: string[]; bob: string };
    const memsvc = (args: string[]) => runInProcess('memsvc', args, { DATABASE_URL: databaseUrl }, workDir);

    beforeAll(async () => {
      databaseUrl = await engine.url();
      const store = await openTestStore({ database: databaseUrl, pool: { maxConnections: 1 } });
      try {
        const memories = createMemoryEngine({
          store: store.memories,
          embedder: new DisabledEmbedder(),
          clock: systemClock,
          grants: store.grants,
          erasures: store.erasures,
        });
        const write = async (user: string, content: string) =>
          (await memories.create({ tenant: toTenantId(user), actor: { id: `user:${user}` } }, { tier: 'ltm', content })).memory.id;
        ids = {
          alice: [
            await write('alice', 'Alice hides the key in the teapot'),
            await write('alice', 'Alice likes rye bread'),
            await write('alice', 'Alice runs on Sundays'),
          ],
          bob: await write('bob', 'Bob hides nothing'),
        };
      } finally {
        await store.close();
      }
    });

    it('erases memories with a receipt, verifies it, refuses a whole user without the repeated id, then erases the user', async () => {
      const [key, ...rest] = ids.alice as [string, ...string[]];
      const erased = await memsvc(['erase', 'memories', '--user', 'alice', '--memory', key, '--json']);
      expect(erased.code, erased.stderr).toBe(0);
      const receipt = lastJsonLine<{ erasureId: string; memoryIds: string[]; counts: { memories: number } }>(erased);
      expect(receipt).toMatchObject({ memoryIds: [key], counts: { memories: 1 } });
      const verified = await memsvc(['erase', 'verify', receipt.erasureId, '--user', 'alice']);
      expect([verified.code, verified.stdout]).toEqual([0, expect.stringContaining('verified — nothing of its memories remains')]);
      expect((await memsvc(['erase', 'memories', '--user', 'alice', '--memory', key])).stderr).toContain('ERASED');
      expect((await memsvc(['erase', 'memories', '--user', 'alice', '--memory', ids.bob])).stderr).toContain('NOT_FOUND');

      const unconfirmed = await memsvc(['erase', 'user', '--user', 'alice', '--confirm', 'bob']);
      expect([unconfirmed.code, unconfirmed.stderr]).toEqual([2, expect.stringContaining('--confirm must repeat the --user id')]);
      const whole = await memsvc(['erase', 'user', '--user', 'alice', '--confirm', 'alice', '--json']);
      expect(whole.code, whole.stderr).toBe(0);
      expect(lastJsonLine<{ memoryIds: string[]; state: string }>(whole)).toEqual(
        expect.objectContaining({ memoryIds: [...rest].sort(), state: 'completed' }),
      );
      // Bob's memory was never touched: erasing it by alice's name found nothing.
      expect((await memsvc(['erase', 'memories', '--user', 'bob', '--memory', ids.bob, '--json'])).code).toBe(0);
    });
  });
}
