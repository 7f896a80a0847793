import type { IdentityProvider, OAuthStateStore, Scope, UserIdentityStore } from '@memsvc/access';
import { type Clock, MemsvcError } from '@memsvc/core';
import * as oauth from 'oauth4webapi';
import { OAUTH_CONSENT_RESUME_PATH } from '../oauth-server/server-metadata.js';
import type { IssuedSession, SessionClient, SessionIssuer } from '../session-subject.js';
import { LoginRefused } from './login-refused.js';
import { hashLoginState, newLoginState, nonceForState } from './login-state.js';
import type { OAuthProviderClient } from './provider-client.js';

/** Options of LoginFlow: the enabled providers, the stores, and who is an administrator. */
export interface LoginFlowOptions {
  /** The enabled providers; a provider not listed is not offered and its routes are NOT_FOUND. */
  readonly providers: ReadonlyMap<IdentityProvider, OAuthProviderClient> | readonly OAuthProviderClient[];
  readonly states: OAuthStateStore;
  readonly identities: UserIdentityStore;
  readonly issueSession: SessionIssuer;
  readonly clock: Clock;
  /** OAUTH_REDIRECT_BASE_URL: callbacks are `<base>/auth/<provider>/callback`. */
  readonly redirectBaseUrl: string;
  /** Verified emails whose sessions get the `admin` scope (compared case-insensitively). */
  readonly adminEmails: readonly string[];
  /** How long a started login may take before its state expires; 600 s by default. */
  readonly stateTtlSeconds?: number | undefined;
}

/** The parameters of a provider's redirect back to us: a parsed query string, or a plain record. */
export type CallbackParameters = URLSearchParams | Readonly<Record<string, string | undefined>>;

/**
 * Every login session may read, write and delete its own memories, and manage its own keys: a
 * person signed in with an identity provider is the owner of the tenant, not an agent.
 */
const PERSON_SCOPES: readonly Scope[] = Object.freeze(['memories:read', 'memories:write', 'memories:delete', 'keys:manage']);
const ADMIN_SCOPES: readonly Scope[] = Object.freeze([...PERSON_SCOPES, 'admin']);

const DEFAULT_STATE_TTL_SECONDS = 600;

/**
 * A person's login through an identity provider (spec §2.4, §5.5): authorization code with PKCE
 * and a single-use `state` kept in the database as a hash, so any replica can finish a login
 * another started. `start` sends the browser away; `finish` takes the callback and issues a
 * session. A refused login throws LoginRefused; a provider that is not enabled is NOT_FOUND (a
 * route that does not exist here, rather than a login that failed).
 */
export class LoginFlow {
  readonly #providers: ReadonlyMap<IdentityProvider, OAuthProviderClient>;
  readonly #states: OAuthStateStore;
  readonly #identities: UserIdentityStore;
  readonly #issueSession: SessionIssuer;
  readonly #clock: Clock;
  readonly #callbackBase: string;
  readonly #adminEmails: ReadonlySet<string>;
  readonly #stateTtlMs: number;

  constructor(options: LoginFlowOptions) {
    this.#providers = providerMap(options.providers);
    this.#states = options.states;
    this.#identities = options.identities;
    this.#issueSession = options.issueSession;
    this.#clock = options.clock;
    this.#callbackBase = callbackBase(options.redirectBaseUrl);
    this.#adminEmails = new Set(options.adminEmails.map((email) => email.trim().toLowerCase()).filter((email) => email !== ''));
    const ttl = options.stateTtlSeconds ?? DEFAULT_STATE_TTL_SECONDS;
    if (!Number.isFinite(ttl) || ttl <= 0) {
      throw new MemsvcError('INVALID_CONFIG', 'stateTtlSeconds must be a positive number of seconds', { field: 'stateTtlSeconds' });
    }
    this.#stateTtlMs = ttl * 1000;
  }

  /** The providers a login page may offer, in the order they were given. */
  enabledProviders(): IdentityProvider[] {
    return [...this.#providers.keys()];
  }

  /**
   * Begins a login: a fresh state and PKCE verifier, stored (the state as a hash) until the TTL
   * passes with `redirectTo` (a path of this server, checked by the caller), and the provider URL
   * to send the browser to. The nonce is derived from the state. The
   * caller ties the state to the browser (LOGIN_STATE_COOKIE) and checks it at the callback
   * (startedInThisBrowser) before `finish`.
   */
  async start(
    provider: string,
    options: { readonly redirectTo?: string | undefined } = {},
  ): Promise<{ authorizationUrl: string; state: string; stateTtlSeconds: number }> {
    const client = this.#client(provider);
    const state = newLoginState();
    const codeVerifier = oauth.generateRandomCodeVerifier();
    // The URL first: a provider that cannot be reached (Google's discovery) leaves no state behind.
    const url = await client.authorizationUrl({
      state,
      codeChallenge: await oauth.calculatePKCECodeChallenge(codeVerifier),
      nonce: nonceForState(state),
      redirectUri: this.#redirectUri(client.provider),
    });
    const expiresAt = new Date(this.#clock.now().getTime() + this.#stateTtlMs);
    await this.#states.save(
      hashLoginState(state),
      { provider: client.provider, codeVerifier, redirectTo: options.redirectTo ?? null },
      expiresAt,
    );
    return { authorizationUrl: url.href, state, stateTtlSeconds: this.#stateTtlMs / 1000 };
  }

  /**
   * Completes a login from the provider's callback. The state is consumed before the provider is
   * contacted, so a failed exchange cannot be retried with the same state (nor a callback URL
   * replayed from a browser history). The identity's verified email decides the admin scope. A
   * blocked account, or a linked one whose verified email changed, is refused (R-IDENTITY-EMAIL).
   */
  async finish(provider: string, params: CallbackParameters, client: SessionClient): Promise<IssuedSession> {
    return (await this.finishLogin(provider, params, client)).session;
  }

  /**
   * As `finish`, and where the login asked to go next (`start`'s `redirectTo`, a path of this
   * server, or null): an OAuth consent page sends the person through a login and back to itself
   * (OAUTH_CONSENT_RESUME_PATH), and that login's session is a short consent sign-in.
   */
  async finishLogin(
    provider: string,
    params: CallbackParameters,
    client: SessionClient,
  ): Promise<{ session: IssuedSession; redirectTo: string | null }> {
    const providerClient = this.#client(provider);
    const read = (name: string): string | undefined => (params instanceof URLSearchParams ? (params.get(name) ?? undefined) : params[name]);
    if (read('error') !== undefined) throw new LoginRefused('provider-denied', 'the callback carries an error parameter');
    const code = read('code');
    const state = read('state');
    if (!code) throw new LoginRefused('invalid-callback', 'the callback has no code');
    if (!state) throw new LoginRefused('invalid-callback', 'the callback has no state');

    const pending = await this.#states.consume(hashLoginState(state), providerClient.provider, this.#clock.now());
    if (!pending) throw new LoginRefused('unknown-state', 'no pending login has this state (unknown, used, expired or another provider’s)');

    const identity = await providerClient.identify({
      code,
      codeVerifier: pending.codeVerifier,
      nonce: nonceForState(state),
      redirectUri: this.#redirectUri(providerClient.provider),
    });
    const outcome = await this.#identities.recordLogin(identity, this.#clock.now());
    // Refused rather than sent elsewhere: a changed email must not open another user's tenant.
    if (outcome.kind === 'refused')
      throw new LoginRefused(outcome.reason, `the ${providerClient.provider} account is refused: ${outcome.reason}`);
    const { userId } = outcome;
    const scopes = this.#adminEmails.has(identity.email.toLowerCase()) ? ADMIN_SCOPES : PERSON_SCOPES;
    // A login for the consent page signs the person in for that decision only, not for a session.
    const purpose = pending.redirectTo === OAUTH_CONSENT_RESUME_PATH ? { purpose: 'consent-sign-in' as const } : {};
    const session = await this.#issueSession({ userId, organizationId: null, scopes, origin: providerClient.provider, ...purpose }, client);
    return { session, redirectTo: pending.redirectTo };
  }

  #client(provider: string): OAuthProviderClient {
    const client = this.#providers.get(provider as IdentityProvider);
    if (!client) {
      // The name comes from a URL path, so it is not echoed back.
      throw new MemsvcError('NOT_FOUND', 'This login provider is not enabled.', { enabled: this.enabledProviders() });
    }
    return client;
  }

  #redirectUri(provider: IdentityProvider): string {
    return `${this.#callbackBase}/auth/${provider}/callback`;
  }
}

function providerMap(providers: LoginFlowOptions['providers']): ReadonlyMap<IdentityProvider, OAuthProviderClient> {
  const entries: [IdentityProvider, OAuthProviderClient][] = Array.isArray(providers)
    ? providers.map((client) => [client.provider, client])
    : [...(providers as ReadonlyMap<IdentityProvider, OAuthProviderClient>)];
  const map = new Map<IdentityProvider, OAuthProviderClient>();
  for (const [key, client] of entries) {
    // A GitHub client filed under "google" would send Google's callbacks to GitHub.
    if (key !== client.provider) {
      throw new MemsvcError('INVALID_CONFIG', `the ${client.provider} login client is listed as ${key}`, { provider: key });
    }
    if (map.has(key)) throw new MemsvcError('INVALID_CONFIG', `two ${key} login clients are configured`, { provider: key });
    map.set(key, client);
  }
  return map;
}

function callbackBase(redirectBaseUrl: string): string {
  const base = redirectBaseUrl.replace(/\/+$/, '');
  if (!URL.canParse(base) || !/^https?:$/.test(new URL(base).protocol)) {
    throw new MemsvcError('INVALID_CONFIG', 'redirectBaseUrl must be an absolute http(s) URL', { field: 'redirectBaseUrl' });
  }
  return base;
}
