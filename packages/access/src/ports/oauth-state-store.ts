import type { IdentityProvider } from '../domain/identity-link-rules.js';

export type { IdentityProvider };

/** What a login remembers between sending the browser to the provider and its callback. */
export interface PendingLogin {
  readonly provider: IdentityProvider;
  /** The PKCE code verifier; it never leaves the server. */
  readonly codeVerifier: string;
  /** Where to send the browser after the login, if the client asked (already validated). */
  readonly redirectTo: string | null;
}

/**
 * OAuth `state` values of logins in progress (spec §2.4). A state is stored only as a hash, lives
 * until `expiresAt`, and is consumed at most once: a reused, unknown or expired state finds nothing.
 */
export interface OAuthStateStore {
  /** Stores a login in progress under the hash of its state. */
  save(stateHash: string, login: PendingLogin, expiresAt: Date): Promise<void>;

  /**
   * Takes the login stored under this hash for this provider, deleting it in the same statement,
   * so two callbacks racing with one state cannot both succeed. Undefined when there is none, it
   * belongs to another provider, or it expired at `now` (an expired one is deleted too).
   */
  consume(stateHash: string, provider: IdentityProvider, now: Date): Promise<PendingLogin | undefined>;
}
