import { createHash } from 'node:crypto';
import { Secret } from '@memsvc/access';
import { isMemsvcError, MemsvcError } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { calculatePKCECodeChallenge } from 'oauth4webapi';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifies } from '../../../core/test/requirements.js';
import { githubClient } from '../../src/oauth/github-client.js';
import { LoginFlow } from '../../src/oauth/login-flow.js';
import { isLoginRefused } from '../../src/oauth/login-refused.js';
import { OAUTH_CONSENT_RESUME_PATH } from '../../src/oauth-server/server-metadata.js';
import { InMemoryOAuthStateStore } from './support/in-memory-oauth-state-store.js';
import { InMemoryUserIdentityStore } from './support/in-memory-user-identity-store.js';
import { BROWSER, type LoginHarness, rejectionOf, startLoginHarness } from './support/login-harness.js';
import { recordingSessionIssuer } from './support/recording-session-issuer.js';

const sha256hex = (text: string) => createHash('sha256').update(text).digest('hex');

describe('LoginFlow', () => {
  let harness: LoginHarness;
  beforeEach(async () => {
    harness = await startLoginHarness();
  });
  afterEach(() => harness.close());

  it('offers the configured providers, in order', () => {
    expect(harness.flow.enabledProviders()).toEqual(['github', 'google']);
  });

  it('stores only the hash of the state, with the PKCE verifier whose challenge the URL carries, for 600 s', async () => {
    const { authorizationUrl } = await harness.flow.start('github');
    const url = new URL(authorizationUrl);
    const state = url.searchParams.get('state') ?? '';
    expect(Buffer.from(state, 'base64url')).toHaveLength(32);
    expect(url.searchParams.get('redirect_uri')).toBe('https://memsvc.example.com/auth/github/callback');

    expect([...harness.states.rows.keys()]).toEqual([sha256hex(state)]);
    const row = harness.states.rows.get(sha256hex(state));
    expect(row?.login).toMatchObject({ provider: 'github', redirectTo: null });
    expect(url.searchParams.get('code_challenge')).toBe(await calculatePKCECodeChallenge(row?.login.codeVerifier ?? ''));
    expect(url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(row?.expiresAt).toEqual(new Date(harness.clock.now().getTime() + 600_000));
  });

  it('derives the OIDC nonce from the state, so it needs no storage', async () => {
    const url = new URL((await harness.flow.start('google')).authorizationUrl);
    const state = url.searchParams.get('state') ?? '';
    expect(url.searchParams.get('nonce')).toBe(createHash('sha256').update(`nonce:${state}`).digest('base64url'));
    expect(url.searchParams.get('redirect_uri')).toBe('https://memsvc.example.com/auth/google/callback');
  });

  it('gives every login its own state and verifier', async () => {
    await harness.flow.start('github');
    await harness.flow.start('github');
    const [first, second] = [...harness.states.rows.values()];
    expect(harness.states.rows.size).toBe(2);
    expect(first?.login.codeVerifier).not.toBe(second?.login.codeVerifier);
  });

  it(
    verifies('OAUTH-CONSENT-SIGN-IN', 'a login that returns to the consent page issues a consent sign-in, any other a session'),
    async () => {
      const { authorizationUrl } = await harness.flow.start('github', { redirectTo: OAUTH_CONSENT_RESUME_PATH });
      const forConsent = await harness.flow.finishLogin('github', (await harness.github.approve(authorizationUrl)).searchParams, BROWSER);
      expect(forConsent.redirectTo).toBe(OAUTH_CONSENT_RESUME_PATH);
      await harness.flow.finish('github', await harness.approvedCallback('github'), BROWSER);
      expect(harness.sessions.map((call) => call.subject.purpose)).toEqual(['consent-sign-in', undefined]);
    },
  );

  it('refuses a state that was already used, and issues one session only', async () => {
    const callback = await harness.approvedCallback('github');
    await harness.flow.finish('github', callback, BROWSER);
    const error = await rejectionOf(harness.flow.finish('github', callback, BROWSER));
    expect(error).toMatchObject({ reason: 'unknown-state', status: 401 });
    expect(harness.sessions).toHaveLength(1);
  });

  it('accepts a callback until the state TTL passes, and refuses it from then on', async () => {
    const inTime = await harness.approvedCallback('github');
    harness.clock.advance(599_999);
    await expect(harness.flow.finish('github', inTime, BROWSER)).resolves.toMatchObject({ userId: 'octocat@example.com' });

    const late = await harness.approvedCallback('github');
    harness.clock.advance(600_000);
    expect(await rejectionOf(harness.flow.finish('github', late, BROWSER))).toMatchObject({ reason: 'unknown-state', status: 401 });
    expect(harness.github.tokenErrors).toEqual([]);
  });

  it('refuses a state that was never issued, or was issued for the other provider', async () => {
    const forged = new URLSearchParams({ code: 'abc', state: 'made-up-state' });
    expect(await rejectionOf(harness.flow.finish('github', forged, BROWSER))).toMatchObject({ reason: 'unknown-state' });
    const githubCallback = await harness.approvedCallback('github');
    expect(await rejectionOf(harness.flow.finish('google', githubCallback, BROWSER))).toMatchObject({ reason: 'unknown-state' });
  });

  it('refuses a callback without a state or without a code as invalid-callback, leaving the state usable', async () => {
    const callback = await harness.approvedCallback('github');
    const withoutState = new URLSearchParams(callback);
    withoutState.delete('state');
    const withoutCode = new URLSearchParams(callback);
    withoutCode.delete('code');
    expect(await rejectionOf(harness.flow.finish('github', withoutState, BROWSER))).toMatchObject({
      reason: 'invalid-callback',
      status: 401,
    });
    expect(await rejectionOf(harness.flow.finish('github', withoutCode, BROWSER))).toMatchObject({
      reason: 'invalid-callback',
      status: 401,
    });
    expect(await rejectionOf(harness.flow.finish('github', { code: '', state: callback.get('state') ?? '' }, BROWSER))).toMatchObject({
      reason: 'invalid-callback',
    });
    await expect(harness.flow.finish('github', callback, BROWSER)).resolves.toMatchObject({ userId: 'octocat@example.com' });
  });

  it('refuses the callback of a person who cancelled at the provider as provider-denied', async () => {
    for (const provider of ['github', 'google'] as const) {
      const { authorizationUrl } = await harness.flow.start(provider);
      const fake = provider === 'github' ? harness.github : harness.google;
      const callback = (await fake.deny(authorizationUrl)).searchParams;
      expect(callback.get('error')).toBe('access_denied');
      expect(await rejectionOf(harness.flow.finish(provider, callback, BROWSER))).toMatchObject({ reason: 'provider-denied', status: 401 });
    }
    expect(harness.sessions).toEqual([]);
  });

  it('takes the callback as a plain record too (a framework’s parsed query)', async () => {
    const callback = Object.fromEntries(await harness.approvedCallback('github'));
    await expect(harness.flow.finish('github', callback, BROWSER)).resolves.toMatchObject({ userId: 'octocat@example.com' });
  });

  it('keeps the user id an account was first linked to', async () => {
    await harness.flow.finish('github', await harness.approvedCallback('github'), BROWSER);
    await harness.flow.finish('github', await harness.approvedCallback('github'), BROWSER);
    expect(harness.sessions.map((call) => call.subject.userId)).toEqual(['octocat@example.com', 'octocat@example.com']);
    expect(harness.identities.logins.map((login) => login.at)).toEqual([harness.clock.now(), harness.clock.now()]);
  });
});

describe('LoginFlow and the link of an account', () => {
  // One GitHub account (id 9001) before and after its verified email changed, and Google's new Bob.
  const BOB = 'bob@corp.example';
  let harness: LoginHarness;
  beforeEach(async () => {
    harness = await startLoginHarness({
      githubUsers: [
        { id: 9001, login: 'old-bob', emails: [{ email: BOB, primary: true, verified: true }] },
        { id: 9001, login: 'old-bob-later', emails: [{ email: 'bob@personal.example', primary: true, verified: true }] },
      ],
      googleUsers: [{ sub: '2002', email: BOB, email_verified: true }],
    });
  });
  afterEach(() => harness.close());

  it('R-IDENTITY-EMAIL: refuses a linked account whose verified email changed with 403 and a message for the person, and issues no session', async () => {
    await harness.flow.finish('github', await harness.approvedCallback('github', 'old-bob'), BROWSER);
    await harness.flow.finish('google', await harness.approvedCallback('google', BOB), BROWSER);
    const refused = await rejectionOf(harness.flow.finish('github', await harness.approvedCallback('github', 'old-bob-later'), BROWSER));
    expect(isLoginRefused(refused, 'identity-email-changed')).toBe(true);
    expect(refused).toMatchObject({ status: 403, message: expect.stringMatching(/ask the operator/i) });
    expect(refused.message).not.toContain(BOB);
    expect(harness.sessions.map((call) => `${call.subject.origin}:${call.subject.userId}`)).toEqual([`github:${BOB}`, `google:${BOB}`]);
  });

  it('R-IDENTITY-BLOCKED: refuses a blocked account with 403, and lets it in again once unblocked', async () => {
    await harness.flow.finish('github', await harness.approvedCallback('github', 'old-bob'), BROWSER);
    await harness.identities.setBlocked({ provider: 'github', providerUserId: '9001' }, true, harness.clock.now());
    const refused = await rejectionOf(harness.flow.finish('github', await harness.approvedCallback('github', 'old-bob'), BROWSER));
    expect(refused).toMatchObject({ reason: 'identity-blocked', status: 403 });
    await harness.identities.setBlocked({ provider: 'github', providerUserId: '9001' }, false, harness.clock.now());
    await expect(harness.flow.finish('github', await harness.approvedCallback('github', 'old-bob'), BROWSER)).resolves.toMatchObject({
      userId: BOB,
    });
    expect(harness.sessions).toHaveLength(2);
  });
});

describe('LoginFlow configuration', () => {
  const base = {
    states: new InMemoryOAuthStateStore(),
    identities: new InMemoryUserIdentityStore(),
    issueSession: recordingSessionIssuer().issue,
    clock: new ManualClock(),
    redirectBaseUrl: 'https://memsvc.example.com',
    adminEmails: [],
  };
  const github = githubClient({ clientId: 'id', clientSecret: new Secret('secret') });

  it('answers NOT_FOUND for a provider that is not enabled, without echoing the name', async () => {
    const flow = new LoginFlow({ ...base, providers: [github] });
    expect(flow.enabledProviders()).toEqual(['github']);
    for (const attempt of [flow.start('google'), flow.finish('google', { code: 'c', state: 's' }, BROWSER), flow.start('<script>')]) {
      const error = await rejectionOf(attempt);
      expect(isMemsvcError(error, 'NOT_FOUND')).toBe(true);
      expect(error.message).not.toContain('google');
      expect((error as MemsvcError).data).toEqual({ enabled: ['github'] });
    }
  });

  it('refuses a client filed under another provider, a relative redirect base URL, and a non-positive TTL', () => {
    const invalid = (options: Partial<ConstructorParameters<typeof LoginFlow>[0]>) => {
      try {
        new LoginFlow({ ...base, providers: [github], ...options });
      } catch (error) {
        return isMemsvcError(error, 'INVALID_CONFIG');
      }
      return false;
    };
    expect(invalid({ providers: new Map([['google', github]]) })).toBe(true);
    expect(invalid({ providers: [github, github] })).toBe(true);
    expect(invalid({ redirectBaseUrl: '/relative' })).toBe(true);
    expect(invalid({ redirectBaseUrl: 'ftp://memsvc.example.com' })).toBe(true);
    expect(invalid({ stateTtlSeconds: 0 })).toBe(true);
    expect(invalid({ providers: new Map([['github', github]]) })).toBe(false);
  });

  it('tells a refusal from other errors', () => {
    expect(isLoginRefused(new MemsvcError('NOT_FOUND', 'x'))).toBe(false);
  });
});
