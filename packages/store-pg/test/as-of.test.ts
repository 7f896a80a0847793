import { AUDIT_LIMITS, type CallContext, createMemoryEngine, type MemoryEngine, MemsvcError, toTenantId } from '@memsvc/core';
import { ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { beforeAll, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { describeEachStore } from './support/each-store.js';

const context = (tenant: string): CallContext => ({ tenant: toTenantId(tenant), actor: { id: `user:${tenant}` } });
const alice = context('alice');
const bob = context('bob');
const at = (time: string) => new Date(`2026-04-01T${time}:00.000Z`);

async function refusal(promise: Promise<unknown>): Promise<[string, unknown] | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) => (error instanceof MemsvcError ? [error.code, error.data.field] : ['other', String(error)]),
  );
}

describeEachStore('asOf (recall, get and list as the memory was then)', (kind) => {
  const clock = new ManualClock(at('09:00'));
  const store = kind.use({ clock, dimensions: 3 });
  const embedder = new StaticEmbedder({}, 'static-test');
  embedder.available = false;
  let memories: MemoryEngine;
  const ids: Record<string, string> = {};

  // One history, read at several moments:
  // 09:00 home "Alice lives in Paris"; 10:00 editor "Bob's editor is vim", release "The release is on June 3";
  // 11:00 home edited to Berlin; 12:00 "Bob's editor is now emacs" supersedes the vim one;
  // 13:00 the release memory deleted; 14:00 a later memory; now 15:00.
  beforeAll(async () => {
    await store.reset();
    memories = createMemoryEngine({ store: store.memories, embedder, clock, grants: store.grants, erasures: store.erasures });
    clock.set(at('09:00'));
    ids.home = (await memories.create(alice, { tier: 'ltm', content: 'Alice lives in Paris' })).memory.id;
    clock.set(at('10:00'));
    ids.vim = (await memories.create(alice, { tier: 'ltm', content: "Bob's editor is vim" })).memory.id;
    ids.release = (await memories.create(alice, { tier: 'ltm', content: 'The release is on June 3' })).memory.id;
    clock.set(at('11:00'));
    await memories.update(alice, ids.home ?? '', { content: 'Alice lives in Berlin now' }, 1);
    clock.set(at('12:00'));
    ids.emacs = (
      await memories.create(alice, { tier: 'ltm', content: "Bob's editor is now emacs", supersedes: [ids.vim ?? ''] })
    ).memory.id;
    clock.set(at('13:00'));
    await memories.delete(alice, ids.release ?? '');
    clock.set(at('14:00'));
    ids.later = (await memories.create(alice, { tier: 'ltm', content: 'Alice adopted a cat named Miso' })).memory.id;
    clock.set(at('15:00'));
  });

  const listed = async (asOf: Date, includeSuperseded = false) =>
    (await memories.list(alice, { limit: 50, asOf, includeSuperseded })).items.map((memory) => memory.content);

  it(
    verifies('R-ASOF-VERSIONS', 'list_memories as of a moment: the versions current then, newest first, later memories absent'),
    async () => {
      expect(await listed(at('10:30'))).toEqual(['The release is on June 3', "Bob's editor is vim", 'Alice lives in Paris']);
      expect(await listed(at('12:30'))).toEqual(["Bob's editor is now emacs", 'The release is on June 3', 'Alice lives in Berlin now']);
      expect(await listed(at('12:30'), true)).toEqual([
        "Bob's editor is now emacs",
        'The release is on June 3',
        "Bob's editor is vim",
        'Alice lives in Berlin now',
      ]);
      expect(await listed(at('13:30'))).toEqual(["Bob's editor is now emacs", 'Alice lives in Berlin now']);
      // Now, for comparison: the live list.
      expect((await memories.list(alice, { limit: 50 })).items.map((memory) => memory.content)).toEqual([
        'Alice adopted a cat named Miso',
        "Bob's editor is now emacs",
        'Alice lives in Berlin now',
      ]);
      const page = await memories.list(alice, { limit: 2, asOf: at('10:30') });
      expect(page.items.map((memory) => memory.content)).toEqual(['The release is on June 3', "Bob's editor is vim"]);
      const next = await memories.list(alice, { limit: 2, asOf: at('10:30'), cursor: page.nextCursor ?? '' });
      expect(next.items.map((memory) => memory.content)).toEqual(['Alice lives in Paris']);
      expect(next.asOf).toEqual({ asOf: at('10:30'), unavailable: 0, truncated: false });
    },
  );

  it(
    verifies(
      'R-ASOF-VERSIONS',
      'get_memory as of a moment returns the version of then; deleted later still there, written later NOT_FOUND',
    ),
    async () => {
      expect(await memories.get(alice, ids.home ?? '', { asOf: at('10:30') })).toMatchObject({
        content: 'Alice lives in Paris',
        version: 1,
      });
      expect(await memories.get(alice, ids.home ?? '', { asOf: at('11:00') })).toMatchObject({
        content: 'Alice lives in Berlin now',
        version: 2,
      });
      expect(await memories.get(alice, ids.release ?? '', { asOf: at('12:59') })).toMatchObject({ deletedAt: null });
      expect(await memories.get(alice, ids.vim ?? '', { asOf: at('12:30') })).toMatchObject({ supersededBy: ids.emacs });
      expect(await refusal(memories.get(alice, ids.release ?? '', { asOf: at('13:00') }))).toEqual(['NOT_FOUND', undefined]);
      expect(await refusal(memories.get(alice, ids.later ?? '', { asOf: at('13:30') }))).toEqual(['NOT_FOUND', undefined]);
      // Another tenant's id is as unknown as one that never existed.
      expect(await refusal(memories.get(bob, ids.home ?? '', { asOf: at('10:30') }))).toEqual(['INVALID_INPUT', 'asOf']);
      await memories.create(bob, { tier: 'ltm', content: 'Bob likes tea' });
      expect(await refusal(memories.get(bob, ids.home ?? '', { asOf: at('15:00') }))).toEqual(['NOT_FOUND', undefined]);
    },
  );

  it(verifies('R-ASOF-VERSIONS', 'recall as of a moment answers from the memories of then'), async () => {
    const recalled = async (query: string, asOf?: Date) =>
      (await memories.recall(alice, { query, ...(asOf ? { asOf } : {}) })).results.map((result) => result.memory.content);
    expect(await recalled("What is Bob's editor?", at('10:30'))).toEqual(["Bob's editor is vim"]);
    expect(await recalled("What is Bob's editor?", at('12:30'))).toEqual(["Bob's editor is now emacs"]);
    expect(await recalled("What is Bob's editor?")).toEqual(["Bob's editor is now emacs"]);
    expect(await recalled('Where does Alice live?', at('10:30'))).toEqual(['Alice lives in Paris']);
    expect(await recalled('When is the release?', at('12:30'))).toEqual(['The release is on June 3']);
    expect(await recalled('When is the release?', at('13:30'))).toEqual([]);
    expect(await recalled('Alice cat', at('13:30'))).not.toContain('Alice adopted a cat named Miso');
    const result = await memories.recall(alice, { query: 'editor', asOf: at('12:30'), includeSuperseded: true });
    expect(result.results.map((hit) => hit.memory.content).sort()).toEqual(["Bob's editor is now emacs", "Bob's editor is vim"]);
    expect(result).toMatchObject({ semantic: false, asOf: { asOf: at('12:30'), unavailable: 0, truncated: false } });
  });

  it(
    verifies('R-ASOF-INPUT', 'asOf in the future, before the first memory or malformed is INVALID_INPUT naming asOf, nothing changed'),
    async () => {
      const audit = await store.auditRowCount();
      const before = await memories.getUncounted(alice, ids.home ?? '');
      for (const asOf of [at('15:01'), at('08:59'), new Date('not a date')]) {
        expect(await refusal(memories.recall(alice, { query: 'editor', asOf }))).toEqual(['INVALID_INPUT', 'asOf']);
        expect(await refusal(memories.get(alice, ids.home ?? '', { asOf }))).toEqual(['INVALID_INPUT', 'asOf']);
        expect(await refusal(memories.list(alice, { limit: 10, asOf }))).toEqual(['INVALID_INPUT', 'asOf']);
      }
      // A tenant with no memory at all has no moment to answer from.
      expect(await refusal(memories.list(context('nobody'), { limit: 10, asOf: at('12:00') }))).toEqual(['INVALID_INPUT', 'asOf']);
      expect(await store.auditRowCount()).toBe(audit);
      // Reading as of a moment counts no access.
      expect(await memories.getUncounted(alice, ids.home ?? '')).toEqual(before);
    },
  );

  it(
    verifies(
      'R-ASOF-TRIMMED',
      'a memory whose version of then was trimmed from the audit is left out and counted, never shown with later values',
    ),
    async () => {
      clock.set(at('15:10'));
      const busy = await memories.create(alice, { tier: 'ltm', content: 'Counter note 0' });
      for (let i = 1; i <= AUDIT_LIMITS.snapshotsPerMemory + 1; i++) {
        clock.advance(1000);
        await memories.update(alice, busy.memory.id, { content: `Counter note ${i}` }, i);
      }
      clock.advance(60_000);
      // Just after it was written: its create entry is past the newest 100 and kept no values.
      const then = new Date(at('15:10').getTime() + 500);
      expect(await refusal(memories.get(alice, busy.memory.id, { asOf: then }))).toEqual(['NOT_FOUND', undefined]);
      const page = await memories.list(alice, { limit: 50, asOf: then });
      expect(page.items.map((memory) => memory.id)).not.toContain(busy.memory.id);
      expect(page.asOf?.unavailable).toBe(1);
      // Within the kept window, the version of then.
      const recent = new Date(at('15:10').getTime() + 50_500);
      expect(await memories.get(alice, busy.memory.id, { asOf: recent })).toMatchObject({ content: 'Counter note 50' });
    },
  );
});
