import { describe, expect, it } from 'vitest';
import { isUuid, UuidV7Generator } from '../src/index.js';

describe('UuidV7Generator', () => {
  it('makes RFC 9562 version-7 ids that carry the millisecond timestamp', () => {
    const id = new UuidV7Generator(() => 0x0190_1234_5678).next();
    expect(isUuid(id)).toBe(true);
    expect(id.slice(0, 13)).toBe('01901234-5678');
    expect(id[14]).toBe('7');
    expect(['8', '9', 'a', 'b']).toContain(id[19]);
  });

  it('keeps ids strictly increasing within one millisecond and when the clock steps back', () => {
    let now = 1_700_000_000_000;
    const generator = new UuidV7Generator(() => now);
    const ids: string[] = [];
    for (let i = 0; i < 5000; i++) {
      if (i === 2500) now -= 10;
      ids.push(generator.next());
    }
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids).toEqual([...ids].sort());
  });
});
