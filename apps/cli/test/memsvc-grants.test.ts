import { createMemoryEngine, systemClock, toTenantId } from '@memsvc/core';
import { DisabledEmbedder } from '@memsvc/embeddings';

import { beforeAll, describe, expect, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { cliWorkspace, openTestStore } from './support/cli-engines.js';
import type { Run } from './support/run-executable.js';
import { runInProcess } from './support/run-in-process.js';

const { workDir, engines } = cliWorkspace('memsvc-grants');

/** The JSON value a `--json` command prints as the last line of stdout. */
function lastJsonLine<T>(run: Run): T {
  const lines = run.stdout.trimEnd().split('\n');
  return JSON.parse(lines[lines.length - 1] ?? '') as T;
}

describe('memsvc grants: arguments', () => {
  const memsvc = (args: string[]) => runInProcess('memsvc', args, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, workDir);

  it('exits 2 naming the flag for a bad or missing one, before opening the database', async () => {
    const cases: [string[], RegExp][] = [
      [['grants', 'create', '--space', 'team', '--user', 'bob'], /required option '--owner <userId>' not specified/],
      [['grants', 'create', '--owner', 'alice', '--space', 'team'], /name exactly one grantee: --user, --org or --key/],
      [['grants', 'create', '--owner', 'alice', '--space', 'team', '--user', 'bob', '--org', 'x'], /name exactly one grantee/],
      [
        ['grants', 'create', '--owner', 'alice', '--space', 'team', '--user', 'bob', '--access', 'write'],
        /--access must be read or read-write/,
      ],
      [['grants', 'create', '--owner', 'alice', '--space', 'team', '--user', 'bob', '--expires', 'soon'], /--expires must be an ISO 8601/],
      [['grants', 'revoke', 'some-id'], /required option '--owner <userId>' not specified/],
      [['grants', 'list'], /required option '--user <userId>' not specified/],
    ];
    for (const [args, message] of cases) {
      const run = await memsvc(args);
      expect([run.code, run.stderr], args.join(' ')).toEqual([2, expect.stringMatching(message)]);
    }
  });
});

for (const engine of engines) {
  describe(`memsvc grants [${engine.name}]`, () => {
    let databaseUrl = '';
    const memsvc = (args: string[]) => runInProcess('memsvc', args, { DATABASE_URL: databaseUrl }, workDir);

    beforeAll(async () => {
      databaseUrl = await engine.url();
      // Alice and bob are known users: each has a memory.
      const store = await openTestStore({ database: databaseUrl, pool: { maxConnections: 1 } });
      try {
        const memories = createMemoryEngine({
          store: store.memories,
          embedder: new DisabledEmbedder(),
          clock: systemClock,
          grants: store.grants,
          erasures: store.erasures,
        });
        for (const user of ['alice', 'bob']) {
          await memories.create(
            { tenant: toTenantId(user), actor: { id: `user:${user}` } },
            { tier: 'ltm', content: `${user} was here`, scope: 'team' },
          );
        }
      } finally {
        await store.close();
      }
    });

    it('shares a space, lists it on both sides, refuses a bad grant without writing, and revokes', async () => {
      const created = await memsvc([
        'grants',
        'create',
        '--owner',
        'alice',
        '--space',
        'team',
        '--user',
        'bob',
        '--access',
        'read-write',
        '--json',
      ]);
      expect(created.code, created.stderr).toBe(0);
      const grant = lastJsonLine<{ id: string; owner: string; space: string; access: string; grantedBy: string }>(created);
      expect(grant).toMatchObject({ owner: 'alice', space: 'team', access: 'read-write', grantedBy: 'operator:cli' });

      const text = await memsvc(['grants', 'list', '--user', 'bob']);
      expect(text.stdout).toMatch(/received:\n.*OWNER.*\n.*alice\s+team\s+user bob\s+read-write/);
      const listed = lastJsonLine<{ given: unknown[]; received: { id: string }[] }>(
        await memsvc(['grants', 'list', '--user', 'bob', '--json']),
      );
      expect(listed).toEqual({ given: [], received: [expect.objectContaining({ id: grant.id })] });

      for (const [args, code] of [
        [['grants', 'create', '--owner', 'alice', '--space', 'team', '--user', 'alice'], 'INVALID_INPUT'],
        [['grants', 'create', '--owner', 'alice', '--space', 'team', '--user', 'bob', '--expires', '2001-01-01'], 'INVALID_INPUT'],
      ] as const) {
        const refused = await memsvc([...args]);
        expect(refused.code, args.join(' ')).not.toBe(0);
        expect(refused.stderr).toContain(code);
      }
      expect(lastJsonLine<{ given: unknown[] }>(await memsvc(['grants', 'list', '--user', 'alice', '--json'])).given).toHaveLength(1);

      // A user id nobody has yet is granted as the tools grant it (R-GRANT-NO-ENUMERATION); the operator is warned.
      const unknown = await memsvc(['grants', 'create', '--owner', 'alice', '--space', 'team', '--user', 'nobody', '--json']);
      expect(unknown.code, unknown.stderr).toBe(0);
      expect(lastJsonLine<{ grantee: unknown }>(unknown).grantee).toEqual({ kind: 'user', id: 'nobody' });
      expect(unknown.stderr).toContain('warning: no user "nobody" is known to memsvc yet');
      // There is no sign-up: the warning says how a user comes to exist (docs/team.md makes keys first).
      expect(unknown.stderr).toContain('a user comes to exist with its first API key (`memsvc keys create --user nobody --name …`)');
      expect(created.stderr).not.toContain('warning');
      const ended = lastJsonLine<{ id: string }>(unknown);
      expect((await memsvc(['grants', 'revoke', ended.id, '--owner', 'alice'])).code).toBe(0);

      expect((await memsvc(['grants', 'revoke', grant.id, '--owner', 'bob'])).stderr).toContain('NOT_FOUND');
      const revoked = await memsvc(['grants', 'revoke', grant.id, '--owner', 'alice']);
      expect(revoked.stdout).toContain(`revoked grant ${grant.id}`);
      expect(lastJsonLine<{ received: unknown[] }>(await memsvc(['grants', 'list', '--user', 'bob', '--json'])).received).toEqual([]);
    });
  });
}
