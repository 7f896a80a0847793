import { githubClient, googleClient, LoginFlow, type OAuthProviderClient } from '@memsvc/auth';
import type { OAuthClient } from '@memsvc/config';
import type { MemsvcRuntime } from './open-runtime.js';

/** Which client credentials a login uses, and where the provider sends the browser back. */
export interface LoginFlowSettings {
  readonly github: OAuthClient | undefined;
  readonly google: OAuthClient | undefined;
  /** `<this>/auth/<provider>/callback` is the callback the provider is told. */
  readonly redirectBaseUrl: string | undefined;
  /** Replaces the configured providers (tests point them at loopback servers). */
  readonly clients?: readonly OAuthProviderClient[] | undefined;
}

/**
 * GitHub and Google login on the runtime's sessions, states and identities: the server's
 * `/auth/<provider>/…` and the dashboard's sign-in are this one flow with different settings, so
 * both produce the same sessions. Undefined without sessions (lite, or no JWT_SECRET), without a
 * redirect base, or without a provider (spec §5.5: each only when both its id and secret are set).
 */
export function configuredLoginFlow(
  runtime: Pick<MemsvcRuntime, 'config' | 'store' | 'sessions' | 'clock'>,
  settings: LoginFlowSettings,
): LoginFlow | undefined {
  const { config, store, sessions, clock } = runtime;
  if (!sessions || settings.redirectBaseUrl === undefined || config.profile !== 'standard') return undefined;
  const { github, google } = settings;
  const providers = settings.clients ?? [
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
    redirectBaseUrl: settings.redirectBaseUrl,
    adminEmails: config.auth.adminEmails,
  });
}
