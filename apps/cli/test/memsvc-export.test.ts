import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { toTenantId } from '@memsvc/core';
import { updateMemory } from '@memsvc/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { cliWorkspace, openTestStore } from './support/cli-engines.js';
import { runInProcess } from './support/run-in-process.js';

const { workDir, engines } = cliWorkspace('memsvc-export');

describe('memsvc export: flags', () => {
  const memsvc = (args: string[]) => runInProcess('memsvc', args, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, workDir);

  it('exits 2 naming the flag for bad or missing flags, before opening the database', async () => {
    const cases: [string[], RegExp][] = [
      [['export'], /--user is required on the standard profile/],
      [['export', '--user', 'al ice'], /--user may contain letters/],
      [['export', '--user', 'alice', '--format', 'xml'], /--format must be one of: jsonl, markdown/],
      [['export', '--user', 'alice', '--tier', 'mid'], /--tier must be one of: stm, ltm/],
      [['export', '--user', 'alice', '--created-from', 'yesterday'], /--created-from must be an ISO 8601 date/],
      [
        ['export', '--user', 'alice', '--created-from', '2026-05-02', '--created-to', '2026-05-01'],
        /createdTo must not be before createdFrom/,
      ],
      [['export', '--user', 'alice', '--page-size', '2001'], /--page-size must be a whole number from 1 to 2000/],
    ];
    const runs = await Promise.all(cases.map(([args]) => memsvc(args)));
    runs.forEach((run, index) => {
      const [args, message] = cases[index] ?? [[], /./];
      expect([run.code, run.stderr], args.join(' ')).toEqual([2, expect.stringMatching(message)]);
      expect(run.stderr).not.toMatch(/DATABASE_UNREACHABLE|\n\s+at /);
    });
  });
});

for (const engine of engines) {
  describe(`memsvc export [${engine.name}]`, () => {
    let databaseUrl = '';
    const ids: string[] = [];
    const memsvc = (args: string[]) => runInProcess('memsvc', args, { DATABASE_URL: databaseUrl }, workDir);

    beforeAll(async () => {
      databaseUrl = await engine.url();
      const store = await openTestStore({ database: databaseUrl, pool: { maxConnections: 1 } });
      try {
        const alice = toTenantId('alice');
        const actor = { id: 'user:alice' };
        for (let i = 0; i < 25; i += 1) {
          const memory = await store.memories.insertAsGiven(
            alice,
            { tier: 'ltm', content: `fact ${i}`, tags: [i % 5 === 0 ? 'five' : 'other'], scope: 'project:x' },
            actor,
          );
          ids.push(memory.id);
        }
        await updateMemory(
          store.memories,
          alice,
          ids[0] ?? '',
          { content: 'fact 0, edited' },
          { actor, action: 'update', expectedVersion: 1 },
        );
        await store.memories.softDelete(alice, ids[1] ?? '', actor);
        await store.memories.insertAsGiven(toTenantId('bob'), { tier: 'ltm', content: "bob's fact" }, { id: 'user:bob' });
      } finally {
        await store.close();
      }
    });

    it('streams every page to stdout: the header, then one line per memory in id order; progress on stderr', async () => {
      const run = await memsvc(['export', '--user', 'alice', '--page-size', '10', '--include-history']);
      expect(run.code).toBe(0);
      const lines = run.stdout.trimEnd().split('\n');
      expect(JSON.parse(lines[0] ?? '')).toMatchObject({
        format: 'memsvc-export',
        version: 1,
        userId: 'alice',
        includes: { history: true },
      });
      const memories = lines.slice(1).map((line) => JSON.parse(line) as { id: string; content: string; history: { version: number }[] });
      expect(memories.map((memory) => memory.id)).toEqual(ids.filter((id) => id !== ids[1]));
      expect(memories[0]).toMatchObject({ content: 'fact 0, edited', version: 2 });
      expect(memories[0]?.history.map((version) => version.version)).toEqual([1, 2]);
      expect(run.stderr).toMatch(/exported 10 memories\nexported 20 memories\nexported 24 memories\n/);
      expect(run.stderr).toMatch(/done: 24 memories of alice/);
      expect(run.stdout).not.toContain("bob's fact");
    });

    it("on lite, without --user, exports the profile's one user (MEMSVC_DEFAULT_USER_ID)", async () => {
      const lite = await runInProcess(
        'memsvc',
        ['export'],
        { DATABASE_URL: databaseUrl, DEPLOYMENT_PROFILE: 'lite', MEMSVC_DEFAULT_USER_ID: 'alice' },
        workDir,
      );
      expect(lite.code).toBe(0);
      expect(JSON.parse(lite.stdout.split('\n')[0] ?? '')).toMatchObject({ userId: 'alice' });
      expect(lite.stdout).not.toContain("bob's fact");
      expect(lite.stderr).toMatch(/done: 24 memories of alice/);
    });

    it('writes --out in place only when complete, and applies the filters', async () => {
      const out = join(workDir, `${engine.name}-five.jsonl`);
      const run = await memsvc(['export', '--user', 'alice', '--out', out, '--tags', 'five,none', '--include-deleted']);
      expect(run.code).toBe(0);
      expect(run.stdout).toBe('');
      expect(existsSync(`${out}.partial`)).toBe(false);
      const lines = readFileSync(out, 'utf8').trimEnd().split('\n');
      expect(JSON.parse(lines[0] ?? '').filters).toMatchObject({ tags: ['five', 'none'], includeDeleted: true });
      expect(lines.slice(1).map((line) => JSON.parse(line).content)).toEqual(['fact 0, edited', 'fact 5', 'fact 10', 'fact 15', 'fact 20']);
    });

    it('gives the same memory lines on a second export (only the header time differs)', async () => {
      const first = await memsvc(['export', '--user', 'alice', '--include-deleted', '--include-audit', '--include-vectors']);
      const second = await memsvc(['export', '--user', 'alice', '--include-deleted', '--include-audit', '--include-vectors']);
      expect(second.stdout.split('\n').slice(1)).toEqual(first.stdout.split('\n').slice(1));
      expect(first.stdout.split('\n')).toHaveLength(25 + 2);
    });
  });
}
