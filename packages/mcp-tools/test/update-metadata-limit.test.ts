import { MEMORY_LIMITS } from '@memsvc/core';
import { InMemoryMemoryStore, inMemoryEngine, ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { afterEach, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { connectedClient } from './connected-client.js';

type Structured = {
  memory?: { id: string; version: number; metadata: Record<string, unknown> };
  error?: { code: string; message: string };
};

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

it(
  verifies(
    'R-METADATA-MERGED',
    'update_memory refuses metadata that grows past the limit once merged, naming metadata, and changes nothing',
  ),
  async () => {
    const clock = new ManualClock('2026-05-01T10:00:00Z');
    const store = new InMemoryMemoryStore({ clock });
    const engine = inMemoryEngine(store, { embedder: new StaticEmbedder({}, undefined), clock });
    const client = await connectedClient(engine, clock);
    close = () => client.close();
    const call = async (name: string, args: Record<string, unknown>) => {
      const result = await client.callTool({ name, arguments: args });
      return { isError: result.isError === true, structured: result.structuredContent as Structured };
    };

    // Each call stays under the limit on its own; the second would double what is stored.
    const half = 'x'.repeat(40_000);
    const created = await call('create_memory', { content: 'Build cache settings', type: 'ltm', metadata: { a: half } });
    const id = created.structured.memory?.id ?? '';
    const audit = async () => ((await call('get_memory_audit', { memoryId: id })).structured as { entries: unknown[] }).entries;
    const auditBefore = await audit();

    const grown = await call('update_memory', { memoryId: id, expectedVersion: 1, metadata: { b: half } });
    expect(grown).toMatchObject({
      isError: true,
      structured: {
        error: {
          code: 'INVALID_INPUT',
          data: { field: 'metadata' },
          message: expect.stringContaining(`the limit is ${MEMORY_LIMITS.metadataMaxBytes}`),
        },
      },
    });
    const read = await call('get_memory', { memoryId: id });
    expect(read.structured.memory).toMatchObject({ version: 1, metadata: { a: half } });
    expect(Object.keys(read.structured.memory?.metadata ?? {})).toEqual(['a']);
    expect(await audit()).toEqual(auditBefore);
    expect(store.contents().audit).toHaveLength(1);
  },
);
