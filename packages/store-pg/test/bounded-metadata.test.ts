import { AUDIT_LIMITS, type CallContext, createMemoryEngine, MEMORY_LIMITS, type MemoryEngine, toTenantId } from '@memsvc/core';
import { ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { beforeEach, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { codeOf } from './support/code-of.js';
import { describeEachStore } from './support/each-store.js';

const alice: CallContext = { tenant: toTenantId('alice'), actor: { id: 'agent:key-1' } };

/** Text of `size` characters that does not compress, as an attacker would send. */
function incompressible(size: number, seed: number): string {
  let state = seed;
  let text = '';
  for (let i = 0; i < size; i++) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    text += String.fromCharCode(97 + (state % 26));
  }
  return text;
}

const BLOB = 60_000;

/**
 * Security review #5 (issue 37): update_memory checked only the metadata patch, so one write key
 * could grow a memory's metadata past its limit update by update, and every update copied the
 * whole memory twice into the audit trail.
 */
describeEachStore('bounded metadata and audit', (kind) => {
  const clock = new ManualClock('2026-04-01T09:00:00.000Z');
  const store = kind.use({ clock, dimensions: 3 });
  let memories: MemoryEngine;

  beforeEach(async () => {
    await store.reset();
    memories = createMemoryEngine({
      store: store.memories,
      embedder: new StaticEmbedder({}, undefined),
      clock,
      grants: store.grants,
      erasures: store.erasures,
    });
  });

  it(
    verifies(
      'R-METADATA-MERGED',
      'an update whose merged metadata passes the limit is refused, naming metadata and both sizes, and changes nothing',
    ),
    async () => {
      const first = incompressible(BLOB, 1);
      const second = incompressible(BLOB, 2);
      const { memory } = await memories.create(alice, { tier: 'ltm', content: 'Release notes', metadata: { first } });
      const auditRows = await store.auditRowCount();

      // The patch alone (60 KB) is within the limit; the merged object is not.
      const growing = memories.update(alice, memory.id, { metadata: { second } }, memory.version);
      const mergedSize = JSON.stringify({ first, second }).length;
      await expect(growing).rejects.toMatchObject({
        code: 'INVALID_INPUT',
        data: { field: 'metadata' },
        message: expect.stringMatching(new RegExp(`${mergedSize} bytes.*merg.*limit is ${MEMORY_LIMITS.metadataMaxBytes}`)),
      });
      expect(await memories.getUncounted(alice, memory.id)).toEqual(memory);
      expect(await store.auditRowCount()).toBe(auditRows);

      // Removing a key in the same update makes room: the limit applies to what is stored.
      const replaced = await memories.update(alice, memory.id, { metadata: { first: null, second: 'small' } }, memory.version);
      expect(replaced).toMatchObject({ version: 2, metadata: { second: 'small' } });
    },
  );

  it(
    verifies(
      'R-AUDIT-CHANGED-FIELDS',
      'an audit entry keeps only the changed fields as before, the full version as after; restore still works',
    ),
    async () => {
      const metadata = { notes: incompressible(BLOB, 3) };
      const { memory } = await memories.create(alice, { tier: 'ltm', content: 'Release notes', metadata });
      let version = memory.version;
      for (let toggle = 1; toggle <= 20; toggle++) {
        clock.advance(1000);
        version = (await memories.update(alice, memory.id, { pinned: toggle % 2 === 1 }, version)).version;
      }
      clock.advance(1000);
      const edited = await memories.update(alice, memory.id, { content: 'Release notes, v2' }, version);

      const [latest, ...older] = await memories.audit(alice, memory.id, 50);
      expect(latest).toMatchObject({ action: 'update', actor: 'agent:key-1', version: edited.version });
      expect(latest?.before).toMatchObject({ content: 'Release notes', version, updatedAt: expect.any(String) });
      // Bookkeeping that moved with the edit (the importance score) may be there too; nothing else.
      expect(
        Object.keys(latest?.before ?? {}).filter((field) => !['content', 'version', 'updatedAt', 'importanceScore'].includes(field)),
      ).toEqual([]);
      expect(latest?.after).toEqual(JSON.parse(JSON.stringify(edited)));
      expect(older[0]?.before).toEqual(expect.objectContaining({ pinned: true, version: version - 1 }));
      expect(Object.keys(older[0]?.before ?? {})).not.toContain('metadata');
      // One full copy of the memory per version, not two: the before half stays small.
      const beforeBytes = older.slice(0, -1).map((entry) => JSON.stringify(entry.before).length);
      expect(Math.max(...beforeBytes)).toBeLessThan(300);

      const restored = await memories.restore(alice, memory.id, 1);
      expect(restored).toMatchObject({ content: 'Release notes', pinned: false, metadata, version: edited.version + 1 });
      const [restoreEntry] = await memories.audit(alice, memory.id, 1);
      expect(restoreEntry?.before).toMatchObject({ content: 'Release notes, v2', version: edited.version });
      expect(Object.keys(restoreEntry?.before ?? {})).not.toContain('metadata');
      expect(restoreEntry?.after).toMatchObject({ restoredFromVersion: 1, content: 'Release notes', metadata });
    },
  );
  it(
    verifies('R-AUDIT-RETAINED', "past a memory's newest entries the audit keeps who, what, which fields and when, not the values"),
    async () => {
      const kept = AUDIT_LIMITS.snapshotsPerMemory;
      const metadata = { notes: incompressible(BLOB, 4) };
      const { memory } = await memories.create(alice, { tier: 'ltm', content: 'Release notes', metadata });
      let version = memory.version;
      for (let toggle = 1; toggle <= kept + 2; toggle++) {
        clock.advance(1000);
        version = (await memories.update(alice, memory.id, { pinned: toggle % 2 === 1 }, version)).version;
      }

      const trail = await memories.audit(alice, memory.id, kept + 10);
      expect(trail).toHaveLength(kept + 3);
      const [whole, trimmed] = [trail.slice(0, kept), trail.slice(kept)];
      expect(whole.every((entry) => typeof entry.after?.version === 'number' && entry.after.metadata !== undefined)).toBe(true);
      // Oldest first: the create, then the first two toggles.
      expect(trimmed.map((entry) => [entry.action, entry.actor, entry.version, entry.before, entry.after])).toEqual([
        ['update', 'agent:key-1', 3, null, { trimmed: true, changed: ['importanceScore', 'pinned', 'updatedAt', 'version'] }],
        ['update', 'agent:key-1', 2, null, { trimmed: true, changed: ['importanceScore', 'pinned', 'updatedAt', 'version'] }],
        ['create', 'agent:key-1', 1, null, { trimmed: true, changed: null }],
      ]);
      expect(trimmed.every((entry) => entry.createdAt instanceof Date)).toBe(true);
      const auditBytes = trail.reduce((sum, entry) => sum + JSON.stringify([entry.before, entry.after]).length, 0);
      expect(auditBytes).toBeLessThan(kept * (BLOB + 1_000));

      // A version inside the window still restores; one past it has no snapshot left.
      expect(await codeOf(memories.restore(alice, memory.id, 2))).toBe('NOT_FOUND');
      expect(await memories.restore(alice, memory.id, 4)).toMatchObject({ pinned: true, metadata, version: version + 1 });
    },
  );
});
