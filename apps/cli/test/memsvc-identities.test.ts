import { Secret } from '@memsvc/access';
import {
  ApiKeyAuthenticator,
  githubClient,
  googleClient,
  type IssuedSession,
  isLoginRefused,
  LoginFlow,
  SessionTokens,
} from '@memsvc/auth';
import { type FakeGitHub, type FakeGoogle, startFakeGitHub, startFakeGoogle } from '@memsvc/auth/testing';
import type { TenantId } from '@memsvc/core';
import { systemClock } from '@memsvc/core';
import type { MemsvcStore } from '@memsvc/store-pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { cliWorkspace, openTestStore } from './support/cli-engines.js';
import type { Run } from './support/run-executable.js';
import { runInProcess } from './support/run-in-process.js';

const { workDir, engines } = cliWorkspace('memsvc-identities');

const BOB = 'bob@corp.example';
const GITHUB_APP = { clientId: 'Iv1.cli-app', clientSecret: 'gh-cli-secret-0b2e' };
const GOOGLE_APP = { clientId: '7-cli.apps.googleusercontent.com', clientSecret: 'GOCSPX-cli-secret-9d' };

interface IdentityJson {
  account: string;
  userId: string;
  state: string;
  email: string | null;
  pinnedAt: string | null;
  blockedAt: string | null;
}

/** The JSON value a `--json` command prints as the last line of stdout. */
function lastJsonLine<T>(run: Run): T {
  const lines = run.stdout.trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '') as T;
}

describe('memsvc identities: arguments', () => {
  // Arguments are checked before configuration is read or a database opened.
  const memsvc = (args: string[]) => runInProcess('memsvc', args, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, workDir);

  it('exits 2 naming the account or flag for a bad or missing one, before opening the database', async () => {
    const cases: [string[], RegExp][] = [
      [['identities', 'block', 'gitlab:1'], /<account> must be <provider>:<id> with a provider of github, google/],
      [['identities', 'unblock', '583231'], /<account> must be <provider>:<id>/],
      [['identities', 'unlink', 'github:'], /<account> must be 1 to 255 printable ASCII characters/],
      [['identities', 'unlink', 'github:a b'], /<account> must be 1 to 255 printable ASCII characters/],
      [['identities', 'link', 'github:1'], /required option '--user <userId>' not specified/],
      [['identities', 'link', 'github:1', '--user', 'al ice'], /--user may contain letters/],
      [['identities', 'list', '--user', ''], /--user must be 1 to 128 characters/],
      [['identities', 'block'], /missing required argument 'account'/],
    ];
    for (const [args, message] of cases) {
      const run = await memsvc(args);
      expect([run.code, run.stderr], args.join(' ')).toEqual([2, expect.stringMatching(message)]);
      expect(run.stderr).not.toMatch(/DATABASE_UNREACHABLE|\n\s+at /);
    }
  });

  it('explains each command in --help', async () => {
    const help = await memsvc(['identities', '--help']);
    expect(help.code).toBe(0);
    for (const command of ['list', 'link', 'unlink', 'block', 'unblock']) expect(help.stdout).toMatch(new RegExp(`\\n  ${command} `));
    expect((await memsvc(['identities', 'block', '--help'])).stdout).toContain('<provider>:<id> (github:583231)');
  });
});

for (const engine of engines) {
  describe(`memsvc identities [${engine.name}]`, () => {
    let databaseUrl = '';
    let github: FakeGitHub;
    let google: FakeGoogle;
    beforeAll(async () => {
      databaseUrl = await engine.url();
      // Old Bob's GitHub account (id 9001) before and after its email changed; new Bob on Google.
      github = await startFakeGitHub({
        ...GITHUB_APP,
        users: [
          { id: 9001, login: 'old-bob', emails: [{ email: BOB, primary: true, verified: true }] },
          {
            id: 9001,
            login: 'old-bob-later',
            name: 'Bob \u001b[31mred',
            emails: [{ email: 'bob@personal.example', primary: true, verified: true }],
          },
          { id: 9002, login: 'carol', emails: [{ email: 'carol@example.com', primary: true, verified: true }] },
        ],
      });
      google = await startFakeGoogle({ ...GOOGLE_APP, users: [{ sub: '2002', email: BOB, email_verified: true, name: 'New Bob' }] });
    });
    afterAll(async () => {
      await github?.close();
      await google?.close();
    });
    const memsvc = (args: string[]) => runInProcess('memsvc', args, { DATABASE_URL: databaseUrl }, workDir);

    /**
     * What a person reaches the server with, on a store opened for the moment (an embedded
     * database has one owner at a time, and the commands need it in between): the server's own
     * login flow on the loopback providers, its session tokens and its API-key check.
     */
    async function asThePerson<T>(
      action: (tools: {
        store: MemsvcStore;
        login: (provider: 'github' | 'google', asUser: string) => Promise<IssuedSession>;
        sessions: SessionTokens;
        keys: ApiKeyAuthenticator;
      }) => Promise<T>,
    ): Promise<T> {
      const store = await openTestStore({ database: databaseUrl, pool: { maxConnections: 1 } });
      const sessions = new SessionTokens({
        secret: new Secret('s'.repeat(40)),
        expiresInSeconds: 3600,
        sessions: store.sessions,
        clock: systemClock,
      });
      const loopback = { allowInsecureRequests: true };
      const flow = new LoginFlow({
        providers: [
          githubClient({
            clientId: GITHUB_APP.clientId,
            clientSecret: new Secret(GITHUB_APP.clientSecret),
            endpoints: { authorizeUrl: github.authorizeUrl, tokenUrl: github.tokenUrl, apiBaseUrl: github.apiBaseUrl },
            ...loopback,
          }),
          googleClient({
            clientId: GOOGLE_APP.clientId,
            clientSecret: new Secret(GOOGLE_APP.clientSecret),
            issuer: google.issuer,
            clock: systemClock,
            ...loopback,
          }),
        ],
        states: store.oauthStates,
        identities: store.userIdentities,
        issueSession: (subject, client) => sessions.issue(subject, client),
        clock: systemClock,
        redirectBaseUrl: 'https://memory.example.test',
        adminEmails: [],
      });
      const login = async (provider: 'github' | 'google', asUser: string) => {
        const { authorizationUrl } = await flow.start(provider);
        const callback = await (provider === 'github' ? github : google).approve(authorizationUrl, asUser);
        return flow.finish(provider, callback.searchParams, {});
      };
      const keys = new ApiKeyAuthenticator({ keys: store.apiKeys, clock: systemClock });
      try {
        return await action({ store, login, sessions, keys });
      } finally {
        await keys.flush();
        await store.close();
      }
    }
    const refusalOf = (promise: Promise<unknown>) =>
      promise.then(
        () => 'let in',
        (error: unknown) => (isLoginRefused(error) ? `${error.status} ${error.reason}` : String(error)),
      );

    it('list shows each account, its user, the email it last logged in with and what its next login meets', async () => {
      await asThePerson(async ({ login }) => {
        await login('github', 'old-bob');
        await login('google', BOB);
        await login('github', 'carol');
        expect(await refusalOf(login('github', 'old-bob-later'))).toBe('403 identity-email-changed');
      });
      const listed = await memsvc(['identities', 'list', '--user', BOB]);
      expect(listed.code).toBe(0);
      expect(listed.stdout).toMatch(/^ACCOUNT +USER +STATE +LAST EMAIL +NAME +LAST LOGIN +LINKED BY OPERATOR +BLOCKED\n/);
      expect(listed.stdout).toMatch(/\ngithub:9001 +bob@corp\.example +email-changed +bob@personal\.example +Bob \[31mred /);
      expect(listed.stdout).toMatch(/\ngoogle:2002 +bob@corp\.example +active +bob@corp\.example +New Bob /);
      expect(listed.stdout).not.toContain('carol');
      const all = lastJsonLine<IdentityJson[]>(await memsvc(['identities', 'list', '--json']));
      expect(all.map((link) => `${link.account} ${link.userId} ${link.state}`)).toEqual([
        `github:9001 ${BOB} email-changed`,
        `google:2002 ${BOB} active`,
        'github:9002 carol@example.com active',
      ]);
      expect((await memsvc(['identities', 'list', '--user', 'nobody'])).stdout).toBe('no linked accounts for nobody\n');
    });

    it('R-IDENTITY-PINNED: link pins an account to a user, and the person gets in there whatever the email', async () => {
      const linked = await memsvc(['identities', 'link', 'github:9001', '--user', 'bob@personal.example']);
      expect([linked.code, linked.stdout]).toEqual([
        0,
        'linked github:9001 to bob@personal.example (moved from bob@corp.example; ended 2 GitHub/Google sessions of bob@corp.example): ' +
          'it logs in as bob@personal.example whatever its email\n',
      ]);
      const session = await asThePerson(({ login }) => login('github', 'old-bob-later'));
      expect(session.userId).toBe('bob@personal.example');
      const [link] = lastJsonLine<IdentityJson[]>(await memsvc(['identities', 'list', '--user', 'bob@personal.example', '--json']));
      expect(link).toMatchObject({ account: 'github:9001', state: 'pinned', pinnedAt: expect.any(String) });
    });

    it('R-IDENTITY-UNLINK: unlink ends the GitHub/Google sessions of the user; the next login links by email; an unknown account exits 1', async () => {
      const token = await asThePerson(async ({ login }) => (await login('github', 'carol')).token);
      const unlinked = await memsvc(['identities', 'unlink', 'github:9002']);
      expect([unlinked.code, unlinked.stdout]).toEqual([
        0,
        // This test's login and the first test's.
        'unlinked github:9002 from carol@example.com; ended 2 GitHub/Google sessions of carol@example.com; ' +
          'its next login links it by its verified email (memsvc identities block keeps it out)\n',
      ]);
      await asThePerson(async ({ sessions, login }) => {
        expect(await sessions.verify(token)).toBeUndefined();
        expect((await login('github', 'carol')).userId).toBe('carol@example.com');
      });
      const unknown = await memsvc(['identities', 'unlink', 'google:404']);
      expect([unknown.code, unknown.stderr]).toEqual([
        1,
        'memsvc: no linked account google:404 (memsvc identities list shows them) [NOT_FOUND]\n',
      ]);
      expect((await memsvc(['identities', 'block', 'google:404'])).code).toBe(1);
    });

    it('R-IDENTITY-SHUT-OUT: the documented steps shut a person out: no key, session, GitHub or Google login gets in', async () => {
      // Bob (new Bob, on Google) has an agent key, a session exchanged for nothing but a login, and his accounts.
      const created = lastJsonLine<{ key: string }>(await memsvc(['keys', 'create', '--user', BOB, '--name', 'laptop agent', '--json']));
      const before = await asThePerson(async ({ login, keys, store }) => {
        await store.userIdentities.setBlocked({ provider: 'github', providerUserId: '9001' }, false, systemClock.now());
        await store.userIdentities.link({ provider: 'github', providerUserId: '9001' }, BOB as TenantId, systemClock.now());
        expect(await keys.authenticate(created.key)).toMatchObject({ userId: BOB });
        return [(await login('google', BOB)).token, (await login('github', 'old-bob')).token];
      });

      // docs/operations.md, "Shutting a person out", step by step.
      const accounts = lastJsonLine<IdentityJson[]>(await memsvc(['identities', 'list', '--user', BOB, '--json'])).map(
        (link) => link.account,
      );
      expect(accounts).toEqual(['github:9001', 'google:2002']);
      const blocks = [];
      for (const account of accounts) blocks.push(await memsvc(['identities', 'block', account]));
      expect(blocks.map((run) => [run.code, run.stdout])).toEqual([
        [
          0,
          expect.stringMatching(
            /^blocked github:9001 \(user bob@corp\.example\) since \S+: its logins are refused; ended 2 GitHub\/Google sessions of bob@corp\.example\n$/,
          ),
        ],
        [0, expect.stringMatching(/^blocked google:2002 \(user bob@corp\.example\) since \S+: its logins are refused\n$/)],
      ]);
      expect((await memsvc(['keys', 'revoke', '--user', BOB])).stdout).toBe(`revoked 1 API key of ${BOB}: they are refused from now on\n`);
      expect((await memsvc(['sessions', 'revoke', '--user', BOB])).stdout).toMatch(/^ended 0 sessions of bob@corp\.example/);

      await asThePerson(async ({ login, sessions, keys }) => {
        expect(await keys.authenticate(created.key)).toBeUndefined();
        for (const token of before) expect(await sessions.verify(token)).toBeUndefined();
        expect(await refusalOf(login('google', BOB))).toBe('403 identity-blocked');
        expect(await refusalOf(login('github', 'old-bob'))).toBe('403 identity-blocked');
        expect(await refusalOf(login('github', 'old-bob-later'))).toBe('403 identity-blocked');
      });

      // Unblocking lets the Google account in again; the GitHub one stays out.
      expect((await memsvc(['identities', 'unblock', 'google:2002'])).stdout).toMatch(/^unblocked google:2002 \(user bob@corp\.example\)/);
      await asThePerson(async ({ login }) => {
        expect((await login('google', BOB)).userId).toBe(BOB);
        expect(await refusalOf(login('github', 'old-bob'))).toBe('403 identity-blocked');
      });
    });
  });
}
