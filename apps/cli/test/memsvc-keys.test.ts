import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { hashApiKey, looksLikeApiKey } from '@memsvc/auth';
import { describe, expect, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { cliWorkspace, openTestStore } from './support/cli-engines.js';
import type { Run } from './support/run-executable.js';
import { runInProcess } from './support/run-in-process.js';

const { workDir, engines } = cliWorkspace('memsvc-keys');

/** The JSON object a `--json` command prints as the last line of stdout. */
function lastJsonLine<T>(run: Run): T {
  const lines = run.stdout.trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '') as T;
}

interface KeyJson {
  id: string;
  key?: string;
  prefix: string;
  name: string;
  userId: string;
  organizationId: string | null;
  scopes: string[];
  expiresAt: string | null;
  revokedAt: string | null;
  state?: string;
}

describe('memsvc keys and orgs: flags', () => {
  // Flags are checked before configuration is read or a database opened.
  const memsvc = (args: string[]) => runInProcess('memsvc', args, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, workDir);

  it('exits 2 naming the flag for bad or missing flags, before opening the database', async () => {
    const cases: [string[], RegExp][] = [
      [['keys', 'create', '--name', 'x'], /--user is required on the standard profile/],
      [
        ['keys', 'create', '--user', 'alice', '--name', 'x', '--expires-in-days', '1.5'],
        /--expires-in-days must be a whole number of days from 1 to 3650/,
      ],
      [
        ['keys', 'create', '--user', 'alice', '--name', 'x', '--expires-in-days', '3651'],
        /--expires-in-days must be a whole number of days from 1 to 3650/,
      ],
      [
        ['keys', 'create', '--user', 'alice', '--name', 'x', '--scopes', 'memories:read,root'],
        /--scopes: unknown scope "root"; allowed: memories:read, memories:write, memories:delete, keys:manage, admin/,
      ],
      [['keys', 'create', '--user', 'alice', '--name', '   '], /--name must be 1 to 100 characters long/],
      [['keys', 'create', '--user', 'al ice', '--name', 'x'], /--user may contain letters/],
      [['keys', 'create', '--user', 'alice', '--name', 'x', '--org', 'acme'], /--org must be an organization id/],
      [['keys', 'list', '--user', ''], /--user must be 1 to 128 characters/],
      [['orgs', 'add-member', 'acme', '--user', 'bob', '--role', 'admin'], /<orgId> must be an organization id/],
      [
        ['orgs', 'add-member', '0196a0d4-0000-7000-8000-000000000000', '--user', 'bob', '--role', 'root'],
        /--role must be one of: owner, admin, member/,
      ],
      [['orgs', 'create', '--name', '日本'], /pass --slug/],
    ];
    const runs = await Promise.all(cases.map(([args]) => memsvc(args)));
    runs.forEach((run, index) => {
      const [args, message] = cases[index] ?? [[], /./];
      expect([run.code, run.stderr], args.join(' ')).toEqual([2, expect.stringMatching(message)]);
      expect(run.stderr).not.toMatch(/DATABASE_UNREACHABLE|\n\s+at /);
    });
  });
});

describe('memsvc keys create on the lite profile', () => {
  it('AUTH-KEYS-LITE: is refused before a key is minted or the database is opened', async () => {
    const directory = join(workDir, 'lite-keys');
    const env = { DATABASE_URL: `pglite://${directory}`, DEPLOYMENT_PROFILE: 'lite', EMBEDDING_PROVIDER: 'local' };
    const run = await runInProcess('memsvc', ['keys', 'create', '--user', 'alice', '--name', 'laptop', '--json'], env, workDir);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/lite profile accepts no per-agent API keys/);
    expect(run.stdout).not.toMatch(/msk_/);
    expect(existsSync(directory)).toBe(false);
  });

  it('without --user says what lite lacks (keys), not that a flag is missing', async () => {
    const directory = join(workDir, 'lite-keys-no-user');
    const env = { DATABASE_URL: `pglite://${directory}`, DEPLOYMENT_PROFILE: 'lite', EMBEDDING_PROVIDER: 'local' };
    const run = await runInProcess('memsvc', ['keys', 'create', '--name', 'laptop'], env, workDir);
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/lite profile accepts no per-agent API keys/);
    expect(run.stderr).not.toMatch(/--user/);
    expect(existsSync(directory)).toBe(false);
  });
});

for (const engine of engines) {
  describe(`memsvc keys and orgs [${engine.name}]`, () => {
    let databaseUrl = '';
    const memsvc = async (args: string[]) => {
      databaseUrl ||= await engine.url();
      return runInProcess('memsvc', args, { DATABASE_URL: databaseUrl }, workDir);
    };
    let created: KeyJson;

    it('keys create prints the key once (JSON on the last line, read and write by default), and only its hash is stored', async () => {
      const json = await memsvc(['keys', 'create', '--user', 'alice', '--name', 'ci agent', '--expires-in-days', '30', '--json']);
      expect(json.code).toBe(0);
      expect(json.stderr).toMatch(/only time the key is shown: memsvc stores only its hash/);
      created = lastJsonLine<KeyJson>(json);
      expect(created).toMatchObject({
        userId: 'alice',
        name: 'ci agent',
        organizationId: null,
        scopes: ['memories:read', 'memories:write'],
      });
      expect(looksLikeApiKey(created.key ?? '')).toBe(true);
      expect(created.prefix).toBe(created.key?.slice(0, 12));
      expect(Date.parse(created.expiresAt ?? '') - Date.now()).toBeGreaterThan(29.9 * 86_400_000);

      const text = await memsvc(['keys', 'create', '--user', 'bob', '--name', 'reader', '--scopes', 'memories:read']);
      expect(text.code).toBe(0);
      expect(text.stdout).toMatch(
        /Created API key \S+ for bob\n[\s\S]*scopes {3}memories:read\n[\s\S]*expires {2}never\n\n {2}msk_[A-Za-z0-9_-]{43}\n\nThis is the only time the key is shown/,
      );

      const store = await openTestStore({ database: databaseUrl, pool: { maxConnections: 1 } });
      try {
        const found = await store.apiKeys.findUsable(hashApiKey(created.key ?? ''), new Date());
        expect(found?.id).toBe(created.id);
        const stored = await store.connection.db.selectFrom('api_keys').selectAll().where('id', '=', created.id).executeTakeFirstOrThrow();
        expect(JSON.stringify(stored)).not.toContain(created.key ?? '');
      } finally {
        await store.close();
      }
    });

    it('keys list shows the keys, newest first, per user, and never a key or a hash', async () => {
      const all = await memsvc(['keys', 'list']);
      expect(all.code).toBe(0);
      const [header, ...rows] = all.stdout.trimEnd().split('\n');
      expect(header).toMatch(/^ID +PREFIX +NAME +USER +ORG +SCOPES +CREATED +EXPIRES +LAST USED +REVOKED$/);
      expect(rows.map((row) => row.split(/ {2,}/)[3])).toEqual(['bob', 'alice']);
      expect(rows[1]).toContain(created.prefix);
      for (const secret of [created.key ?? '', hashApiKey(created.key ?? '')]) expect(all.stdout).not.toContain(secret);

      const alices = lastJsonLine<KeyJson[]>(await memsvc(['keys', 'list', '--user', 'alice', '--json']));
      expect(alices.map((key) => [key.id, key.state])).toEqual([[created.id, 'active']]);
      expect(Object.keys(alices[0] ?? {})).not.toContain('key');
      expect((await memsvc(['keys', 'list', '--user', 'carol'])).stdout).toBe('no API keys for carol\n');
    });

    it('keys revoke says so and exits 0, again as well; an unknown id exits 1', async () => {
      const revoke = await memsvc(['keys', 'revoke', created.id]);
      expect([revoke.code, revoke.stdout]).toEqual([0, expect.stringMatching(/^revoked API key .*"ci agent", user alice/)]);
      const again = await memsvc(['keys', 'revoke', created.id]);
      expect([again.code, again.stdout]).toEqual([0, expect.stringMatching(/was already revoked at /)]);
      const unknown = await memsvc(['keys', 'revoke', '0196a0d4-0000-7000-8000-000000000000']);
      expect([unknown.code, unknown.stderr]).toEqual([
        1,
        expect.stringMatching(/no API key with id "0196a0d4-0000-7000-8000-000000000000".*\[NOT_FOUND\]/),
      ]);
      const [listed] = lastJsonLine<KeyJson[]>(await memsvc(['keys', 'list', '--user', 'alice', '--json']));
      expect(listed).toMatchObject({ id: created.id, state: 'revoked', revokedAt: expect.any(String) });
    });

    it('keys revoke --user revokes every key of that user at once; an id and --user together exit 2', async () => {
      const made = [
        lastJsonLine<KeyJson>(await memsvc(['keys', 'create', '--user', 'frank', '--name', 'one', '--json'])),
        lastJsonLine<KeyJson>(await memsvc(['keys', 'create', '--user', 'frank', '--name', 'two', '--json'])),
        lastJsonLine<KeyJson>(await memsvc(['keys', 'create', '--user', 'gina', '--name', 'other', '--json'])),
      ];
      const all = await memsvc(['keys', 'revoke', '--user', 'frank']);
      expect([all.code, all.stdout]).toEqual([0, 'revoked 2 API keys of frank: they are refused from now on\n']);
      const states = async (user: string) =>
        lastJsonLine<KeyJson[]>(await memsvc(['keys', 'list', '--user', user, '--json'])).map((key) => key.state);
      expect(await states('frank')).toEqual(['revoked', 'revoked']);
      expect(await states('gina')).toEqual(['active']);
      const both = await memsvc(['keys', 'revoke', made[2]?.id ?? '', '--user', 'gina']);
      expect([both.code, both.stderr]).toEqual([2, expect.stringContaining('either a key id or --user')]);
      expect(await states('gina')).toEqual(['active']);
    });

    it("sessions list shows a user's live sessions and sessions revoke ends them all, nobody else's", async () => {
      const store = await openTestStore({ database: databaseUrl, pool: { maxConnections: 1 } });
      const inAnHour = new Date(Date.now() + 3_600_000);
      try {
        for (const [user, jti] of [
          ['dora', 'jti-dora-1'],
          ['dora', 'jti-dora-2'],
          ['erin', 'jti-erin-1'],
        ] as const) {
          await store.sessions.create({ userId: user as never, jti, expiresAt: inAnHour, userAgent: 'curl/8', ipAddress: '203.0.113.9' });
        }
      } finally {
        await store.close();
      }
      const listed = await memsvc(['sessions', 'list', '--user', 'dora']);
      expect(listed.stdout).toMatch(/^ID +CREATED +EXPIRES +REVOKED +IP +USER AGENT\n/);
      expect(listed.stdout.match(/203\.0\.113\.9 +curl\/8/g)).toHaveLength(2);
      expect(listed.stdout).not.toContain('jti-dora');
      const ended = await memsvc(['sessions', 'revoke', '--user', 'dora']);
      expect([ended.code, ended.stdout]).toEqual([0, 'ended 2 sessions of dora: their tokens are refused from now on\n']);
      expect((await memsvc(['sessions', 'revoke', '--user', 'dora'])).stdout).toMatch(/^ended 0 sessions of dora/);
      const json = lastJsonLine<{ revokedAt: string | null }[]>(await memsvc(['sessions', 'list', '--user', 'dora', '--json']));
      expect(json.map((session) => session.revokedAt === null)).toEqual([false, false]);
      const erins = lastJsonLine<{ revokedAt: string | null }[]>(await memsvc(['sessions', 'list', '--user', 'erin', '--json']));
      expect(erins).toEqual([expect.objectContaining({ revokedAt: null })]);
      const again = await openTestStore({ database: databaseUrl, pool: { maxConnections: 1 } });
      try {
        expect(await again.sessions.isDenied('jti-dora-1', new Date())).toBe(true);
        expect(await again.sessions.isDenied('jti-erin-1', new Date())).toBe(false);
      } finally {
        await again.close();
      }
      expect((await memsvc(['sessions', 'list', '--user', 'nobody'])).stdout).toBe('no live sessions for nobody\n');
    });

    let organization: { id: string; slug: string; owner: string };

    it('orgs create (with its owner), add-member, members and list; a taken slug exits 1', async () => {
      organization = lastJsonLine<{ id: string; slug: string; owner: string }>(
        await memsvc(['orgs', 'create', '--name', 'Acme Robotics', '--owner', 'alice', '--json']),
      );
      expect(organization).toMatchObject({ slug: 'acme-robotics', owner: 'alice' });
      const added = await memsvc(['orgs', 'add-member', organization.id, '--user', 'bob', '--role', 'member']);
      expect([added.code, added.stdout]).toEqual([0, `bob is member of organization ${organization.id}\n`]);
      const members = lastJsonLine<{ userId: string; role: string }[]>(await memsvc(['orgs', 'members', organization.id, '--json']));
      expect(members.map((member) => `${member.userId}:${member.role}`)).toEqual(['alice:owner', 'bob:member']);
      const orgs = await memsvc(['orgs', 'list']);
      expect(orgs.stdout).toMatch(new RegExp(`^ID +SLUG +NAME +CREATED\\n${organization.id} +acme-robotics +Acme Robotics +\\d{4}-`));
      const taken = await memsvc(['orgs', 'create', '--name', 'Acme', '--slug', 'acme-robotics']);
      expect([taken.code, taken.stderr]).toEqual([1, expect.stringMatching(/slug "acme-robotics" already exists.*\[CONFLICT\]/)]);
    });

    it('a key can belong to an organization its user is a member of; an unknown one exits 1, a non-member 2', async () => {
      const key = lastJsonLine<KeyJson>(
        await memsvc(['keys', 'create', '--user', 'bob', '--name', 'acme bot', '--org', organization.id, '--json']),
      );
      expect(key.organizationId).toBe(organization.id);
      const missing = await memsvc(['keys', 'create', '--user', 'bob', '--name', 'x', '--org', '0196a0d4-0000-7000-8000-000000000000']);
      expect([missing.code, missing.stderr]).toEqual([1, expect.stringMatching(/no organization with id 0196a0d4-.*\[NOT_FOUND\]/)]);
      const outsider = await memsvc(['keys', 'create', '--user', 'carol', '--name', 'x', '--org', organization.id]);
      expect([outsider.code, outsider.stderr]).toEqual([
        2,
        expect.stringMatching(/carol is not a member of organization .*\[INVALID_INPUT\]/),
      ]);
      const unknown = await memsvc(['orgs', 'add-member', '0196a0d4-0000-7000-8000-000000000000', '--user', 'bob', '--role', 'admin']);
      expect([unknown.code, unknown.stderr]).toEqual([1, expect.stringMatching(/no organization with id 0196a0d4-.*\[NOT_FOUND\]/)]);
    });
  });
}
