import { githubClient, googleClient, LoginFlow, type OAuthProviderClient } from '@memsvc/auth';
import type { MemsvcRuntime } from '@memsvc/runtime';

/**
 * GitHub and Google sign-in for the dashboard: the AUTH_* client credentials (Auth.js's names),
 * else the server's GITHUB_CLIENT_ID and GOOGLE_CLIENT_ID pairs, through the server's own login flow, so a dashboard
 * sign-in is the same session an MCP client gets. The provider sends the browser back to
 * `<OAUTH_REDIRECT_BASE_URL><basePath>/auth/<provider>/callback`. Undefined without sessions
 * (no JWT_SECRET, or lite), without a redirect base, or without a provider. `clients` replaces
 * the configured providers (tests point them at loopback servers).
 */
export function dashboardLoginFlow(
  runtime: Pick<MemsvcRuntime, 'config' | 'store' | 'sessions' | 'clock'>,
  basePath: string,
  clients?: readonly OAuthProviderClient[],
): LoginFlow | undefined {
  const { config, store, sessions, clock } = runtime;
  const redirectBase = config.auth.oauthRedirectBaseUrl;
  if (!sessions || redirectBase === undefined || config.profile !== 'standard') return undefined;
  const github = config.auth.dashboard.github ?? config.auth.github;
  const google = config.auth.dashboard.google ?? config.auth.google;
  const providers = clients ?? [
    ...(github ? [githubClient({ clientId: github.clientId, clientSecret: github.clientSecret })] : []),
    ...(google ? [googleClient({ clientId: google.clientId, clientSecret: google.clientSecret, clock })] : []),
  ];
  if (providers.length === 0) return undefined;
  return new LoginFlow({
    providers,
    states: store.oauthStates,
    identities: store.userIdentities,
    issueSession: (subject, client) => sessions.issue(subject, client),
    clock,
    redirectBaseUrl: `${redirectBase.replace(/\/$/, '')}${basePath}`,
    adminEmails: config.auth.adminEmails,
  });
}
