import type { Grantee } from '@memsvc/core';
import type { ApiKeyStore } from '../ports/api-key-store.js';
import type { OrganizationStore } from '../ports/organization-store.js';
import type { SessionStore } from '../ports/session-store.js';
import type { UserIdentityStore } from '../ports/user-identity-store.js';

/** Whether a grantee exists yet: a user seen, an organization or API key made (store-pg's grant store answers it). */
export interface GranteeDirectory {
  isKnownGrantee(grantee: Grantee, now: Date): Promise<boolean>;
}

/** The stores the access service works on: store-pg's `MemsvcStore` is one. */
export interface AccessStores {
  readonly apiKeys: ApiKeyStore;
  readonly organizations: OrganizationStore;
  readonly sessions: SessionStore;
  readonly userIdentities: UserIdentityStore;
  readonly grants: GranteeDirectory;
}

/**
 * How the caller names its input fields (a CLI flag `--name`, a form field `name`), so a refusal
 * names the field the person typed. A field left out is named as the service calls it.
 */
export type FieldNames<Field extends string> = Partial<Record<Field, string>>;

/** The deployment profile: on `lite` there is one person and no per-agent key (spec §5.5). */
export type AccessProfile = 'lite' | 'standard';
