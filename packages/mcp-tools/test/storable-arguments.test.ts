import { describe, expect, it } from 'vitest';
import { ARGUMENT_MAX_DEPTH, checkStorableArguments } from '../src/storable-arguments.js';

const refusal = (args: unknown) => {
  try {
    checkStorableArguments(args);
    return undefined;
  } catch (error) {
    return { code: (error as { code?: string }).code, field: (error as { data?: { field?: string } }).data?.field };
  }
};

/** Nested `{a: {a: … 1}}`, built without recursion. */
const nested = (depth: number) => {
  let value: unknown = 1;
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
};

describe('checkStorableArguments', () => {
  it('names the first field holding a NUL or a lone surrogate, in values at any depth and in keys', () => {
    expect(refusal({ content: 'a\u0000b' })).toEqual({ code: 'INVALID_INPUT', field: 'content' });
    expect(refusal({ content: 'ok', tags: ['fine', '\ud800'] })).toEqual({ code: 'INVALID_INPUT', field: 'tags.1' });
    expect(refusal({ metadata: { note: { deep: 'x\udc00' } } })).toEqual({ code: 'INVALID_INPUT', field: 'metadata.note.deep' });
    expect(refusal({ metadata: { 'k\u0000': 1 } })).toEqual({ code: 'INVALID_INPUT', field: 'metadata' });
  });

  it('accepts what PostgreSQL stores: emoji and other surrogate pairs, CJK, control characters other than NUL', () => {
    expect(refusal({ content: 'ok 😀 𝄞 中文 \t\n\u0001', metadata: { '😀': ['𝄞'] }, tags: [] })).toBeUndefined();
    expect(refusal({})).toBeUndefined();
  });

  it('refuses arguments nested deeper than the limit, at any depth, without overflowing the stack', () => {
    expect(refusal({ metadata: nested(ARGUMENT_MAX_DEPTH - 1) })).toBeUndefined();
    expect(refusal({ metadata: nested(ARGUMENT_MAX_DEPTH) })).toEqual({ code: 'INVALID_INPUT', field: 'metadata' });
    expect(refusal({ metadata: nested(100_000) })).toEqual({ code: 'INVALID_INPUT', field: 'metadata' });
  });
});
