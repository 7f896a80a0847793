import type { Secret } from '@memsvc/access';
import * as oauth from 'oauth4webapi';
import { isRecord } from './json-shapes.js';
import { LoginRefused } from './login-refused.js';
import { codeParameters, type ProviderTransport, requestOptions } from './oauth-requests.js';
import type { OAuthProviderClient } from './provider-client.js';
import { providerFailure } from './provider-failure.js';

/** Where GitHub (or a GitHub Enterprise server, or a test fake) answers. */
export interface GitHubEndpoints {
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  /** The REST API root; `/user` and `/user/emails` are read below it. */
  readonly apiBaseUrl: string;
}

/** github.com itself. */
export const GITHUB_ENDPOINTS: GitHubEndpoints = Object.freeze({
  authorizeUrl: 'https://github.com/login/oauth/authorize',
  tokenUrl: 'https://github.com/login/oauth/access_token',
  apiBaseUrl: 'https://api.github.com',
});

/** Options of githubClient: the OAuth app's credentials, and where GitHub is. */
export interface GitHubClientOptions extends ProviderTransport {
  readonly clientId: string;
  readonly clientSecret: Secret;
  readonly endpoints?: GitHubEndpoints | undefined;
}

// The profile (id, name) and the email addresses with their verification flags; nothing else.
const SCOPE = 'read:user user:email';

// GitHub's REST API refuses requests without a User-Agent, and pins its format by version header.
const API_HEADERS = Object.freeze({
  accept: 'application/vnd.github+json',
  'user-agent': 'memsvc',
  'x-github-api-version': '2022-11-28',
});

/**
 * GitHub login (spec §5.5): an OAuth app's authorization code grant with PKCE, then the REST API
 * for who the token belongs to. GitHub has no ID token, so the identity is what `/user` and
 * `/user/emails` say, read with the token GitHub just gave us over TLS.
 */
export function githubClient(options: GitHubClientOptions): OAuthProviderClient {
  const endpoints = options.endpoints ?? GITHUB_ENDPOINTS;
  const apiBase = endpoints.apiBaseUrl.replace(/\/+$/, '');
  // GitHub is not an OpenID provider; oauth4webapi still wants an issuer, and GitHub never sends
  // one back, so the authorization server's origin stands in.
  const as: oauth.AuthorizationServer = {
    issuer: new URL(endpoints.authorizeUrl).origin,
    authorization_endpoint: endpoints.authorizeUrl,
    token_endpoint: endpoints.tokenUrl,
  };
  const client: oauth.Client = { client_id: options.clientId };

  async function apiGet(accessToken: string, path: string): Promise<unknown> {
    const response = await oauth.protectedResourceRequest(
      accessToken,
      'GET',
      new URL(`${apiBase}${path}`),
      new Headers(API_HEADERS),
      null,
      requestOptions(options),
    );
    if (response.status !== 200) throw new LoginRefused('provider-error', `GET ${path} answered HTTP ${response.status}`);
    return response.json();
  }

  return {
    provider: 'github',

    async authorizationUrl(login) {
      const url = new URL(endpoints.authorizeUrl);
      url.searchParams.set('client_id', options.clientId);
      url.searchParams.set('redirect_uri', login.redirectUri);
      url.searchParams.set('scope', SCOPE);
      url.searchParams.set('state', login.state);
      url.searchParams.set('code_challenge', login.codeChallenge);
      url.searchParams.set('code_challenge_method', 'S256');
      return url;
    },

    async identify(exchange) {
      let accessToken: string;
      try {
        const response = await oauth.authorizationCodeGrantRequest(
          as,
          client,
          oauth.ClientSecretPost(options.clientSecret.reveal()),
          codeParameters(as, client, exchange.code),
          exchange.redirectUri,
          exchange.codeVerifier,
          // oauth4webapi asks for JSON itself; without it GitHub answers form-encoded.
          requestOptions(options, { accept: 'application/json', 'user-agent': 'memsvc' }),
        );
        await refuseErrorBody(response);
        accessToken = (await oauth.processAuthorizationCodeResponse(as, client, response)).access_token;
      } catch (error) {
        throw providerFailure('token exchange', error);
      }
      try {
        const user = parseUser(await apiGet(accessToken, '/user'));
        const email = primaryVerifiedEmail(await apiGet(accessToken, '/user/emails'));
        return { provider: 'github', providerUserId: user.id, email, displayName: user.displayName };
      } catch (error) {
        throw providerFailure('user lookup', error);
      }
    },
  };
}

/**
 * GitHub answers a bad, used or expired code with HTTP 200 and `{error, error_description}`;
 * naming its error code makes the log line say so instead of "no access_token".
 */
async function refuseErrorBody(response: Response): Promise<void> {
  if (response.status !== 200) return;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  if (isRecord(body) && typeof body.error === 'string') {
    const code = /^[a-z_]{1,64}$/.test(body.error) ? body.error : 'error';
    throw new LoginRefused('provider-error', `token exchange: GitHub refused the code (${code})`);
  }
}

function parseUser(body: unknown): { id: string; displayName: string | undefined } {
  if (!isRecord(body) || !Number.isSafeInteger(body.id)) throw new LoginRefused('provider-error', 'GET /user: no numeric id');
  const name = typeof body.name === 'string' && body.name.trim() !== '' ? body.name : undefined;
  const login = typeof body.login === 'string' ? body.login : undefined;
  return { id: String(body.id), displayName: name ?? login };
}

/**
 * The address to log in with: the primary one when GitHub has verified it, else the first
 * verified one (a verified secondary address is as much the person's as the primary).
 */
function primaryVerifiedEmail(body: unknown): string {
  if (!Array.isArray(body)) throw new LoginRefused('provider-error', 'GET /user/emails: not a list');
  const verified = body.filter(
    (entry): entry is { email: string; primary?: unknown } => isRecord(entry) && entry.verified === true && typeof entry.email === 'string',
  );
  const chosen = verified.find((entry) => entry.primary === true) ?? verified[0];
  if (!chosen) throw new LoginRefused('email-unverified', 'GitHub lists no verified email address');
  return chosen.email.toLowerCase();
}
