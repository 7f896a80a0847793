import type { IdentityProvider, OAuthStateStore, PendingLogin } from '@memsvc/access';

/** The OAuthStateStore port as a map, with the port's rules: single use, per provider, expiring. */
export class InMemoryOAuthStateStore implements OAuthStateStore {
  /** The stored rows, by state hash (tests check that only hashes are kept). */
  readonly rows = new Map<string, { readonly login: PendingLogin; readonly expiresAt: Date }>();

  async save(stateHash: string, login: PendingLogin, expiresAt: Date): Promise<void> {
    this.rows.set(stateHash, { login, expiresAt });
  }

  async consume(stateHash: string, provider: IdentityProvider, now: Date): Promise<PendingLogin | undefined> {
    const row = this.rows.get(stateHash);
    if (!row || row.login.provider !== provider) return undefined;
    this.rows.delete(stateHash);
    return row.expiresAt.getTime() > now.getTime() ? row.login : undefined;
  }
}
