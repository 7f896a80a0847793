import { describe, expect, it } from 'vitest';
import { checkMergedMetadata } from '../src/domain/memory-limits.js';
import { changedFieldsBefore, MEMORY_LIMITS } from '../src/index.js';
import { verifies } from './requirements.js';

describe('audit before', () => {
  it(verifies('R-AUDIT-CHANGED-FIELDS', 'keeps the earlier value of each changed field only, compared as JSON'), () => {
    const at = new Date('2026-04-01T09:00:00.000Z');
    const before = { content: 'a', metadata: { big: 'x'.repeat(1000) }, pinned: false, deletedAt: null, updatedAt: at };
    const after = { ...before, pinned: true, updatedAt: new Date(at.getTime() + 1000), restoredFromVersion: 1 };
    expect(changedFieldsBefore(before, after)).toEqual({ pinned: false, updatedAt: '2026-04-01T09:00:00.000Z' });
    // A create has no before; a change without an after keeps the whole before.
    expect(changedFieldsBefore(null, after)).toBeNull();
    expect(changedFieldsBefore(before, null)).toEqual(JSON.parse(JSON.stringify(before)));
  });
});

describe('merged metadata', () => {
  it(verifies('R-METADATA-MERGED', 'the merge of stored metadata and an update is held to the limit; removing keys makes room'), () => {
    const half = 'x'.repeat(MEMORY_LIMITS.metadataMaxBytes / 2);
    expect(() => checkMergedMetadata({ a: half }, { b: half })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', data: { field: 'metadata' } }),
    );
    expect(checkMergedMetadata({ a: half }, { a: null, b: half })).toEqual({ b: half });
  });
});
