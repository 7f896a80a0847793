import type { DeploymentProfile } from './config-types.js';

export type ProfileResolution =
  | { readonly ok: true; readonly profile: DeploymentProfile; readonly deprecatedAlias: boolean }
  | { readonly ok: false; readonly message: string };

/**
 * Resolves `DEPLOYMENT_PROFILE` (spec §1.4–1.5, §9.1): `standard` by default, `enterprise` as a
 * deprecated alias of it, and the removed `memory` profile rejected with guidance.
 */
export function resolveProfile(raw: string | undefined): ProfileResolution {
  const value = raw?.trim().toLowerCase();
  if (value === undefined || value === '' || value === 'standard') {
    return { ok: true, profile: 'standard', deprecatedAlias: false };
  }
  if (value === 'lite') return { ok: true, profile: 'lite', deprecatedAlias: false };
  if (value === 'enterprise') return { ok: true, profile: 'standard', deprecatedAlias: true };
  if (value === 'memory') {
    return {
      ok: false,
      message:
        'the "memory" profile was removed. Choose "lite" (single user, no auth stack; pair it with ' +
        'DATABASE_URL=pglite://<dir> for an embedded database) or "standard" (multi-tenant, with API ' +
        'keys, organizations, sessions and rate limits)',
    };
  }
  return { ok: false, message: `must be lite or standard ("enterprise" is a deprecated alias of standard); got "${raw}"` };
}
