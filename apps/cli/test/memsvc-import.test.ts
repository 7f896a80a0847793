import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toTenantId } from '@memsvc/core';
import { updateMemory } from '@memsvc/core/testing';
import { beforeAll, describe, expect, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { cliWorkspace, openTestStore } from './support/cli-engines.js';
import { runInProcess } from './support/run-in-process.js';

const { workDir, engines } = cliWorkspace('memsvc-import');

describe('memsvc import: flags', () => {
  const memsvc = (args: string[]) => runInProcess('memsvc', args, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, workDir);

  it('exits 2 naming the flag for bad or missing flags and unreadable files, before opening the database', async () => {
    writeFileSync(join(workDir, 'binary.jsonl'), Buffer.from([0x7b, 0x00]));
    const cases: [string[], RegExp][] = [
      [['import', '--path', 'x', '--user', 'alice'], /required option '--source <source>' not specified/],
      [
        ['import', '--source', 'windsurf', '--path', 'x', '--user', 'alice'],
        /--source "windsurf" is not supported; supported sources: memsvc, claude-code, codex/,
      ],
      [
        ['import', '--source', 'codex', '--path', workDir, '--user', 'alice', '--secrets-policy', 'shred'],
        /--secrets-policy must be one of/,
      ],
      [['import', '--source', 'gemini', '--path', workDir, '--user', 'alice'], /holds no gemini memory files/],
      [['import', '--source', 'memsvc', '--path', 'x', '--user', 'al ice'], /--user may contain letters/],
      [['import', '--source', 'memsvc', '--path', join(workDir, 'binary.jsonl'), '--user', 'alice'], /is binary/],
    ];
    const runs = await Promise.all(cases.map(([args]) => memsvc(args)));
    runs.forEach((run, index) => {
      const [args, message] = cases[index] ?? [[], /./];
      expect([run.code, run.stderr], args.join(' ')).toEqual([2, expect.stringMatching(message)]);
      expect(run.stderr).not.toMatch(/DATABASE_UNREACHABLE|\n\s+at /);
    });
  });
});

describe('memsvc import --dry-run on an embedded directory without a database', () => {
  it('checks the file against an empty database and creates nothing, neither the directory nor a database', async () => {
    const file = join(workDir, 'dry.jsonl');
    const header = {
      format: 'memsvc-export',
      version: 1,
      exportedAt: '2026-05-01T09:00:00.000Z',
      userId: 'ann',
      filters: { tier: null, scope: null, tags: null, createdFrom: null, createdTo: null, includeDeleted: false, includeSuperseded: false },
      includes: { history: false, audit: false, vectors: false },
    };
    writeFileSync(file, `${JSON.stringify(header)}\n`);
    const directory = join(workDir, 'not-yet');
    for (const source of [
      ['--source', 'memsvc', '--path', file],
      ['--source', 'claude-code', '--path', workDir],
    ]) {
      if (source[1] === 'claude-code') writeFileSync(join(workDir, 'CLAUDE.md'), '# Notes\n\nDeploys go out on Tuesdays.\n');
      const run = await runInProcess(
        'memsvc',
        ['import', ...source, '--user', 'ann', '--dry-run', '--json'],
        { DATABASE_URL: `pglite://${directory}` },
        workDir,
      );
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toContain(`no embedded database in pglite://${directory} yet: checking against an empty one, creating none`);
      expect(JSON.parse(run.stdout).totals).toMatchObject({ failed: 0, failedFiles: 0 });
      expect(existsSync(directory)).toBe(false);
    }
  });

  it('writes control characters of the folder’s names as escapes, so no escape sequence reaches the terminal', async () => {
    const folder = join(workDir, 'notes-\u001b]0;owned\u0007-\u001b[2J');
    mkdirSync(folder, { recursive: true });
    writeFileSync(join(folder, 'CLAUDE.md'), '# Notes\n\nReleases are tagged on Fridays.\n');
    const run = await runInProcess(
      'memsvc',
      ['import', '--source', 'claude-code', '--path', folder, '--user', 'ann', '--dry-run'],
      { DATABASE_URL: `pglite://${join(workDir, 'never-made')}` },
      workDir,
    );
    expect(run.code, run.stderr).toBe(0);
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
    expect(`${run.stdout}${run.stderr}`).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect(run.stderr).toContain('notes-\\x1b]0;owned\\x07-\\x1b[2J');
  });
});

for (const engine of engines) {
  describe(`memsvc import [${engine.name}]`, () => {
    let sourceUrl = '';
    let targetUrl = '';
    const memsvc = (url: string, args: string[]) => runInProcess('memsvc', args, { DATABASE_URL: url }, workDir);
    const file = join(workDir, `${engine.name}-alice.jsonl`);
    const exportArgs = ['--include-deleted', '--include-superseded', '--include-history', '--include-audit', '--include-vectors'];

    beforeAll(async () => {
      sourceUrl = await engine.url('source');
      targetUrl = await engine.url('target');
      const store = await openTestStore({ database: sourceUrl, pool: { maxConnections: 1 } });
      try {
        const alice = toTenantId('alice');
        const actor = { id: 'user:alice' };
        const ids: string[] = [];
        for (let i = 0; i < 30; i += 1) {
          ids.push(
            (
              await store.memories.insertAsGiven(
                alice,
                { tier: 'ltm', content: `fact ${i}`, tags: ['t'], metadata: { i: { n: i } } },
                actor,
              )
            ).id,
          );
        }
        await updateMemory(
          store.memories,
          alice,
          ids[0] ?? '',
          { content: 'fact 0, edited' },
          { actor, action: 'update', expectedVersion: 1 },
        );
        await store.memories.softDelete(alice, ids[1] ?? '', actor);
      } finally {
        await store.close();
      }
      const exported = await memsvc(sourceUrl, ['export', '--user', 'alice', '--out', file, ...exportArgs]);
      expect(exported.code).toBe(0);
    });

    it('imports an export into an empty database as another user: a second export has the same lines; progress on stderr', async () => {
      const dry = await memsvc(targetUrl, ['import', '--source', 'memsvc', '--path', file, '--user', 'bea', '--dry-run', '--json']);
      expect([dry.code, JSON.parse(dry.stdout).totals]).toEqual([
        0,
        expect.objectContaining({ parsed: 30, created: 30, skipped: 0, failed: 0, failedFiles: 0 }),
      ]);
      const run = await memsvc(targetUrl, ['import', '--source', 'memsvc', '--path', file, '--user', 'bea']);
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/alice\.jsonl: parsed 30, created 30, skipped 0, failed 0\n$/);
      expect(run.stderr).toMatch(/read .*alice\.jsonl\nimporting into bea/);
      // Written without vectors (30 memories, one of them deleted): the way to embed them is named.
      expect(run.stderr).toContain("29 of bea's memories have no vector yet (full text finds them meanwhile): memsvc-reindex --user bea");
      expect(dry.stderr).not.toContain('no vector yet');
      const first = await memsvc(sourceUrl, ['export', '--user', 'alice', ...exportArgs]);
      const second = await memsvc(targetUrl, ['export', '--user', 'bea', ...exportArgs]);
      expect(second.stdout.split('\n').slice(1)).toEqual(first.stdout.split('\n').slice(1));

      const again = await memsvc(targetUrl, ['import', '--source', 'memsvc', '--path', file, '--user', 'bea', '--json']);
      expect(JSON.parse(again.stdout).totals).toMatchObject({ created: 0, skipped: 30 });
    });

    it('exits 1 when the file fails (ids of another user), printing why', async () => {
      const run = await memsvc(targetUrl, ['import', '--source', 'memsvc', '--path', file, '--user', 'cleo']);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(/FAILED \[CONFLICT\] memory id .* already exists in another tenant/);
    });

    it("imports a project's CLAUDE.md and auto-memory notes; a second run changes nothing; a changed file updates its section", async () => {
      const project = join(workDir, `${engine.name}-project`);
      mkdirSync(join(project, 'memory'), { recursive: true });
      writeFileSync(join(project, 'CLAUDE.md'), '# App\n\n## Testing\n\nRun the tests.\n\n## Style\n\nSmall files.\n');
      writeFileSync(join(project, 'memory', 'MEMORY.md'), '- [Deploys](deploys.md)\n');
      writeFileSync(join(project, 'memory', 'deploys.md'), '---\nname: Deploys\ntype: project\n---\nDeploys go out on Tuesdays.\n');
      const args = ['import', '--source', 'claude-code', '--path', project, '--user', 'dev', '--scope', 'app'];

      const first = await memsvc(targetUrl, args);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stderr).toMatch(/read 2 claude-code file\(s\) under .*project\nimporting into dev/);
      expect(first.stdout).toMatch(/^CLAUDE\.md: parsed 2, created 2, skipped 0, failed 0\nmemory\/deploys\.md: parsed 1, created 1/m);
      expect(JSON.parse((await memsvc(targetUrl, [...args, '--json'])).stdout).totals).toMatchObject({ created: 0, skipped: 3 });

      writeFileSync(join(project, 'CLAUDE.md'), '# App\n\n## Testing\n\nRun the tests twice.\n');
      const changed = await memsvc(targetUrl, args);
      expect(changed.stdout).toMatch(
        /CLAUDE\.md: parsed 1, created 0, updated 1, removed 1, skipped 0, failed 0\n {2}removed app-style \(memory [0-9a-f-]+\)/,
      );
      const store = await openTestStore({ database: targetUrl, pool: { maxConnections: 1 } });
      try {
        const page = await store.memories.list(toTenantId('dev'), { limit: 10 });
        expect(page.items.map((memory) => [memory.scope, memory.content]).sort()).toEqual([
          ['app', '## Style\n\nSmall files.'],
          ['app', '## Testing\n\nRun the tests twice.'],
          ['app', 'Deploys go out on Tuesdays.'],
        ]);
      } finally {
        await store.close();
      }
    });
  });
}
