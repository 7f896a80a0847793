import { createHash, randomBytes } from 'node:crypto';
import type { Clock } from '@memsvc/core';
import { type CryptoKey, exportJWK, generateKeyPair, SignJWT } from 'jose';
import { authorize, consent, FakeAuthorizationCodes, type RedemptionProblem } from './fake-authorization.js';
import { readTokenRequest } from './fake-token-request.js';
import { jsonReply, type LoopbackReply, type LoopbackRequest, startLoopbackServer } from './loopback-server.js';

/** A fake Google account, as its ID token describes it. */
export interface FakeGoogleUser {
  readonly sub: string;
  readonly email: string;
  /** False makes a login with this account refused (a Workspace or consumer address never verified). */
  readonly email_verified: boolean;
  readonly name?: string;
}

/**
 * Ways to make the fake misbehave: the token endpoint fails, or the ID token is wrong: signed
 * with a key that is not in the JWKS (same `kid`), for another audience, with another nonce, or
 * already expired.
 */
export type FakeGoogleFailure = 'token-500' | 'foreign-key' | 'wrong-audience' | 'wrong-nonce' | 'expired-id-token';

/** Options of startFakeGoogle: the OAuth client it knows, its accounts, and its clock. */
export interface FakeGoogleOptions {
  readonly clientId: string;
  readonly clientSecret: string;
  /** The accounts; the first one approves when `approve` names none. */
  readonly users?: readonly FakeGoogleUser[];
  /** The clock ID tokens are issued by; share the test's ManualClock. The wall clock by default. */
  readonly clock?: Clock;
}

/** A running fake Google. */
export interface FakeGoogle {
  readonly url: string;
  /** The OpenID issuer; discovery is at `<issuer>/.well-known/openid-configuration`. */
  readonly issuer: string;
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  readonly jwksUrl: string;
  /** The error codes the token endpoint answered, oldest first (to assert on refusals). */
  readonly tokenErrors: readonly string[];
  /** How clients authenticated at the token endpoint, oldest first. */
  readonly tokenAuthMethods: readonly string[];
  /** The person picks an account (by email, or the first user) and consents: returns the callback URL. */
  approve(authorizationUrl: string | URL, asUser?: string): Promise<URL>;
  /** The person cancels: returns the callback URL with `error=access_denied`. */
  deny(authorizationUrl: string | URL): Promise<URL>;
  setFailure(failure: FakeGoogleFailure | undefined): void;
  close(): Promise<void>;
}

/** The account the fake has when none are given. */
export const DEFAULT_GOOGLE_USER: FakeGoogleUser = Object.freeze({
  sub: '110248495921238986420',
  email: 'ada.lovelace@example.com',
  email_verified: true,
  name: 'Ada Lovelace',
});

const SYSTEM_CLOCK: Clock = { now: () => new Date() };
const KEY_ID = 'fake-google-key-1';
const ID_TOKEN_LIFETIME_SECONDS = 3600;

// Google's answers to a token request it will not honour.
const REDEMPTION_ERRORS: Readonly<Record<RedemptionProblem, [number, string, string]>> = {
  'unknown-code': [400, 'invalid_grant', 'Bad Request'],
  'redirect-mismatch': [400, 'redirect_uri_mismatch', 'Bad Request'],
  'pkce-mismatch': [400, 'invalid_grant', 'Invalid code verifier.'],
};

/**
 * Google's OpenID Connect provider on loopback, speaking its wire formats: discovery, the
 * authorization endpoint, a token endpoint that checks the client secret (Basic or form), PKCE
 * and the redirect URI and returns an RS256 ID token, and the JWKS with the signing key's `kid`.
 */
export async function startFakeGoogle(options: FakeGoogleOptions): Promise<FakeGoogle> {
  const users = options.users ?? [DEFAULT_GOOGLE_USER];
  const clock = options.clock ?? SYSTEM_CLOCK;
  const signing = await generateKeyPair('RS256');
  const foreign = await generateKeyPair('RS256');
  const publicJwk = { ...(await exportJWK(signing.publicKey)), kid: KEY_ID, alg: 'RS256', use: 'sig' };
  const codes = new FakeAuthorizationCodes<FakeGoogleUser>();
  const tokenErrors: string[] = [];
  const tokenAuthMethods: string[] = [];
  let failure: FakeGoogleFailure | undefined;
  let issuer = '';

  async function idToken(user: FakeGoogleUser, nonce: string | undefined, accessToken: string): Promise<string> {
    const issuedAt = Math.floor(clock.now().getTime() / 1000) - (failure === 'expired-id-token' ? 2 * ID_TOKEN_LIFETIME_SECONDS : 0);
    const audience = failure === 'wrong-audience' ? 'another-client.apps.googleusercontent.com' : options.clientId;
    const key: CryptoKey = failure === 'foreign-key' ? foreign.privateKey : signing.privateKey;
    return new SignJWT({
      azp: audience,
      email: user.email,
      email_verified: user.email_verified,
      // OpenID Connect Core §3.1.3.6: the left half of the access token's SHA-256.
      at_hash: createHash('sha256').update(accessToken).digest().subarray(0, 16).toString('base64url'),
      ...(nonce === undefined ? {} : { nonce: failure === 'wrong-nonce' ? 'a-nonce-of-another-login' : nonce }),
      ...(user.name === undefined ? {} : { name: user.name }),
    })
      .setProtectedHeader({ alg: 'RS256', kid: KEY_ID, typ: 'JWT' })
      .setIssuer(issuer)
      .setAudience(audience)
      .setSubject(user.sub)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + ID_TOKEN_LIFETIME_SECONDS)
      .sign(key);
  }

  async function token(request: LoopbackRequest): Promise<LoopbackReply> {
    if (failure === 'token-500') return jsonReply(500, { error: 'internal_failure', error_description: 'Backend Error' });
    const refuse = (status: number, error: string, description: string): LoopbackReply => {
      tokenErrors.push(error);
      return jsonReply(status, { error, error_description: description });
    };
    const parsed = readTokenRequest(request);
    if (!parsed) return refuse(400, 'invalid_request', 'Invalid Content-Type');
    tokenAuthMethods.push(parsed.authMethod);
    if (parsed.clientId !== options.clientId || parsed.clientSecret !== options.clientSecret || parsed.authMethod === 'multiple') {
      return refuse(401, 'invalid_client', 'Unauthorized');
    }
    if (parsed.params.get('grant_type') !== 'authorization_code') return refuse(400, 'unsupported_grant_type', 'Invalid grant_type');
    const redemption = codes.redeem({
      code: parsed.params.get('code'),
      clientId: parsed.clientId,
      redirectUri: parsed.params.get('redirect_uri'),
      codeVerifier: parsed.params.get('code_verifier'),
    });
    if ('problem' in redemption) return refuse(...REDEMPTION_ERRORS[redemption.problem]);
    const accessToken = `ya29.${randomBytes(24).toString('base64url')}`;
    return jsonReply(
      200,
      {
        access_token: accessToken,
        expires_in: 3599,
        scope: 'openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/userinfo.profile',
        token_type: 'Bearer',
        id_token: await idToken(redemption.grant.user, redemption.grant.nonce, accessToken),
      },
      { 'cache-control': 'no-cache, no-store, max-age=0, must-revalidate', pragma: 'no-cache' },
    );
  }

  const server = await startLoopbackServer(async (request) => {
    const path = request.url.pathname;
    if (request.method === 'GET' && path === '/.well-known/openid-configuration') {
      return jsonReply(200, {
        issuer,
        authorization_endpoint: `${issuer}/o/oauth2/v2/auth`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/oauth2/v3/certs`,
        response_types_supported: [
          'code',
          'token',
          'id_token',
          'code token',
          'code id_token',
          'token id_token',
          'code token id_token',
          'none',
        ],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['RS256'],
        scopes_supported: ['openid', 'email', 'profile'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
        claims_supported: ['aud', 'email', 'email_verified', 'exp', 'iat', 'iss', 'name', 'sub'],
        code_challenge_methods_supported: ['plain', 'S256'],
        grant_types_supported: ['authorization_code', 'refresh_token'],
      });
    }
    if (request.method === 'GET' && path === '/o/oauth2/v2/auth') {
      return authorize(request, {
        clientId: options.clientId,
        codes,
        requireNonce: true,
        user: (email) => (email === undefined ? users[0] : users.find((candidate) => candidate.email === email)),
        denial: { error: 'access_denied' },
      });
    }
    if (request.method === 'POST' && path === '/token') return token(request);
    if (request.method === 'GET' && path === '/oauth2/v3/certs') return jsonReply(200, { keys: [publicJwk] });
    return jsonReply(404, { error: 'not_found' });
  });
  issuer = server.url;

  return {
    url: server.url,
    issuer,
    authorizeUrl: `${issuer}/o/oauth2/v2/auth`,
    tokenUrl: `${issuer}/token`,
    jwksUrl: `${issuer}/oauth2/v3/certs`,
    tokenErrors,
    tokenAuthMethods,
    approve: (authorizationUrl, asUser) => consent(authorizationUrl, { asUser }),
    deny: (authorizationUrl) => consent(authorizationUrl, { deny: true }),
    setFailure: (next) => {
      failure = next;
    },
    close: () => server.close(),
  };
}
