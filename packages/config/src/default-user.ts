import type { DeploymentProfile } from './config-types.js';

/**
 * The user a lite server acts as when MEMSVC_DEFAULT_USER_ID is unset. Lite is single-user, so a
 * call that names no `userId` is that user's: without a default every agent would invent its own
 * id and one person's memories would split silently between them. `me` is a valid tenant id
 * (letters only) and what the README's client snippets use.
 */
export const LITE_DEFAULT_USER_ID = 'me';

/**
 * Spec §5.1: MEMSVC_DEFAULT_USER_ID when set; otherwise LITE_DEFAULT_USER_ID on lite, and none on
 * standard, where a call without `userId` or a credential stays refused.
 */
export function defaultUserIdFor(profile: DeploymentProfile, configured: string | undefined): string | undefined {
  return configured ?? (profile === 'lite' ? LITE_DEFAULT_USER_ID : undefined);
}
