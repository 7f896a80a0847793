import { type GrantRequest, isGrantLive, type MemoryGrant, type SharedSpace, spaceKey } from '../domain/memory-grants.js';
import type { TenantId } from '../domain/tenant.js';
import type { GranteeIdentity, GrantStore } from '../ports/grant-store.js';

/**
 * The GrantStore port in process memory, for in-process tool tests and examples. The
 * organizations and their members are given (there is no membership table to ask). Like every
 * GrantStore it never asks whether a grantee exists (R-GRANT-NO-ENUMERATION): `users` is only
 * a list of the test's users, kept for its callers.
 * PgGrantStore is the real one, tested on both engines.
 */
export class InMemoryGrantStore implements GrantStore {
  readonly #grants: MemoryGrant[] = [];
  readonly #defaults = new Set<string>();
  #next = 0;

  constructor(private readonly known: { users?: readonly string[]; organizations?: Readonly<Record<string, readonly string[]>> } = {}) {}

  async grant(owner: TenantId, request: GrantRequest, grantedBy: string, now: Date): Promise<MemoryGrant> {
    const { kind, id } = request.grantee;
    const index = this.#grants.findIndex(
      (grant) =>
        grant.owner === owner &&
        grant.space === request.space &&
        grant.grantee.kind === kind &&
        grant.grantee.id === id &&
        !grant.revokedAt,
    );
    const previous = this.#grants[index];
    const grant: MemoryGrant = {
      id: previous?.id ?? `grant-${++this.#next}`,
      owner,
      space: request.space,
      grantee: { kind, id },
      access: request.access,
      grantedBy,
      createdAt: previous?.createdAt ?? now,
      expiresAt: request.expiresAt ?? null,
      revokedAt: null,
      revokedBy: null,
    };
    if (previous) this.#grants[index] = grant;
    else this.#grants.push(grant);
    return grant;
  }

  async revoke(owner: TenantId, grantId: string, revokedBy: string, now: Date): Promise<MemoryGrant | undefined> {
    const index = this.#grants.findIndex((grant) => grant.id === grantId && grant.owner === owner && !grant.revokedAt);
    const grant = this.#grants[index];
    if (!grant) return undefined;
    const revoked = { ...grant, revokedAt: now, revokedBy };
    this.#grants[index] = revoked;
    return revoked;
  }

  async given(owner: TenantId, limit: number): Promise<readonly MemoryGrant[]> {
    return this.#grants.filter((grant) => grant.owner === owner).slice(0, limit);
  }

  async received(caller: GranteeIdentity, now: Date, limit: number): Promise<readonly MemoryGrant[]> {
    return this.#naming(caller, now).slice(0, limit);
  }

  async sharedSpaces(caller: GranteeIdentity, now: Date): Promise<readonly SharedSpace[]> {
    const spaces = new Map<string, SharedSpace>();
    for (const grant of this.#naming(caller, now)) {
      const key = spaceKey(grant.owner, grant.space);
      const before = spaces.get(key);
      spaces.set(key, {
        owner: grant.owner,
        space: grant.space,
        access: before?.access === 'read-write' ? 'read-write' : grant.access,
        grantId: before?.access === 'read-write' ? before.grantId : grant.id,
        byDefault: Boolean(before?.byDefault) || this.#defaults.has(`${grant.id}\n${caller.tenant}`),
      });
    }
    return [...spaces.values()];
  }

  async chooseDefault(caller: GranteeIdentity, grantId: string, byDefault: boolean, now: Date): Promise<boolean> {
    const chosen = this.#naming(caller, now).find((grant) => grant.id === grantId);
    if (!chosen) return false;
    if (byDefault) this.#defaults.add(`${grantId}\n${caller.tenant}`);
    // Stopping clears the choice on every grant of that owner's space (as PgGrantStore does).
    else
      for (const grant of this.#grants) {
        if (grant.owner === chosen.owner && grant.space === chosen.space) this.#defaults.delete(`${grant.id}\n${caller.tenant}`);
      }
    return true;
  }

  #naming(caller: GranteeIdentity, now: Date): MemoryGrant[] {
    const organizations = Object.entries(this.known.organizations ?? {})
      .filter(([, members]) => members.includes(caller.tenant))
      .map(([id]) => id);
    return this.#grants.filter(
      (grant) =>
        isGrantLive(grant, now) &&
        grant.owner !== caller.tenant &&
        ((grant.grantee.kind === 'user' && grant.grantee.id === caller.tenant) ||
          (grant.grantee.kind === 'organization' && organizations.includes(grant.grantee.id)) ||
          (grant.grantee.kind === 'api-key' && grant.grantee.id === caller.apiKeyId)),
    );
  }
}
