import { Secret } from '@memsvc/access';
import { ManualClock } from '@memsvc/core/testing';
import { calculatePKCECodeChallenge } from 'oauth4webapi';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { googleClient } from '../../src/oauth/google-client.js';
import type { LoginRefused } from '../../src/oauth/login-refused.js';
import { DEFAULT_GOOGLE_USER, type FakeGoogle, type FakeGoogleFailure, startFakeGoogle } from '../../src/testing/index.js';
import { BROWSER, GOOGLE_APP, type LoginHarness, rejectionOf, startLoginHarness } from './support/login-harness.js';

const GRACE = { sub: '100000000000000000042', email: 'Grace.Hopper@Example.COM', email_verified: true, name: 'Grace Hopper' };
const UNVERIFIED = { sub: '100000000000000000077', email: 'newbie@example.com', email_verified: false };

describe('Google login through LoginFlow', () => {
  let harness: LoginHarness;
  const requested: string[] = [];
  beforeEach(async () => {
    requested.length = 0;
    harness = await startLoginHarness({
      googleUsers: [DEFAULT_GOOGLE_USER, GRACE, UNVERIFIED],
      adminEmails: ['grace.hopper@example.com'],
      fetch: (input, init) => {
        requested.push(String(input));
        return fetch(input, init);
      },
    });
  });
  afterEach(() => harness.close());

  it('issues a session for the verified email of a signature-checked ID token, by our clock', async () => {
    const session = await harness.flow.finish('google', await harness.approvedCallback('google'), BROWSER);
    expect(session.userId).toBe('ada.lovelace@example.com');
    expect(harness.sessions).toEqual([
      {
        subject: {
          userId: 'ada.lovelace@example.com',
          organizationId: null,
          scopes: ['memories:read', 'memories:write', 'memories:delete', 'keys:manage'],
          origin: 'google',
        },
        client: BROWSER,
      },
    ]);
    expect(harness.identities.logins.map((login) => login.identity)).toEqual([
      { provider: 'google', providerUserId: DEFAULT_GOOGLE_USER.sub, email: 'ada.lovelace@example.com', displayName: 'Ada Lovelace' },
    ]);
    // The fake accepts either; this pins the one the client uses.
    expect(harness.google.tokenAuthMethods).toEqual(['client_secret_post']);
    expect(harness.google.tokenErrors).toEqual([]);
  });

  it('lower-cases the email and adds the admin scope for an admin email', async () => {
    const session = await harness.flow.finish('google', await harness.approvedCallback('google', GRACE.email), BROWSER);
    expect(session.userId).toBe('grace.hopper@example.com');
    expect(session.scopes).toEqual(['memories:read', 'memories:write', 'memories:delete', 'keys:manage', 'admin']);
  });

  it('fetches the discovery document once for many logins, and the keys once', async () => {
    await harness.flow.finish('google', await harness.approvedCallback('google'), BROWSER);
    await harness.flow.finish('google', await harness.approvedCallback('google'), BROWSER);
    const paths = requested.map((url) => new URL(url).pathname);
    expect(paths.filter((path) => path === '/.well-known/openid-configuration')).toHaveLength(1);
    expect(paths.filter((path) => path === '/oauth2/v3/certs')).toHaveLength(1);
    expect(paths.filter((path) => path === '/token')).toHaveLength(2);
  });

  it('refuses an account whose email Google has not verified with 403 email-unverified', async () => {
    const error = await rejectionOf(harness.flow.finish('google', await harness.approvedCallback('google', UNVERIFIED.email), BROWSER));
    expect(error).toMatchObject({ reason: 'email-unverified', status: 403 });
    expect(harness.sessions).toEqual([]);
  });

  it.each([
    ['foreign-key', 'ERR_JWS_SIGNATURE_VERIFICATION_FAILED'],
    ['wrong-audience', 'OAUTH_JWT_CLAIM_COMPARISON_FAILED'],
    ['wrong-nonce', 'OAUTH_JWT_CLAIM_COMPARISON_FAILED'],
    ['expired-id-token', 'OAUTH_JWT_TIMESTAMP_CHECK_FAILED'],
    ['token-500', 'HTTP 500'],
  ] as const)('refuses with provider-error when the provider answers %s', async (failure: FakeGoogleFailure, expectedDetail) => {
    const callback = await harness.approvedCallback('google');
    harness.google.setFailure(failure);
    const error = await rejectionOf(harness.flow.finish('google', callback, BROWSER));
    expect(error).toMatchObject({ reason: 'provider-error', status: 401 });
    expect((error as LoginRefused).detail).toContain(expectedDetail);
    expect(harness.sessions).toEqual([]);
  });
});

describe('googleClient', () => {
  let google: FakeGoogle;
  // Two clocks, so a test can put ours ahead of the provider's.
  const providerClock = new ManualClock('2026-03-01T12:00:00.000Z');
  let clock: ManualClock;
  const redirectUri = 'https://memsvc.example.com/auth/google/callback';
  beforeEach(async () => {
    clock = new ManualClock(providerClock.now());
    google = await startFakeGoogle({ ...GOOGLE_APP, clock: providerClock });
  });
  afterEach(() => google.close());

  function client(issuer = google.issuer) {
    return googleClient({
      clientId: GOOGLE_APP.clientId,
      clientSecret: new Secret(GOOGLE_APP.clientSecret),
      issuer,
      clock,
      allowInsecureRequests: true,
    });
  }

  it('asks for openid email profile with PKCE S256, the state and the nonce, at the discovered endpoint', async () => {
    const url = await client().authorizationUrl({ state: 'st', codeChallenge: 'ch', nonce: 'no', redirectUri });
    expect(url.origin + url.pathname).toBe(google.authorizeUrl);
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: GOOGLE_APP.clientId,
      redirect_uri: redirectUri,
      response_type: 'code',
      scope: 'openid email profile',
      state: 'st',
      nonce: 'no',
      code_challenge: 'ch',
      code_challenge_method: 'S256',
    });
  });

  it('refuses a discovery document whose issuer is not the configured one', async () => {
    const elsewhere = google.issuer.replace('127.0.0.1', 'localhost');
    const error = await rejectionOf(client(elsewhere).authorizationUrl({ state: 'st', codeChallenge: 'ch', nonce: 'no', redirectUri }));
    expect(error).toMatchObject({ reason: 'provider-error', detail: 'discovery: OAUTH_JSON_ATTRIBUTE_COMPARISON_FAILED' });
  });

  it('refuses an ID token whose nonce is not the one this login sent', async () => {
    const google2 = client();
    const url = await google2.authorizationUrl({
      state: 'st',
      codeChallenge: await challenge('v'.repeat(43)),
      nonce: 'nonce-of-this-login',
      redirectUri,
    });
    const code = (await google.approve(url)).searchParams.get('code') ?? '';
    const error = await rejectionOf(google2.identify({ code, codeVerifier: 'v'.repeat(43), nonce: 'nonce-of-another-login', redirectUri }));
    expect(error).toMatchObject({ reason: 'provider-error', detail: 'token exchange: OAUTH_JWT_CLAIM_COMPARISON_FAILED' });
  });

  it('refuses an ID token that has expired by our clock, though the provider has just issued it', async () => {
    const google2 = client();
    const url = await google2.authorizationUrl({ state: 'st', codeChallenge: await challenge('w'.repeat(43)), nonce: 'n', redirectUri });
    const code = (await google.approve(url)).searchParams.get('code') ?? '';
    clock.advance(2 * 3600 * 1000);
    const error = await rejectionOf(google2.identify({ code, codeVerifier: 'w'.repeat(43), nonce: 'n', redirectUri }));
    expect(error).toMatchObject({ reason: 'provider-error', detail: 'token exchange: OAUTH_JWT_TIMESTAMP_CHECK_FAILED' });
  });
});

function challenge(verifier: string): Promise<string> {
  return calculatePKCECodeChallenge(verifier);
}
