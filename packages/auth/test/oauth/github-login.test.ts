import { Secret } from '@memsvc/access';
import * as oauth from 'oauth4webapi';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { githubClient } from '../../src/oauth/github-client.js';
import { LoginRefused } from '../../src/oauth/login-refused.js';
import { DEFAULT_GITHUB_USER, startFakeGitHub } from '../../src/testing/index.js';
import { BROWSER, GITHUB_APP, type LoginHarness, rejectionOf, startLoginHarness } from './support/login-harness.js';

const GRACE = {
  id: 1906,
  login: 'ghopper',
  name: null,
  emails: [
    { email: 'grace@old-employer.example', primary: true, verified: false },
    { email: 'Grace.Hopper@Example.com', primary: false, verified: true },
  ],
};
const ADMIN = { id: 1, login: 'root', name: 'Operator', emails: [{ email: 'Admin@Example.com', primary: true, verified: true }] };
const UNVERIFIED = {
  id: 77,
  login: 'newbie',
  name: 'New Person',
  emails: [{ email: 'newbie@example.com', primary: true, verified: false }],
};

describe('GitHub login through LoginFlow', () => {
  let harness: LoginHarness;
  beforeEach(async () => {
    harness = await startLoginHarness({
      githubUsers: [DEFAULT_GITHUB_USER, GRACE, UNVERIFIED, ADMIN],
      adminEmails: [' ADMIN@example.COM '],
    });
  });
  afterEach(() => harness.close());

  it('issues a session for the primary verified email, after a token exchange the fake checked for PKCE', async () => {
    const session = await harness.flow.finish('github', await harness.approvedCallback('github'), BROWSER);
    expect(session.userId).toBe('octocat@example.com');
    expect(harness.sessions).toEqual([
      {
        subject: {
          userId: 'octocat@example.com',
          organizationId: null,
          scopes: ['memories:read', 'memories:write', 'memories:delete', 'keys:manage'],
          origin: 'github',
        },
        client: BROWSER,
      },
    ]);
    expect(harness.identities.logins.map((login) => login.identity)).toEqual([
      { provider: 'github', providerUserId: '583231', email: 'octocat@example.com', displayName: 'The Octocat' },
    ]);
    expect(harness.github.tokenErrors).toEqual([]);
  });

  it('adds the admin scope when the verified email is an admin email, whatever its case', async () => {
    const session = await harness.flow.finish('github', await harness.approvedCallback('github', 'root'), BROWSER);
    expect(session.scopes).toEqual(['memories:read', 'memories:write', 'memories:delete', 'keys:manage', 'admin']);
    expect(harness.sessions[0]?.subject.origin).toBe('github');
  });

  it('uses a verified secondary address when the primary is unverified, lower-cased, and the login as display name', async () => {
    const session = await harness.flow.finish('github', await harness.approvedCallback('github', 'ghopper'), BROWSER);
    expect(session.userId).toBe('grace.hopper@example.com');
    expect(session.scopes).not.toContain('admin');
    expect(harness.identities.logins[0]?.identity).toEqual({
      provider: 'github',
      providerUserId: '1906',
      email: 'grace.hopper@example.com',
      displayName: 'ghopper',
    });
  });

  it('refuses an account without a verified email with 403 email-unverified, and issues nothing', async () => {
    const error = await rejectionOf(harness.flow.finish('github', await harness.approvedCallback('github', 'newbie'), BROWSER));
    expect(error).toBeInstanceOf(LoginRefused);
    expect(error).toMatchObject({ reason: 'email-unverified', status: 403 });
    expect(harness.sessions).toEqual([]);
    expect(harness.identities.logins).toEqual([]);
  });

  it('refuses with provider-error when the token endpoint answers 500, and the state cannot be tried again', async () => {
    const callback = await harness.approvedCallback('github');
    harness.github.setFailure('token-500');
    const error = await rejectionOf(harness.flow.finish('github', callback, BROWSER));
    expect(error).toMatchObject({ reason: 'provider-error', status: 401 });
    expect((error as LoginRefused).detail).toContain('HTTP 500');

    harness.github.setFailure(undefined);
    expect(await rejectionOf(harness.flow.finish('github', callback, BROWSER))).toMatchObject({ reason: 'unknown-state' });
  });

  it('refuses with provider-error when the user API answers 500', async () => {
    const callback = await harness.approvedCallback('github');
    harness.github.setFailure('user-500');
    const error = await rejectionOf(harness.flow.finish('github', callback, BROWSER));
    expect(error).toMatchObject({ reason: 'provider-error', status: 401 });
    expect((error as LoginRefused).detail).toBe('GET /user answered HTTP 500');
  });

  it('treats GitHub’s HTTP 200 error body for a bad code as provider-error', async () => {
    const callback = await harness.approvedCallback('github');
    callback.set('code', 'not-a-code-github-gave');
    const error = await rejectionOf(harness.flow.finish('github', callback, BROWSER));
    expect(error).toMatchObject({ reason: 'provider-error' });
    expect((error as LoginRefused).detail).toBe('token exchange: GitHub refused the code (bad_verification_code)');
    expect(harness.github.tokenErrors).toEqual(['bad_verification_code']);
  });
});

describe('githubClient', () => {
  it('sends the PKCE verifier: a code exchanged with another verifier than the challenge’s is refused', async () => {
    const github = await startFakeGitHub(GITHUB_APP);
    try {
      const client = githubClient({
        clientId: GITHUB_APP.clientId,
        clientSecret: new Secret(GITHUB_APP.clientSecret),
        endpoints: { authorizeUrl: github.authorizeUrl, tokenUrl: github.tokenUrl, apiBaseUrl: github.apiBaseUrl },
        allowInsecureRequests: true,
      });
      const redirectUri = 'https://memsvc.example.com/auth/github/callback';
      const verifier = oauth.generateRandomCodeVerifier();
      const url = await client.authorizationUrl({
        state: 's',
        codeChallenge: await oauth.calculatePKCECodeChallenge(verifier),
        nonce: 'n',
        redirectUri,
      });
      expect(Object.fromEntries(url.searchParams)).toEqual({
        client_id: GITHUB_APP.clientId,
        redirect_uri: redirectUri,
        scope: 'read:user user:email',
        state: 's',
        code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
        code_challenge_method: 'S256',
      });
      const code = (await github.approve(url)).searchParams.get('code') ?? '';
      const error = await rejectionOf(client.identify({ code, codeVerifier: oauth.generateRandomCodeVerifier(), nonce: 'n', redirectUri }));
      expect(error).toMatchObject({ reason: 'provider-error' });
      expect(github.tokenErrors).toEqual(['bad_verification_code']);
    } finally {
      await github.close();
    }
  });

  it('refuses plain http endpoints unless allowed (only the loopback fakes may use them)', async () => {
    const github = await startFakeGitHub(GITHUB_APP);
    try {
      const client = githubClient({
        clientId: GITHUB_APP.clientId,
        clientSecret: new Secret(GITHUB_APP.clientSecret),
        endpoints: { authorizeUrl: github.authorizeUrl, tokenUrl: github.tokenUrl, apiBaseUrl: github.apiBaseUrl },
      });
      const error = await rejectionOf(
        client.identify({ code: 'c', codeVerifier: 'v'.repeat(43), nonce: 'n', redirectUri: 'https://x.example/cb' }),
      );
      expect(error).toMatchObject({ reason: 'provider-error', detail: 'token exchange: OAUTH_HTTP_REQUEST_FORBIDDEN' });
      expect(github.tokenErrors).toEqual([]);
    } finally {
      await github.close();
    }
  });
});
