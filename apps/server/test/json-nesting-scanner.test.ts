import { describe, expect, it } from 'vitest';
import { verifies } from '../../../packages/core/test/requirements.js';
import { JsonNestingScanner } from '../src/json-nesting-scanner.js';

/** Feeds a text to a scanner in chunks of `size` bytes: whether it went too deep. */
const tooDeep = (text: string, maxDepth: number, size = Number.POSITIVE_INFINITY) => {
  const bytes = new TextEncoder().encode(text);
  const scanner = new JsonNestingScanner(maxDepth);
  for (let at = 0; at < bytes.length; at += Math.min(size, bytes.length)) scanner.feed(bytes.subarray(at, at + size));
  return scanner.tooDeep;
};

describe('JSON nesting scanner', () => {
  it(verifies('R-EDGE-JSON-DEPTH', 'counts arrays and objects alike, up to the limit and not past it'), () => {
    expect(tooDeep('{"a":[{"b":[]}]}', 4)).toBe(false);
    expect(tooDeep('{"a":[{"b":[[]]}]}', 4)).toBe(true);
    // Siblings do not add up: depth is how deep, not how many.
    expect(tooDeep(`[${'[],'.repeat(1000)}[]]`, 2)).toBe(false);
    // Closers without openers buy no extra depth.
    expect(tooDeep(`]]]]${'['.repeat(3)}`, 2)).toBe(true);
  });

  it(verifies('R-EDGE-JSON-DEPTH', 'ignores brackets inside strings, escaped quotes included, however the chunks are cut'), () => {
    const text = JSON.stringify({ a: '[[[{{{', b: 'say \\"[[[\\" and \\\\', c: ['"[[["'], d: 'é [[[' });
    for (const size of [1, 2, 3, 7, Number.POSITIVE_INFINITY]) {
      // The object and its array `c` nest two deep; every bracket in the strings is text.
      expect(tooDeep(text, 2, size)).toBe(false);
      expect(tooDeep(`[${text}]`, 3, size)).toBe(false);
      expect(tooDeep(`[${text}]`, 2, size)).toBe(true);
    }
  });
});
