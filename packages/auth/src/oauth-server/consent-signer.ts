import type { Scope, SessionOrigin } from '@memsvc/access';
import type { TenantId } from '@memsvc/core';

/** Whoever signed in on the authorize page, and what they hold. */
export interface ConsentSigner {
  readonly userId: TenantId;
  readonly organizationId: string | null;
  readonly scopes: readonly Scope[];
  readonly origin: SessionOrigin;
  /** The API key used to sign in: every token of the grant ends when it is revoked. */
  readonly apiKeyId: string | null;
  /** When the API key used to sign in expires (for a login, set by `decide`): no token of the grant outlives it. */
  readonly notAfter: Date | null;
  /** For a GitHub or Google sign-in, set by `decide`: the session the grant hangs on (login-consent.ts). */
  readonly signInJti: string | null;
}
