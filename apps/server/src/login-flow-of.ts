import { githubClient, googleClient, LoginFlow, type OAuthProviderClient } from '@memsvc/auth';
import type { MemsvcRuntime } from '@memsvc/runtime';

/**
 * GitHub and Google login as configured (spec §5.5: each provider only when both its client id
 * and secret are set; the configuration refuses an enabled provider without
 * OAUTH_REDIRECT_BASE_URL or JWT_SECRET). Undefined when no provider is enabled. `clients`
 * replaces the configured providers (tests point them at loopback servers).
 */
export function loginFlowOf(
  runtime: Pick<MemsvcRuntime, 'config' | 'store' | 'sessions' | 'clock'>,
  clients?: readonly OAuthProviderClient[],
): LoginFlow | undefined {
  const { config, store, sessions, clock } = runtime;
  const redirectBaseUrl = config.auth.oauthRedirectBaseUrl;
  if (!sessions || redirectBaseUrl === undefined || config.profile !== 'standard') return undefined;
  const { github, google } = config.auth;
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
    redirectBaseUrl,
    adminEmails: config.auth.adminEmails,
  });
}
