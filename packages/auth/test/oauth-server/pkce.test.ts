import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { verifierMatches } from '../../src/index.js';

describe('PKCE', () => {
  // RFC 7636 appendix B.
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('OAUTH-PKCE: accepts the verifier of an S256 challenge and nothing else, plain included', () => {
    expect(createHash('sha256').update(verifier).digest('base64url')).toBe(challenge);
    expect(verifierMatches(verifier, challenge)).toBe(true);
    expect(verifierMatches(`${verifier.slice(0, -1)}l`, challenge)).toBe(false);
    // `plain`: the verifier presented as its own challenge.
    expect(verifierMatches(verifier, verifier)).toBe(false);
    expect(verifierMatches(undefined, challenge)).toBe(false);
    expect(verifierMatches('short', challenge)).toBe(false);
    expect(verifierMatches('x'.repeat(129), challenge)).toBe(false);
  });
});
