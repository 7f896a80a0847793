import { type CallContext, createMemoryEngine, type MemoryEngine, MemsvcError, toTenantId } from '@memsvc/core';
import { ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { beforeEach, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { describeEachStore } from './support/each-store.js';

const context = (tenant: string): CallContext => ({ tenant: toTenantId(tenant), actor: { id: `user:${tenant}` } });
const alice = context('alice');
const bob = context('bob');
const UNKNOWN = '01900000-0000-7000-8000-000000000000';

/** The error a refused call rejects with, as a plain object to compare. */
async function refusal(promise: Promise<unknown>): Promise<{ code: string; field: unknown; message: string } | undefined> {
  return promise.then(
    () => undefined,
    (error: unknown) =>
      error instanceof MemsvcError
        ? { code: error.code, field: error.data.field, message: error.message }
        : { code: 'other', field: undefined, message: String(error) },
  );
}

describeEachStore('supersedes (a caller retires what a write replaces)', (kind) => {
  const clock = new ManualClock('2026-04-01T09:00:00.000Z');
  const store = kind.use({ clock, dimensions: 3 });
  // No vectors: only what the caller names may retire a memory here, never a similarity band.
  const embedder = new StaticEmbedder({}, 'static-test');
  let memories: MemoryEngine;

  /** What a refused call must leave exactly as it was. */
  const state = async () => ({
    rows: await store.rowCount(),
    audit: await store.auditRowCount(),
    links: (await store.links()).length,
    listed: (await memories.list(alice, { limit: 100, includeSuperseded: true })).items.map((m) => [
      m.id,
      m.version,
      m.supersededBy,
      m.content,
    ]),
  });

  beforeEach(async () => {
    clock.set('2026-04-01T09:00:00.000Z');
    embedder.available = false;
    await store.reset();
    memories = createMemoryEngine({ store: store.memories, embedder, clock, grants: store.grants, erasures: store.erasures });
  });

  it(
    verifies(
      'R-SUPERSEDES-RETIRE',
      'create_memory with supersedes hides the named memory behind the new one, versioned, audited, linked, reported, restorable',
    ),
    async () => {
      const paris = await memories.create(alice, { tier: 'ltm', content: 'I live in Paris' });
      clock.advance(60_000);
      const berlin = await memories.create(alice, {
        tier: 'ltm',
        content: 'I moved to Berlin last month, so I live in Berlin now',
        supersedes: [paris.memory.id],
      });
      expect(berlin.outcome).toBe('created');
      expect(berlin.superseded).toEqual([{ memoryId: paris.memory.id, version: 2 }]);
      expect((await memories.list(alice, { limit: 10 })).items.map((m) => m.id)).toEqual([berlin.memory.id]);
      const retired = await memories.getUncounted(alice, paris.memory.id);
      expect(retired).toMatchObject({ supersededBy: berlin.memory.id, version: 2, content: 'I live in Paris' });
      const [latest] = await memories.audit(alice, paris.memory.id, 1);
      expect(latest).toMatchObject({ action: 'supersede', actor: 'user:alice', version: 2 });
      expect(latest?.after).toMatchObject({ supersededBy: berlin.memory.id, relatedMemoryId: berlin.memory.id });
      expect(await store.links()).toEqual(
        expect.arrayContaining([
          { source: berlin.memory.id, target: paris.memory.id, rel: 'supersedes' },
          { source: paris.memory.id, target: berlin.memory.id, rel: 'superseded-by' },
        ]),
      );
      expect((await memories.links(alice, paris.memory.id)).every((link) => link.origin === 'authored')).toBe(true);
      // Restoring the version before the supersession brings the memory back into default reads.
      const restored = await memories.restore(alice, paris.memory.id, 1);
      expect(restored).toMatchObject({ supersededBy: null, version: 3 });
      expect((await memories.list(alice, { limit: 10 })).items.map((m) => m.id).sort()).toEqual([paris.memory.id, berlin.memory.id].sort());
    },
  );

  it(verifies('R-SUPERSEDES-RETIRE', 'remember and update_memory take supersedes too, and report what they retired'), async () => {
    const port = await memories.create(alice, { tier: 'ltm', content: 'The API listens on port 8080' });
    const again = await memories.create(alice, { tier: 'ltm', content: 'The API port is configured in deploy.yaml' });
    const remembered = await memories.remember(alice, { content: 'The API now listens on port 9090', supersedes: [port.memory.id] });
    expect(remembered.superseded).toEqual([{ memoryId: port.memory.id, version: 2 }]);
    const revised = await memories.revise(
      alice,
      remembered.memory.id,
      { content: 'The API listens on port 9090 (deploy.yaml)', supersedes: [again.memory.id] },
      1,
    );
    expect(revised.memory).toMatchObject({ version: 2, supersededBy: null });
    expect(revised.superseded).toEqual([{ memoryId: again.memory.id, version: 2 }]);
    expect((await memories.list(alice, { limit: 10 })).items.map((m) => m.id)).toEqual([remembered.memory.id]);
  });

  it(
    verifies('R-SUPERSEDES-RETIRE', 'restating the very text it retires stores a new memory instead of collapsing into the retired one'),
    async () => {
      const old = await memories.create(alice, { tier: 'ltm', content: 'Standup is at 10:00' });
      const restated = await memories.create(alice, { tier: 'ltm', content: 'Standup is at 10:00', supersedes: [old.memory.id] });
      expect(restated.outcome).toBe('created');
      expect(restated.memory.id).not.toBe(old.memory.id);
      expect((await memories.getUncounted(alice, old.memory.id)).supersededBy).toBe(restated.memory.id);
    },
  );

  it(
    verifies(
      'R-SUPERSEDES-FOUND',
      "an unknown id, another tenant's, a deleted or an already superseded memory: the same INVALID_INPUT, nothing written",
    ),
    async () => {
      const theirs = await memories.create(bob, { tier: 'ltm', content: 'Bob lives in Oslo' });
      const deleted = await memories.create(alice, { tier: 'ltm', content: 'My manager is Dana' });
      await memories.delete(alice, deleted.memory.id);
      const older = await memories.create(alice, { tier: 'ltm', content: 'My rent is 900 euros' });
      await memories.create(alice, { tier: 'ltm', content: 'My rent is 950 euros', supersedes: [older.memory.id] });
      const before = await state();
      const bobBefore = await memories.getUncounted(bob, theirs.memory.id);
      const messages: string[] = [];
      for (const id of [UNKNOWN, 'not-a-memory-id', theirs.memory.id, deleted.memory.id, older.memory.id]) {
        for (const write of [
          () => memories.create(alice, { tier: 'ltm', content: 'A new fact', supersedes: [id] }),
          () => memories.remember(alice, { content: 'Another new fact', supersedes: [id] }),
        ]) {
          const refused = await refusal(write());
          expect(refused).toMatchObject({ code: 'INVALID_INPUT', field: 'supersedes' });
          messages.push(refused?.message.replace(id, '<id>') ?? '');
        }
      }
      // One answer for every case: nothing tells an unknown id from another tenant's.
      expect(new Set(messages).size).toBe(1);
      expect(await state()).toEqual(before);
      expect(await memories.getUncounted(bob, theirs.memory.id)).toEqual(bobBefore);
      // The update is refused as a whole: its own change is not kept either.
      const mine = await memories.create(alice, { tier: 'ltm', content: 'My editor is vim' });
      const beforeUpdate = await state();
      expect(
        await refusal(memories.update(alice, mine.memory.id, { content: 'My editor is emacs', supersedes: [theirs.memory.id] }, 1)),
      ).toMatchObject({
        code: 'INVALID_INPUT',
        field: 'supersedes',
      });
      expect(await state()).toEqual(beforeUpdate);
    },
  );

  it(verifies('R-SUPERSEDES-SELF', 'update_memory naming its own memory is refused, nothing changed'), async () => {
    const mine = await memories.create(alice, { tier: 'ltm', content: 'My editor is vim' });
    const before = await state();
    expect(
      await refusal(memories.update(alice, mine.memory.id, { content: 'My editor is helix', supersedes: [mine.memory.id] }, 1)),
    ).toMatchObject({
      code: 'INVALID_INPUT',
      field: 'supersedes',
    });
    expect(await state()).toEqual(before);
  });

  it(verifies('R-SUPERSEDES-LIMIT', '1,000 ids (or 21) are refused before anything is written; 20 are accepted'), async () => {
    const before = await state();
    const many = Array.from({ length: 1000 }, (_, i) => `01900000-0000-7000-8000-${String(i).padStart(12, '0')}`);
    for (const ids of [many, many.slice(0, 21)]) {
      expect(await refusal(memories.create(alice, { tier: 'ltm', content: 'Too many', supersedes: ids }))).toMatchObject({
        code: 'INVALID_INPUT',
        field: 'supersedes',
      });
    }
    expect(await state()).toEqual(before);
    const twenty = [];
    for (let i = 0; i < 20; i++) twenty.push((await memories.create(alice, { tier: 'ltm', content: `Old fact number ${i}` })).memory.id);
    const replaced = await memories.create(alice, { tier: 'ltm', content: 'One fact replaces them all', supersedes: twenty });
    expect(replaced.superseded).toHaveLength(20);
  });

  it(
    verifies('R-SUPERSEDES-CYCLE', 'A supersedes B, then B (or what B supersedes) cannot supersede A: refused, nothing changed'),
    async () => {
      const b = await memories.create(alice, { tier: 'ltm', content: 'The release is on June 3' });
      const a = await memories.create(alice, { tier: 'ltm', content: 'The release moved to June 10', supersedes: [b.memory.id] });
      const before = await state();
      expect(
        await refusal(
          memories.update(alice, b.memory.id, { content: 'The release is on June 3, confirmed', supersedes: [a.memory.id] }, 2),
        ),
      ).toMatchObject({
        code: 'INVALID_INPUT',
        field: 'supersedes',
      });
      expect(await state()).toEqual(before);
      // Through another memory: C supersedes A, which supersedes B; B may not supersede C.
      const c = await memories.create(alice, { tier: 'ltm', content: 'The release moved again, to June 17', supersedes: [a.memory.id] });
      const beforeTransitive = await state();
      expect(await refusal(memories.update(alice, b.memory.id, { tags: ['release'], supersedes: [c.memory.id] }, 2))).toMatchObject({
        code: 'INVALID_INPUT',
        field: 'supersedes',
      });
      expect(await state()).toEqual(beforeTransitive);
    },
  );
});
