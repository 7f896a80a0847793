import { randomBytes } from 'node:crypto';
import { authorize, consent, FakeAuthorizationCodes, type RedemptionProblem } from './fake-authorization.js';
import { readTokenRequest } from './fake-token-request.js';
import { jsonReply, type LoopbackReply, type LoopbackRequest, startLoopbackServer } from './loopback-server.js';

/** One email address of a fake GitHub account, as `GET /user/emails` lists it. */
export interface FakeGitHubEmail {
  readonly email: string;
  readonly primary: boolean;
  readonly verified: boolean;
  readonly visibility?: 'public' | 'private' | null;
}

/** A fake GitHub account. */
export interface FakeGitHubUser {
  readonly id: number;
  readonly login: string;
  readonly name?: string | null;
  /** May hold only unverified addresses, to test that such a login is refused. */
  readonly emails: readonly FakeGitHubEmail[];
}

/** Ways to make the fake fail like GitHub sometimes does. */
export type FakeGitHubFailure = 'token-500' | 'user-500';

/** Options of startFakeGitHub: the OAuth app it knows, and its accounts. */
export interface FakeGitHubOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  /** The accounts; the first one approves when `approve` names none. */
  readonly users?: readonly FakeGitHubUser[];
}

/** A running fake GitHub. */
export interface FakeGitHub {
  readonly url: string;
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  readonly apiBaseUrl: string;
  /** The error codes the token endpoint answered, oldest first (to assert on refusals). */
  readonly tokenErrors: readonly string[];
  /** The person clicks "Authorize" (as `asUser`, a login, or the first user): returns the callback URL. */
  approve(authorizationUrl: string | URL, asUser?: string): Promise<URL>;
  /** The person clicks "Cancel": returns the callback URL with `error=access_denied`. */
  deny(authorizationUrl: string | URL): Promise<URL>;
  setFailure(failure: FakeGitHubFailure | undefined): void;
  close(): Promise<void>;
}

/** The account the fake has when none are given. */
export const DEFAULT_GITHUB_USER: FakeGitHubUser = Object.freeze({
  id: 583231,
  login: 'octocat',
  name: 'The Octocat',
  emails: Object.freeze([{ email: 'octocat@example.com', primary: true, verified: true, visibility: 'public' as const }]),
});

// GitHub's words for a token request it will not honour, always with HTTP 200.
const REDEMPTION_ERRORS: Readonly<Record<RedemptionProblem, [string, string]>> = {
  'unknown-code': ['bad_verification_code', 'The code passed is incorrect or expired.'],
  'redirect-mismatch': ['redirect_uri_mismatch', 'The redirect_uri MUST match the registered callback URL for this application.'],
  'pkce-mismatch': [
    'bad_verification_code',
    'The code_verifier does not match the code_challenge supplied in the authorization request for PKCE.',
  ],
};

/**
 * A GitHub OAuth app's side of github.com and api.github.com on loopback, speaking their wire
 * formats: the authorize redirect, the form-posted token request answered as JSON only when
 * asked (and with HTTP 200 even for errors), and `/user`, `/user/emails` behind a bearer token
 * and a required User-Agent.
 */
export async function startFakeGitHub(options: FakeGitHubOptions): Promise<FakeGitHub> {
  const users = options.users ?? [DEFAULT_GITHUB_USER];
  const codes = new FakeAuthorizationCodes<FakeGitHubUser>();
  const tokens = new Map<string, FakeGitHubUser>();
  const tokenErrors: string[] = [];
  let failure: FakeGitHubFailure | undefined;

  function token(request: LoopbackRequest): LoopbackReply {
    if (failure === 'token-500')
      return { status: 500, headers: { 'content-type': 'text/html' }, body: '<h1>500 Internal Server Error</h1>' };
    const wantsJson = (request.headers.accept ?? '').includes('application/json');
    const answer = (value: Record<string, string>): LoopbackReply =>
      wantsJson
        ? jsonReply(200, value)
        : {
            status: 200,
            headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' },
            body: new URLSearchParams(value).toString(),
          };
    const refuse = (error: string, description: string): LoopbackReply => {
      tokenErrors.push(error);
      return answer({ error, error_description: description, error_uri: 'https://docs.github.com/apps/oauth' });
    };

    const parsed = readTokenRequest(request);
    if (!parsed) return { status: 415, body: 'expected a form post' };
    if (parsed.clientId !== options.clientId || parsed.clientSecret !== options.clientSecret || parsed.authMethod === 'multiple') {
      return refuse('incorrect_client_credentials', 'The client_id and/or client_secret passed are incorrect.');
    }
    const redemption = codes.redeem({
      code: parsed.params.get('code'),
      clientId: parsed.clientId,
      redirectUri: parsed.params.get('redirect_uri'),
      codeVerifier: parsed.params.get('code_verifier'),
    });
    if ('problem' in redemption) return refuse(...REDEMPTION_ERRORS[redemption.problem]);
    const accessToken = `gho_${randomBytes(18).toString('base64url')}`;
    tokens.set(accessToken, redemption.grant.user);
    return answer({ access_token: accessToken, token_type: 'bearer', scope: redemption.grant.scope.split(' ').join(',') });
  }

  function api(request: LoopbackRequest, path: string): LoopbackReply {
    if (!request.headers['user-agent']) {
      return {
        status: 403,
        headers: { 'content-type': 'text/plain' },
        body: 'Request forbidden by administrative rules. Please make sure your request has a User-Agent header.',
      };
    }
    const presented = /^(?:Bearer|token)\s+(\S+)$/i.exec(request.headers.authorization ?? '')?.[1];
    const user = presented === undefined ? undefined : tokens.get(presented);
    if (!user) return jsonReply(401, { message: 'Bad credentials', documentation_url: 'https://docs.github.com/rest', status: '401' });
    if (failure === 'user-500') return jsonReply(500, { message: 'Server Error' });
    if (path === '/user') {
      return jsonReply(200, { login: user.login, id: user.id, type: 'User', name: user.name ?? null, email: null });
    }
    return jsonReply(
      200,
      user.emails.map((entry) => ({ visibility: null, ...entry })),
    );
  }

  const server = await startLoopbackServer((request) => {
    const path = request.url.pathname;
    if (request.method === 'GET' && path === '/login/oauth/authorize') {
      return authorize(request, {
        clientId: options.clientId,
        codes,
        requireNonce: false,
        user: (login) => (login === undefined ? users[0] : users.find((candidate) => candidate.login === login)),
        denial: {
          error: 'access_denied',
          error_description: 'The user has denied your application access.',
          error_uri: 'https://docs.github.com/apps/troubleshooting-authorization-request-errors/#access-denied',
        },
      });
    }
    if (path === '/login/oauth/access_token') return token(request);
    if (request.method === 'GET' && (path === '/api/user' || path === '/api/user/emails')) return api(request, path.slice('/api'.length));
    return jsonReply(404, { message: 'Not Found' });
  });

  return {
    url: server.url,
    authorizeUrl: `${server.url}/login/oauth/authorize`,
    tokenUrl: `${server.url}/login/oauth/access_token`,
    // One server plays both hosts; the API sits under /api as on GitHub Enterprise.
    apiBaseUrl: `${server.url}/api`,
    tokenErrors,
    approve: (authorizationUrl, asUser) => consent(authorizationUrl, { asUser }),
    deny: (authorizationUrl) => consent(authorizationUrl, { deny: true }),
    setFailure: (next) => {
      failure = next;
    },
    close: () => server.close(),
  };
}
