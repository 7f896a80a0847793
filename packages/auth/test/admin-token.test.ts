import { Secret } from '@memsvc/access';
import { describe, expect, it } from 'vitest';
import { adminTokenDenial, adminTokenMatches } from '../src/index.js';

describe('adminTokenMatches', () => {
  const configured = new Secret('correct-horse-battery-staple');

  it('accepts exactly the configured token', () => {
    expect(adminTokenMatches(configured, 'correct-horse-battery-staple')).toBe(true);
  });

  it('rejects a wrong, shorter, longer, empty or non-string token', () => {
    for (const presented of ['correct-horse-battery-stapl', 'correct-horse-battery-staple!', 'x', '', undefined, null, 42]) {
      expect(adminTokenMatches(configured, presented)).toBe(false);
    }
  });

  it('denies everything when MCP_ADMIN_TOKEN is not configured', () => {
    expect(adminTokenMatches(undefined, 'anything')).toBe(false);
  });
});

describe('adminTokenDenial', () => {
  const configured = new Secret('correct-horse-battery-staple');

  it('names why a token is refused, and nothing for the configured one', () => {
    expect(adminTokenDenial(configured, 'correct-horse-battery-staple')).toBeUndefined();
    expect(adminTokenDenial(configured, 'correct-horse-battery-stapl')).toBe('wrong-token');
    expect(adminTokenDenial(configured, '')).toBe('missing-token');
    expect(adminTokenDenial(configured, undefined)).toBe('missing-token');
    expect(adminTokenDenial(undefined, 'correct-horse-battery-staple')).toBe('admin-tools-disabled');
  });
});
