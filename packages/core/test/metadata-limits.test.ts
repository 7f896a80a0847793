import { describe, expect, it } from 'vitest';
import { checkMetadata, MEMORY_LIMITS, nestingExceeds } from '../src/index.js';

/** Nested `{a: {a: … true}}`, built without recursion. */
const nested = (depth: number) => {
  let value: unknown = true;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('metadata limits', () => {
  it('refuses metadata nested past the limit with INVALID_INPUT naming it, however deep, and keeps what fits', () => {
    const fits = nested(MEMORY_LIMITS.metadataMaxDepth);
    expect(checkMetadata(fits)).toBe(fits);
    for (const depth of [MEMORY_LIMITS.metadataMaxDepth + 1, 100_000]) {
      expect(() => checkMetadata(nested(depth))).toThrow(
        expect.objectContaining({ code: 'INVALID_INPUT', data: { field: 'metadata' }, message: expect.stringContaining('levels deep') }),
      );
    }
  });

  it('counts arrays as levels too, and leaves scalars alone', () => {
    expect(nestingExceeds([[[1]]], 3)).toBe(false);
    expect(nestingExceeds([[[[1]]]], 3)).toBe(true);
    expect(nestingExceeds('text', 0)).toBe(false);
  });

  it('refuses metadata over its size limit, naming it', () => {
    expect(() => checkMetadata({ text: 'x'.repeat(MEMORY_LIMITS.metadataMaxBytes) })).toThrow(
      expect.objectContaining({ code: 'INVALID_INPUT', data: { field: 'metadata' } }),
    );
  });
});
