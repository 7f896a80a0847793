import type { LoginFlow, OAuthProviderClient } from '@memsvc/auth';
import { configuredLoginFlow, type MemsvcRuntime } from '@memsvc/runtime';

/**
 * The server's GitHub and Google login (`/auth/<provider>/…`), with GITHUB_CLIENT_* and
 * GOOGLE_CLIENT_* (the configuration refuses an enabled provider without OAUTH_REDIRECT_BASE_URL
 * or JWT_SECRET). `clients` replaces the configured providers (tests point them at loopback servers).
 */
export function loginFlowOf(
  runtime: Pick<MemsvcRuntime, 'config' | 'store' | 'sessions' | 'clock'>,
  clients?: readonly OAuthProviderClient[],
): LoginFlow | undefined {
  const { github, google, oauthRedirectBaseUrl } = runtime.config.auth;
  return configuredLoginFlow(runtime, { github, google, redirectBaseUrl: oauthRedirectBaseUrl, clients });
}
