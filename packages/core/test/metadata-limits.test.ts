import { describe, expect, it } from 'vitest';
import { isStorableText } from '../src/domain/storable-text.js';
import { checkContent, checkMetadata, checkScope, checkTags, MEMORY_LIMITS, nestingExceeds } from '../src/index.js';

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

describe('text PostgreSQL cannot store', () => {
  it('is refused by each check with INVALID_INPUT naming the field; surrogate pairs, CJK and other controls are fine', () => {
    const refused = (check: () => unknown) => {
      try {
        check();
        return undefined;
      } catch (error) {
        return [(error as { code?: string }).code, (error as { data?: { field?: string } }).data?.field];
      }
    };
    expect(refused(() => checkContent('a\u0000b'))).toEqual(['INVALID_INPUT', 'content']);
    expect(refused(() => checkContent('\ud800 alone'))).toEqual(['INVALID_INPUT', 'content']);
    expect(refused(() => checkTags(['ok', 'x\udc00']))).toEqual(['INVALID_INPUT', 'tags']);
    expect(refused(() => checkScope('team\u0000'))).toEqual(['INVALID_INPUT', 'scope']);
    expect(refused(() => checkMetadata({ note: { text: '\u0000' } }))).toEqual(['INVALID_INPUT', 'metadata.note.text']);
    expect(refused(() => checkMetadata({ 'k\u0000': 1 }))).toEqual(['INVALID_INPUT', 'metadata']);
    expect(refused(() => checkContent('😀 𝄞 中文 \t\u0001'))).toBeUndefined();
    expect(isStorableText('\ud83d\ude00')).toBe(true);
  });
});
