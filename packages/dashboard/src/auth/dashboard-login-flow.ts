import type { LoginFlow, OAuthProviderClient } from '@memsvc/auth';
import { configuredLoginFlow, type MemsvcRuntime } from '@memsvc/runtime';

/**
 * GitHub and Google sign-in for the dashboard: the AUTH_* client credentials (Auth.js's names),
 * else the server's GITHUB_CLIENT_ID and GOOGLE_CLIENT_ID pairs, through the server's own login
 * flow, so a dashboard sign-in is the same session an MCP client gets. The provider sends the
 * browser back to `<OAUTH_REDIRECT_BASE_URL><basePath>/auth/<provider>/callback`. `clients`
 * replaces the configured providers (tests point them at loopback servers).
 */
export function dashboardLoginFlow(
  runtime: Pick<MemsvcRuntime, 'config' | 'store' | 'sessions' | 'clock'>,
  basePath: string,
  clients?: readonly OAuthProviderClient[],
): LoginFlow | undefined {
  const { auth } = runtime.config;
  const redirectBase = auth.oauthRedirectBaseUrl;
  return configuredLoginFlow(runtime, {
    github: auth.dashboard.github ?? auth.github,
    google: auth.dashboard.google ?? auth.google,
    redirectBaseUrl: redirectBase === undefined ? undefined : `${redirectBase.replace(/\/$/, '')}${basePath}`,
    clients,
  });
}
