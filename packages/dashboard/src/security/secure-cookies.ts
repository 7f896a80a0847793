import type { MemsvcConfig } from '@memsvc/core';

/**
 * Whether cookies (the session, the CSRF token, a login's state) are sent with `Secure`: always,
 * unless NODE_ENV is `development` (the default) and no URL memsvc is reached at is HTTPS. A
 * deployment behind TLS that leaves NODE_ENV unset but names its public or OAuth callback URL
 * still gets Secure cookies; plain HTTP during development keeps working.
 */
export function cookiesMustBeSecure(config: MemsvcConfig): boolean {
  if (config.nodeEnv !== 'development') return true;
  return [config.auth.oauthRedirectBaseUrl, config.mcp.publicUrl].some((url) => url?.toLowerCase().startsWith('https://') === true);
}
