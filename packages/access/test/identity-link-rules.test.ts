import type { TenantId } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { identityLoginOutcome } from '../src/index.js';

const bob = 'bob@corp.example' as TenantId;

describe('identity-provider logins of a linked account', () => {
  it(
    verifies('R-IDENTITY-EMAIL', "let in while the verified email is still the user's address (any case), refused once it is another"),
    () => {
      const link = { userId: bob, pinned: false, blocked: false };
      expect(identityLoginOutcome(link, 'Bob@Corp.Example')).toEqual({ kind: 'linked', userId: bob });
      expect(identityLoginOutcome(link, 'bob@personal.example')).toEqual({ kind: 'refused', reason: 'identity-email-changed' });
    },
  );

  it(verifies('R-IDENTITY-PINNED', 'an account the operator linked reaches its user whatever its email'), () => {
    expect(identityLoginOutcome({ userId: bob, pinned: true, blocked: false }, 'bob@personal.example')).toEqual({
      kind: 'linked',
      userId: bob,
    });
  });

  it(verifies('R-IDENTITY-BLOCKED', 'a blocked account is refused, even with a matching email or a pin'), () => {
    for (const pinned of [false, true]) {
      expect(identityLoginOutcome({ userId: bob, pinned, blocked: true }, bob)).toEqual({ kind: 'refused', reason: 'identity-blocked' });
    }
  });
});
