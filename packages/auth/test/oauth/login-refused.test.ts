import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isLoginRefused, type LoginRefusalReason, LoginRefused } from '../../src/oauth/login-refused.js';
import { describeFailure } from '../../src/oauth/provider-failure.js';
import type { FakeGitHubFailure, FakeGoogleFailure } from '../../src/testing/index.js';
import { BROWSER, GITHUB_APP, GOOGLE_APP, type LoginHarness, rejectionOf, startLoginHarness } from './support/login-harness.js';

describe('LoginRefused', () => {
  it.each([
    ['unknown-state', 401],
    ['provider-error', 401],
    ['provider-denied', 401],
    ['invalid-callback', 401],
    ['email-unverified', 403],
    ['identity-blocked', 403],
    ['identity-email-changed', 403],
  ] as const)('answers %s with HTTP %i and a sentence for a person', (reason: LoginRefusalReason, status) => {
    const refusal = new LoginRefused(reason, 'for the log');
    expect(refusal).toMatchObject({ name: 'LoginRefused', reason, status, detail: 'for the log' });
    expect(refusal.message).toMatch(/^[A-Z].*\.$/);
    expect(isLoginRefused(refusal, reason)).toBe(true);
  });
});

describe('describeFailure', () => {
  it('names a timeout, and copies no message or cause that could hold a token', () => {
    expect(describeFailure(new DOMException('The operation was aborted due to timeout', 'TimeoutError'))).toBe('request timed out');
    const leaky = Object.assign(new Error('unexpected body {"access_token":"gho_abc"}'), { cause: { body: { access_token: 'gho_abc' } } });
    expect(describeFailure(leaky)).toBe('Error');
    expect(describeFailure(Object.assign(new Error('x'), { code: 'OAUTH_RESPONSE_BODY_ERROR', error: 'invalid_grant', status: 400 }))).toBe(
      'OAUTH_RESPONSE_BODY_ERROR invalid_grant HTTP 400',
    );
    expect(describeFailure(Object.assign(new Error('x'), { error: 'gho_abc def' }))).toBe('Error');
  });
});

describe('refusals never reveal a code, a state, a secret or a token', () => {
  let harness: LoginHarness;
  beforeEach(async () => {
    harness = await startLoginHarness({
      githubUsers: [
        { id: 1, login: 'ok', emails: [{ email: 'ok@example.com', primary: true, verified: true }] },
        { id: 2, login: 'unverified', emails: [{ email: 'u@example.com', primary: true, verified: false }] },
      ],
      googleUsers: [
        { sub: '1', email: 'ok@example.com', email_verified: true },
        { sub: '2', email: 'u@example.com', email_verified: false },
      ],
    });
  });
  afterEach(() => harness.close());

  /** Runs one failing login and returns its error with the callback values it must not show. */
  async function failedLogin(
    provider: 'github' | 'google',
    setup: { asUser?: string; failure?: FakeGitHubFailure | FakeGoogleFailure; twice?: boolean; late?: boolean; badCode?: boolean },
  ): Promise<{ error: Error; secrets: string[] }> {
    const callback = await harness.approvedCallback(provider, setup.asUser);
    const secrets = [callback.get('code') ?? '', callback.get('state') ?? ''];
    if (setup.badCode) callback.set('code', 'tampered-code-value-123');
    if (setup.failure && provider === 'github') harness.github.setFailure(setup.failure as FakeGitHubFailure);
    if (setup.failure && provider === 'google') harness.google.setFailure(setup.failure as FakeGoogleFailure);
    if (setup.late) harness.clock.advance(601_000);
    if (setup.twice) await harness.flow.finish(provider, callback, BROWSER);
    const error = await rejectionOf(harness.flow.finish(provider, callback, BROWSER));
    harness.github.setFailure(undefined);
    harness.google.setFailure(undefined);
    return { error, secrets: setup.badCode ? [...secrets, 'tampered-code-value-123'] : secrets };
  }

  it('in the message, the detail, the string form and the JSON form of every refusal', async () => {
    const cases = [
      await failedLogin('github', { failure: 'token-500' }),
      await failedLogin('github', { failure: 'user-500' }),
      await failedLogin('github', { badCode: true }),
      await failedLogin('github', { asUser: 'unverified' }),
      await failedLogin('github', { twice: true }),
      await failedLogin('github', { late: true }),
      await failedLogin('google', { failure: 'foreign-key' }),
      await failedLogin('google', { failure: 'wrong-audience' }),
      await failedLogin('google', { failure: 'wrong-nonce' }),
      await failedLogin('google', { failure: 'expired-id-token' }),
      await failedLogin('google', { failure: 'token-500' }),
      await failedLogin('google', { badCode: true }),
      await failedLogin('google', { asUser: 'u@example.com' }),
    ];
    const reasons = new Set<string>();
    for (const { error, secrets } of cases) {
      expect(isLoginRefused(error)).toBe(true);
      reasons.add((error as LoginRefused).reason);
      // The libraries keep response bodies (tokens included) in their errors; none is attached.
      expect(error.cause).toBeUndefined();
      const shown = [error.message, (error as LoginRefused).detail ?? '', String(error), JSON.stringify(error)].join('\n');
      for (const value of [...secrets, GITHUB_APP.clientSecret, GOOGLE_APP.clientSecret]) {
        expect(value.length).toBeGreaterThan(0);
        expect(shown).not.toContain(value);
      }
      // GitHub's access tokens, Google's access tokens, and JWTs (ID tokens).
      expect(shown).not.toMatch(/gho_|ya29\.|eyJ/);
    }
    expect([...reasons].sort()).toEqual(['email-unverified', 'provider-error', 'unknown-state']);
  });
});
