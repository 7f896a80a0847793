import { Secret } from '@memsvc/access';
import { ManualClock } from '@memsvc/core/testing';
import { githubClient } from '../../../src/oauth/github-client.js';
import { googleClient } from '../../../src/oauth/google-client.js';
import { LoginFlow } from '../../../src/oauth/login-flow.js';
import type { SessionClient } from '../../../src/session-subject.js';
import {
  type FakeGitHub,
  type FakeGitHubUser,
  type FakeGoogle,
  type FakeGoogleUser,
  startFakeGitHub,
  startFakeGoogle,
} from '../../../src/testing/index.js';
import { InMemoryOAuthStateStore } from './in-memory-oauth-state-store.js';
import { InMemoryUserIdentityStore } from './in-memory-user-identity-store.js';
import { recordingSessionIssuer } from './recording-session-issuer.js';

export const GITHUB_APP = { clientId: 'Iv1.memsvc-test-app', clientSecret: 'github-secret-3f9c1a7e5b' } as const;
export const GOOGLE_APP = {
  clientId: '1234567890-memsvc.apps.googleusercontent.com',
  clientSecret: 'GOCSPX-google-secret-8d2e4f',
} as const;
export const REDIRECT_BASE_URL = 'https://memsvc.example.com/';
export const BROWSER: SessionClient = { userAgent: 'Mozilla/5.0 (test)', ipAddress: '203.0.113.7' };

export interface HarnessOptions {
  readonly githubUsers?: readonly FakeGitHubUser[];
  readonly googleUsers?: readonly FakeGoogleUser[];
  readonly adminEmails?: readonly string[];
  /** Wraps the real fetch the clients use, to watch their requests. */
  readonly fetch?: typeof fetch;
}

/** A LoginFlow wired to loopback GitHub and Google fakes, in-memory stores and a recording issuer. */
export interface LoginHarness {
  readonly flow: LoginFlow;
  readonly clock: ManualClock;
  readonly states: InMemoryOAuthStateStore;
  readonly identities: InMemoryUserIdentityStore;
  readonly sessions: ReturnType<typeof recordingSessionIssuer>['calls'];
  readonly github: FakeGitHub;
  readonly google: FakeGoogle;
  /** start → the person approves at the provider → the callback's parameters. */
  approvedCallback(provider: 'github' | 'google', asUser?: string): Promise<URLSearchParams>;
  close(): Promise<void>;
}

export async function startLoginHarness(options: HarnessOptions = {}): Promise<LoginHarness> {
  // Not the wall clock: a login that passes proves every time check reads this clock.
  const clock = new ManualClock('2026-03-01T12:00:00.000Z');
  const github = await startFakeGitHub({ ...GITHUB_APP, ...(options.githubUsers ? { users: options.githubUsers } : {}) });
  const google = await startFakeGoogle({ ...GOOGLE_APP, clock, ...(options.googleUsers ? { users: options.googleUsers } : {}) });
  const states = new InMemoryOAuthStateStore();
  const identities = new InMemoryUserIdentityStore();
  const issuer = recordingSessionIssuer();
  const transport = { allowInsecureRequests: true, fetch: options.fetch };
  const flow = new LoginFlow({
    providers: [
      githubClient({
        clientId: GITHUB_APP.clientId,
        clientSecret: new Secret(GITHUB_APP.clientSecret),
        endpoints: { authorizeUrl: github.authorizeUrl, tokenUrl: github.tokenUrl, apiBaseUrl: github.apiBaseUrl },
        ...transport,
      }),
      googleClient({
        clientId: GOOGLE_APP.clientId,
        clientSecret: new Secret(GOOGLE_APP.clientSecret),
        issuer: google.issuer,
        clock,
        ...transport,
      }),
    ],
    states,
    identities,
    issueSession: issuer.issue,
    clock,
    redirectBaseUrl: REDIRECT_BASE_URL,
    adminEmails: options.adminEmails ?? [],
  });
  return {
    flow,
    clock,
    states,
    identities,
    sessions: issuer.calls,
    github,
    google,
    async approvedCallback(provider, asUser) {
      const { authorizationUrl } = await flow.start(provider);
      const fake = provider === 'github' ? github : google;
      return (await fake.approve(authorizationUrl, asUser)).searchParams;
    },
    async close() {
      await Promise.all([github.close(), google.close()]);
    },
  };
}

/** The rejection of a promise that must reject (fails the test if it resolves). */
export async function rejectionOf(promise: Promise<unknown>): Promise<Error> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof Error) return error;
    throw new Error(`rejected with a non-Error: ${String(error)}`);
  }
  throw new Error('expected a rejection, but the promise resolved');
}
