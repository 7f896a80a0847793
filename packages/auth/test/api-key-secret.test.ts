import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { API_KEY_PREFIX, hashApiKey, looksLikeApiKey, mintApiKey } from '../src/index.js';

describe('API key secrets', () => {
  it('AUTH-KEY-FORMAT: mints msk_ and 43 base64url characters, with a 12-character prefix and a SHA-256 hex hash', () => {
    const minted = mintApiKey();
    expect(minted.key).toMatch(/^msk_[A-Za-z0-9_-]{43}$/);
    expect(minted.key.startsWith(API_KEY_PREFIX)).toBe(true);
    expect(minted.prefix).toBe(minted.key.slice(0, 12));
    expect(minted.keyHash).toBe(createHash('sha256').update(minted.key).digest('hex'));
    expect(hashApiKey(minted.key)).toBe(minted.keyHash);
    expect(looksLikeApiKey(minted.key)).toBe(true);
  });

  it('AUTH-KEY-FORMAT: encodes all 32 random bytes, and two keys differ', () => {
    const fixed = mintApiKey(() => new Uint8Array(32).fill(0xff));
    expect(fixed.key).toBe(`msk_${'_'.repeat(42)}8`);
    expect(Buffer.from(fixed.key.slice(4), 'base64url')).toEqual(Buffer.alloc(32, 0xff));
    const keys = new Set(Array.from({ length: 50 }, () => mintApiKey().key));
    expect(keys.size).toBe(50);
  });

  it('AUTH-KEY-FORMAT: tells a key from anything else by its exact shape', () => {
    const key = mintApiKey().key;
    for (const token of [
      '',
      key.slice(0, -1),
      `${key}A`,
      key.replace('msk_', 'MSK_'),
      `${key.slice(0, 10)}+${key.slice(11)}`,
      ` ${key}`,
      'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJhIn0.sig',
    ]) {
      expect(looksLikeApiKey(token), token).toBe(false);
    }
  });
});
