import { createHash, randomBytes } from 'node:crypto';
import type { LoopbackReply, LoopbackRequest } from './loopback-server.js';

/** What a fake provider remembers of an approved authorization request until its code is redeemed. */
export interface AuthorizationGrant<User> {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly scope: string;
  readonly nonce: string | undefined;
  readonly user: User;
}

/** Why a code was not redeemed; each fake answers it in its provider's own words. */
export type RedemptionProblem = 'unknown-code' | 'redirect-mismatch' | 'pkce-mismatch';

/** The token request's side of a redemption. */
export interface RedemptionRequest {
  readonly code: string | null;
  readonly clientId: string | undefined;
  readonly redirectUri: string | null;
  readonly codeVerifier: string | null;
}

/** The S256 code challenge of a verifier (RFC 7636 §4.2). */
export function pkceChallenge(codeVerifier: string): string {
  return createHash('sha256').update(codeVerifier).digest('base64url');
}

/**
 * The authorization codes a fake has handed out. A code is single-use: the first redemption
 * removes it, successful or not (RFC 6749 §4.1.2), and redeeming checks the client, the
 * redirect URI and the PKCE verifier against what the authorization request said.
 */
export class FakeAuthorizationCodes<User> {
  readonly #grants = new Map<string, AuthorizationGrant<User>>();

  /** Remembers an approved request and returns its code. */
  issue(grant: AuthorizationGrant<User>): string {
    const code = randomBytes(20).toString('hex');
    this.#grants.set(code, grant);
    return code;
  }

  /** Takes a code back; the grant when everything matches, else what did not. */
  redeem(request: RedemptionRequest): { grant: AuthorizationGrant<User> } | { problem: RedemptionProblem } {
    const grant = request.code === null ? undefined : this.#grants.get(request.code);
    if (request.code !== null) this.#grants.delete(request.code);
    if (!grant || grant.clientId !== request.clientId) return { problem: 'unknown-code' };
    if (request.redirectUri !== grant.redirectUri) return { problem: 'redirect-mismatch' };
    if (request.codeVerifier === null || pkceChallenge(request.codeVerifier) !== grant.codeChallenge) return { problem: 'pkce-mismatch' };
    return { grant };
  }
}

/** How a fake's authorization endpoint behaves. */
export interface AuthorizeEndpoint<User> {
  readonly clientId: string;
  readonly codes: FakeAuthorizationCodes<User>;
  /** OpenID providers want a nonce with every request; GitHub has none. */
  readonly requireNonce: boolean;
  /** The user who consents: the one named by `approve(…, asUser)`, or the default one. */
  readonly user: (name: string | undefined) => User | undefined;
  /** The parameters of the callback when the person clicks "Cancel" (besides `state`). */
  readonly denial: Readonly<Record<string, string>>;
}

// approve() and deny() tell the fake's authorize endpoint who clicks what; a browser would carry
// a session cookie at the provider instead.
const USER_HEADER = 'x-fake-user';
const DECISION_HEADER = 'x-fake-decision';

/**
 * The authorization endpoint: checks the request like a provider's consent page does (known
 * client, a redirect URI, PKCE S256; this fake insists on PKCE so that a passing login proves
 * the client uses it), then redirects to the callback with a code, or with an error on denial.
 */
export function authorize<User>(request: LoopbackRequest, endpoint: AuthorizeEndpoint<User>): LoopbackReply {
  const query = request.url.searchParams;
  const redirectUri = query.get('redirect_uri');
  const codeChallenge = query.get('code_challenge');
  const nonce = query.get('nonce') ?? undefined;
  const problem =
    query.get('client_id') !== endpoint.clientId
      ? 'unknown client_id'
      : !redirectUri || !URL.canParse(redirectUri)
        ? 'missing or invalid redirect_uri'
        : !codeChallenge || query.get('code_challenge_method') !== 'S256'
          ? 'this fake requires PKCE with code_challenge_method=S256'
          : endpoint.requireNonce && !nonce
            ? 'missing nonce'
            : undefined;
  if (problem || !redirectUri || !codeChallenge) return { status: 400, headers: { 'content-type': 'text/plain' }, body: problem };

  const callback = new URL(redirectUri);
  const state = query.get('state');
  if (request.headers[DECISION_HEADER] === 'deny') {
    for (const [name, value] of Object.entries(endpoint.denial)) callback.searchParams.set(name, value);
  } else {
    const name = request.headers[USER_HEADER];
    const user = endpoint.user(typeof name === 'string' ? name : undefined);
    if (user === undefined) return { status: 400, headers: { 'content-type': 'text/plain' }, body: 'unknown fake user' };
    const scope = query.get('scope') ?? '';
    callback.searchParams.set(
      'code',
      endpoint.codes.issue({ clientId: endpoint.clientId, redirectUri, codeChallenge, scope, nonce, user }),
    );
  }
  if (state !== null) callback.searchParams.set('state', state);
  return { status: 302, headers: { location: callback.href } };
}

/**
 * Plays the person at the consent page: requests the authorization URL without following the
 * redirect, and returns where the provider sends the browser (our callback with its parameters).
 */
export async function consent(authorizationUrl: string | URL, decision: { asUser?: string | undefined; deny?: boolean }): Promise<URL> {
  const headers: Record<string, string> = {};
  if (decision.asUser !== undefined) headers[USER_HEADER] = decision.asUser;
  if (decision.deny) headers[DECISION_HEADER] = 'deny';
  const response = await fetch(authorizationUrl, { redirect: 'manual', headers });
  const location = response.headers.get('location');
  if (response.status !== 302 || location === null) {
    throw new Error(`the fake provider refused the authorization request: HTTP ${response.status} ${await response.text()}`);
  }
  return new URL(location);
}
