import type { Clock } from '@memsvc/core';
import type { AccessProfile, AccessStores } from './access-stores.js';
import { GrantAccess, type GrantOperations } from './grant-access.js';
import { IdentityAccess } from './identity-access.js';
import { KeyAccess, type MintedKey } from './key-access.js';
import { OrganizationAccess } from './organization-access.js';
import { SessionAccess } from './session-access.js';

/** What the access service is built from; the runtime composes it once. */
export interface AccessServiceOptions {
  readonly profile: AccessProfile;
  readonly stores: AccessStores;
  /** The memory engine, for grants. */
  readonly engine: GrantOperations;
  readonly clock: Clock;
  /** Mints a new API key (`@memsvc/auth`'s mintApiKey): credentials are auth's, the rules are here. */
  readonly mintKey: () => MintedKey;
}

/**
 * Who may do what, as one entry point: keys, organizations, identities, sessions and grants.
 * The CLI, the dashboard and the tools call it, so each rule is applied in one place whatever
 * surface a person or an operator uses.
 */
export interface AccessService {
  readonly keys: KeyAccess;
  readonly organizations: OrganizationAccess;
  readonly identities: IdentityAccess;
  readonly sessions: SessionAccess;
  readonly grants: GrantAccess;
}

/** Builds the access service over the stores and the engine. */
export function createAccessService(options: AccessServiceOptions): AccessService {
  const { stores, clock } = options;
  return {
    keys: new KeyAccess({ apiKeys: stores.apiKeys, clock, profile: options.profile, mintKey: options.mintKey }),
    organizations: new OrganizationAccess(stores.organizations),
    identities: new IdentityAccess(stores.userIdentities, clock),
    sessions: new SessionAccess(stores.sessions, clock),
    grants: new GrantAccess(options.engine, stores.grants, clock),
  };
}
