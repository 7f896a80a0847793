import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createMemoryEngine, toTenantId } from '@memsvc/core';
import { StaticEmbedder } from '@memsvc/core/testing';
import { isFrontmatterError, splitFrontmatter } from '@memsvc/import-export';
import { beforeAll, describe, expect, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { cliWorkspace, openTestStore } from './support/cli-engines.js';
import { runInProcess } from './support/run-in-process.js';

const { workDir, engines } = cliWorkspace('memsvc-export-markdown');

const OLDER = 'The deploy target is eu-west-1';
const NEWER = 'The deploy target is us-east-1';
const HOSTILE = '---\nid: forged\ntier: stm\n---\n<script>alert(1)</script> 🧠 ../../escape/CON:*?.md';

/** Every file under `root`, as `/`-separated relative paths, sorted. */
function filesUnder(root: string): string[] {
  return readdirSync(root, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) =>
      join(entry.parentPath, entry.name)
        .slice(root.length + 1)
        .replaceAll('\\', '/'),
    )
    .sort();
}

/** A note's frontmatter and body, read as memsvc's importer reads a markdown file. */
function readNote(file: string): { data: Record<string, unknown>; body: string } {
  const split = splitFrontmatter(readFileSync(file, 'utf8'));
  if (isFrontmatterError(split)) throw new Error(split.error);
  return split;
}

describe('memsvc export --format markdown: flags', () => {
  const memsvc = (args: string[]) => runInProcess('memsvc', args, { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, workDir);

  it('exits 2 naming the flag, before opening the database', async () => {
    const full = join(workDir, 'not-empty');
    mkdirSync(full, { recursive: true });
    writeFileSync(join(full, 'keep.md'), 'mine');
    const cases: [string[], RegExp][] = [
      [['export', '--user', 'alice', '--format', 'csv'], /--format must be one of: jsonl, markdown; got "csv"/],
      [['export', '--user', 'alice', '--format', 'markdown'], /give a directory with --out <dir>/],
      [['export', '--user', 'alice', '--format', 'markdown', '--out', full], /--out must be a new or empty directory/],
      [['export', '--user', 'alice', '--format', 'markdown', '--out', join(workDir, 'x'), '--include-vectors'], /includeVectors is only/],
      [['export', '--user', 'alice', '--format', 'markdown', '--out', join(workDir, 'x'), '--include-history'], /includeHistory is only/],
    ];
    const runs = await Promise.all(cases.map(([args]) => memsvc(args)));
    runs.forEach((run, index) => {
      const [args, message] = cases[index] ?? [[], /./];
      expect([run.code, run.stderr], args.join(' ')).toEqual([2, expect.stringMatching(message)]);
      expect(run.stderr).not.toMatch(/DATABASE_UNREACHABLE|\n\s+at /);
    });
    expect(readFileSync(join(full, 'keep.md'), 'utf8')).toBe('mine');
  });
});

for (const engine of engines) {
  describe(`memsvc export --format markdown [${engine.name}]`, () => {
    let databaseUrl = '';
    const ids: Record<string, string> = {};
    const plain: string[] = [];
    const memsvc = (args: string[]) => runInProcess('memsvc', args, { DATABASE_URL: databaseUrl }, workDir);

    beforeAll(async () => {
      databaseUrl = await engine.url(`${engine.name}-markdown`);
      const store = await openTestStore({ database: databaseUrl, pool: { maxConnections: 1 }, vector: { dimensions: 2 } });
      try {
        const alice = { tenant: toTenantId('alice'), actor: { id: 'user:alice' } };
        const memories = createMemoryEngine({
          store: store.memories,
          embedder: new StaticEmbedder({ [OLDER]: [1, 0], [NEWER]: [0.9, Math.sqrt(1 - 0.81)] }, 'static-test', () => [0, 1]),
          clock: { now: () => new Date() },
          settings: {
            similarity: {
              duplicateThreshold: 0.97,
              contradictionThreshold: 0.8,
              contradictionThresholdMax: 0.97,
              contradictionPolicy: 'supersede',
            },
            importanceHalfLifeDays: 14,
          },
          grants: store.grants,
          erasures: store.erasures,
        });
        ids.older = (await memories.create(alice, { content: OLDER, tier: 'ltm' })).memory.id;
        ids.newer = (await memories.create(alice, { content: NEWER, tier: 'ltm' })).memory.id;
        for (let i = 0; i < 22; i += 1) {
          const memory = await store.memories.insertAsGiven(
            alice.tenant,
            { tier: 'ltm', content: `fact ${i}`, tags: ['plain'] },
            alice.actor,
          );
          plain.push(memory.id);
        }
        ids.hostile = (
          await store.memories.insertAsGiven(alice.tenant, { tier: 'ltm', content: HOSTILE, tags: ['no', '---'] }, alice.actor)
        ).id;
        ids.stm = (
          await store.memories.insertAsGiven(
            alice.tenant,
            { tier: 'stm', content: 'for today', expiresAt: new Date(Date.now() + 86_400_000) },
            alice.actor,
          )
        ).id;
        await store.memories.insertAsGiven(toTenantId('bob'), { tier: 'ltm', content: "bob's fact" }, { id: 'user:bob' });
      } finally {
        await store.close();
      }
    });

    it('writes one note per memory under <tier>/<id>.md, page by page, progress on stderr, nothing on stdout', async () => {
      const out = join(workDir, `${engine.name}-vault`);
      const run = await memsvc([
        'export',
        '--user',
        'alice',
        '--format',
        'markdown',
        '--out',
        out,
        '--page-size',
        '10',
        '--include-superseded',
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toBe('');
      expect(run.stderr).toMatch(/exported 10 memories\nexported 20 memories\nexported 26 memories\n/);
      expect(run.stderr).toMatch(/done: 26 memories of alice written as markdown notes to /);

      const ltm = [ids.older, ids.newer, ...plain, ids.hostile].map((id) => `ltm/${id}.md`);
      expect(filesUnder(out)).toEqual([...ltm, `stm/${ids.stm}.md`].sort());
      expect(readdirSync(workDir).filter((name) => name.includes('.partial'))).toEqual([]);

      const hostile = readNote(join(out, 'ltm', `${ids.hostile}.md`));
      expect(hostile.data).toMatchObject({ id: ids.hostile, tier: 'ltm', tags: ['no', '---'], version: 1 });
      expect(hostile.body).toBe(`${HOSTILE}\n`);
      expect(readNote(join(out, 'stm', `${ids.stm}.md`)).data).toMatchObject({ tier: 'stm', expiresAt: expect.any(String) });
      for (const [index, id] of plain.entries()) {
        expect(readNote(join(out, 'ltm', `${id}.md`))).toEqual({
          data: expect.objectContaining({ id, tags: ['plain'], pinned: false, links: [] }),
          body: `fact ${index}\n`,
          bodyLine: expect.any(Number),
        });
      }
      expect(
        filesUnder(out)
          .map((file) => readFileSync(join(out, file), 'utf8'))
          .join(''),
      ).not.toContain("bob's fact");
    });

    it('links superseding and superseded notes to each other by file name', async () => {
      const out = join(workDir, `${engine.name}-links`);
      expect((await memsvc(['export', '--user', 'alice', '--format', 'markdown', '--out', out, '--include-superseded'])).code).toBe(0);
      const older = readNote(join(out, 'ltm', `${ids.older}.md`));
      const newer = readNote(join(out, 'ltm', `${ids.newer}.md`));
      expect(older.data).toMatchObject({ supersededBy: ids.newer, links: [{ rel: 'superseded-by', target: ids.newer }] });
      expect(newer.data).toMatchObject({ supersededBy: null, links: [{ rel: 'supersedes', target: ids.older }] });
      expect(newer.body).toBe(`${NEWER}\n\n## Links\n\n- supersedes [[${ids.older}]]\n`);
      expect(older.body).toContain(`[[${ids.newer}]]`);
    });

    it('fills an existing empty directory, applies the filters, and gives the same bytes twice', async () => {
      const first = join(workDir, `${engine.name}-stm-a`);
      const second = join(workDir, `${engine.name}-stm-b`);
      mkdirSync(first);
      expect((await memsvc(['export', '--user', 'alice', '--format', 'markdown', '--out', first, '--tier', 'stm'])).code).toBe(0);
      expect((await memsvc(['export', '--user', 'alice', '--format', 'markdown', '--out', second, '--tier', 'stm'])).code).toBe(0);
      expect(filesUnder(first)).toEqual([`stm/${ids.stm}.md`]);
      expect(readFileSync(join(second, 'stm', `${ids.stm}.md`), 'utf8')).toBe(readFileSync(join(first, 'stm', `${ids.stm}.md`), 'utf8'));

      const all = join(workDir, `${engine.name}-all`);
      expect((await memsvc(['export', '--user', 'alice', '--format', 'markdown', '--out', all])).code).toBe(0);
      expect(filesUnder(all)).not.toContain(`ltm/${ids.older}.md`); // superseded, not asked for
      const again = await memsvc(['export', '--user', 'alice', '--format', 'markdown', '--out', all]);
      expect([again.code, again.stderr]).toEqual([2, expect.stringMatching(/--out must be a new or empty directory/)]);
    });
  });
}
