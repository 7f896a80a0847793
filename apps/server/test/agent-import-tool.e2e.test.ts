import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, e2eEngines, type Structured } from './support/tool-calls.js';
import { inProcessConnection, type ToolConnection } from './support/tool-connections.js';

const ADMIN_TOKEN = 'an-admin-token-for-tests-0123456789';
const workDir = mkdtempSync(join(tmpdir(), 'memsvc-agent-import-'));
const root = join(workDir, 'root');
const outside = join(workDir, 'outside');
mkdirSync(root);
mkdirSync(outside);
afterAll(() => rmSync(workDir, { recursive: true, force: true }));

/** Writes a project folder under the import root: `files` maps relative paths to text. */
function project(name: string, files: Record<string, string>): string {
  for (const [path, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, name, path)), { recursive: true });
    writeFileSync(join(root, name, path), content);
  }
  return name;
}

const CLAUDE_MD = '# Project\n\nA payments service.\n\n## Testing\n\nRun `pnpm test` before pushing.\n\n## Style\n\nPrefer small files.\n';

/** One fixture folder per source, each as its agent lays its files out. */
const SOURCES: Record<string, { files: Record<string, string>; sections: number; tags: string[] }> = {
  'claude-code': {
    files: {
      'CLAUDE.md': CLAUDE_MD,
      'memory/MEMORY.md': '- [Deploys](deploys.md)\n',
      'memory/deploys.md': '---\nname: Deploys\ndescription: how we deploy\ntype: project\n---\nDeploys go out on Tuesdays.\n',
    },
    sections: 4,
    tags: ['claude-code'],
  },
  codex: {
    files: { 'AGENTS.md': '## Build\n\nUse make.\n', 'services/api/AGENTS.md': '## API\n\nThe API speaks JSON.\n' },
    sections: 2,
    tags: ['codex', 'agents-md'],
  },
  cursor: {
    files: {
      '.cursor/rules/typescript.mdc': '---\ndescription: TS rules\nglobs: *.ts\nalwaysApply: false\n---\nNo default exports.\n',
      '.cursorrules': 'Answer briefly.\n',
    },
    sections: 2,
    tags: ['cursor', 'rules'],
  },
  copilot: {
    files: {
      '.github/copilot-instructions.md': '## Reviews\n\nAsk for tests.\n',
      '.github/instructions/sql.instructions.md': '---\napplyTo: "**/*.sql"\n---\nUse lower-case keywords.\n',
    },
    sections: 2,
    tags: ['copilot', 'instructions'],
  },
  gemini: { files: { 'GEMINI.md': '## Tone\n\nBe direct.\n\n## Limits\n\nNever push to main.\n' }, sections: 2, tags: ['gemini'] },
  markdown: {
    files: {
      'notes/kayak.md': '---\ntitle: Kayak\ntags: [outdoors, lake]\n---\nThe kayak is stored in the garage.\n',
      'MEMORY.md': 'an index note, not imported\n',
      'index.md': '---\nmoc: true\n---\n[[kayak]]\n',
    },
    sections: 1,
    tags: ['markdown', 'outdoors'],
  },
};

describe.each(e2eEngines('memsvc_agent_import'))('import_agent_memory, agent sources [$name]', (engine) => {
  let connection: ToolConnection;
  let client: Client;
  const importTool = (args: Record<string, unknown>) => call(client, 'import_agent_memory', { adminToken: ADMIN_TOKEN, ...args });
  const memoriesOf = async (userId: string): Promise<Structured[]> =>
    (await call(client, 'list_memories', { userId, limit: 100 })).body.memories as Structured[];
  const sectionsOf = (result: { body: Structured }, file: string): Structured[] =>
    (result.body.files as Structured[]).find((entry) => entry.path === file)?.sections ?? [];

  beforeAll(async () => {
    connection = await inProcessConnection({
      DATABASE_URL: await engine.database(),
      DEPLOYMENT_PROFILE: 'lite',
      EMBEDDING_PROVIDER: 'local',
      MCP_ADMIN_TOKEN: ADMIN_TOKEN,
      IMPORT_ALLOWED_ROOT: root,
    });
    client = connection.client;
  });
  afterAll(async () => {
    await connection?.close();
  });

  it.each(Object.entries(SOURCES))('imports a %s folder: one memory per section, with its tags and provenance', async (source, fixture) => {
    const folder = project(`${engine.name}-${source}`, fixture.files);
    const userId = `u-${source}`;
    const result = await importTool({ source, userId, path: folder });
    expect(result.isError, JSON.stringify(result.body)).toBe(false);
    expect(result.body.totals, JSON.stringify(result.body.files)).toMatchObject({
      parsed: fixture.sections,
      created: fixture.sections,
      failed: 0,
      failedFiles: 0,
    });
    const memories = await memoriesOf(userId);
    expect(memories).toHaveLength(fixture.sections);
    for (const memory of memories) {
      expect(memory.tags).toEqual(expect.arrayContaining(fixture.tags));
      expect(memory.metadata.provenance).toMatchObject({
        source,
        file: expect.any(String),
        section: expect.any(String),
        line: expect.any(Number),
      });
    }
    // Index notes are never memories.
    expect(memories.map((memory) => memory.content).join('\n')).not.toMatch(/index note|\[\[kayak\]\]|\[Deploys\]/);
  });

  it('re-imports idempotently; then updates a changed section, creates a new one and reports a removed one, keeping its memory', async () => {
    const folder = project(`${engine.name}-ledger`, { 'CLAUDE.md': CLAUDE_MD });
    const first = await importTool({ source: 'claude-code', userId: 'ledger', path: folder });
    expect(first.body.totals).toMatchObject({ created: 3 });
    const again = await importTool({ source: 'claude-code', userId: 'ledger', path: folder });
    expect(again.body.totals).toMatchObject({ parsed: 3, created: 0, updated: 0, skipped: 3, removed: 0 });
    expect(await memoriesOf('ledger')).toHaveLength(3);

    const changed =
      '# Project\n\nA payments service.\n\n## Testing\n\nRun `pnpm test:all` before pushing.\n\n## Releases\n\nTag on main.\n';
    writeFileSync(join(root, folder, 'CLAUDE.md'), changed);
    const dry = await importTool({ source: 'claude-code', userId: 'ledger', path: folder, dryRun: true });
    expect(dry.body.totals).toMatchObject({ created: 1, updated: 1, skipped: 1, removed: 1 });
    expect((await memoriesOf('ledger')).map((memory) => memory.content).join()).not.toContain('test:all');

    const run = await importTool({ source: 'claude-code', userId: 'ledger', path: folder });
    expect(run.body.totals).toMatchObject({ created: 1, updated: 1, skipped: 1, removed: 1, conflicts: 0 });
    const outcomes = Object.fromEntries(sectionsOf(run, 'CLAUDE.md').map((section) => [section.section, section.outcome]));
    expect(outcomes).toEqual({
      project: 'unchanged',
      'project-testing': 'updated',
      'project-releases': 'created',
      'project-style': 'removed',
    });
    const memories = await memoriesOf('ledger');
    expect(memories).toHaveLength(4); // the removed section's memory is kept
    const testing = memories.find((memory) => memory.content.includes('test:all'));
    expect(testing).toMatchObject({ version: 2 });

    // The file gone from the folder: its sections are reported removed, nothing is deleted.
    rmSync(join(root, folder, 'CLAUDE.md'));
    writeFileSync(join(root, folder, 'AGENTS.md'), 'not a claude file\n');
    writeFileSync(join(root, folder, 'CLAUDE.local.md'), 'Local: use port 5433.\n');
    const gone = await importTool({ source: 'claude-code', userId: 'ledger', path: folder });
    expect(gone.body.totals).toMatchObject({ created: 1, removed: 4 });
    expect(await memoriesOf('ledger')).toHaveLength(5);
  });

  it('two imports of one folder at once leave one memory per section', async () => {
    const folder = project(`${engine.name}-race`, {
      'AGENTS.md': '## Build\n\nUse make.\n\n## Test\n\nUse make test.\n',
      'lib/AGENTS.md': 'Lib rules.\n',
    });
    const runs = await Promise.all([1, 2].map(() => importTool({ source: 'codex', userId: 'race', path: folder })));
    for (const run of runs) expect(run.isError, JSON.stringify(run.body)).toBe(false);
    expect(runs.map((run) => run.body.totals.created + run.body.totals.skipped)).toEqual([3, 3]);
    expect((await memoriesOf('race')).map((memory) => memory.content).sort()).toEqual([
      '## Build\n\nUse make.',
      '## Test\n\nUse make test.',
      'Lib rules.',
    ]);
    const again = await importTool({ source: 'codex', userId: 'race', path: folder });
    expect(again.body.totals).toMatchObject({ created: 0, updated: 0, skipped: 3 });
  });

  it('reports a memory edited or deleted in memsvc since the last import as a conflict, and does not overwrite it', async () => {
    const folder = project(`${engine.name}-conflict`, { 'GEMINI.md': '## Tone\n\nBe direct.\n\n## Limits\n\nNever push to main.\n' });
    await importTool({ source: 'gemini', userId: 'conflict', path: folder });
    const memories = await memoriesOf('conflict');
    const edited = memories.find((memory) => memory.content.includes('Never push')) as Structured;
    const deleted = memories.find((memory) => memory.content.includes('Be direct')) as Structured;
    const update = await call(client, 'update_memory', {
      userId: 'conflict',
      memoryId: edited.id,
      content: '## Limits\n\nNever push to main; use a pull request.',
      expectedVersion: edited.version,
    });
    expect(update.isError).toBe(false);
    expect((await call(client, 'delete_memory', { userId: 'conflict', memoryId: deleted.id })).body.deleted).toBe(true);

    writeFileSync(join(root, folder, 'GEMINI.md'), '## Tone\n\nBe very direct.\n\n## Limits\n\nNever push to main or release.\n');
    const run = await importTool({ source: 'gemini', userId: 'conflict', path: folder });
    expect(run.body.totals).toMatchObject({ updated: 0, conflicts: 2 });
    const reasons = sectionsOf(run, 'GEMINI.md').map((section) => [section.section, section.outcome, section.reason]);
    expect(reasons).toEqual([
      ['tone', 'conflict', expect.stringMatching(/deleted in memsvc/)],
      ['limits', 'conflict', expect.stringMatching(/edited in memsvc since the last import \(version 2, imported 1\)/)],
    ]);
    const after = await memoriesOf('conflict');
    expect(after.map((memory) => memory.content)).toEqual(['## Limits\n\nNever push to main; use a pull request.']);
  });

  it('applies the secrets policies: redact (default), flag, skip, and fail, which writes nothing', async () => {
    const key = 'AKIAIOSFODNN7EXAMPLE';
    const files = { 'AGENTS.md': `## Deploy\n\nThe AWS key is ${key}.\n\n## Build\n\nUse make.\n` };
    const redacted = await importTool({ source: 'codex', userId: 'redact', path: project(`${engine.name}-secrets`, files) });
    expect(redacted.body.totals).toMatchObject({ created: 2, secretsFound: 1 });
    expect(JSON.stringify(redacted.body)).not.toContain(key);
    expect((redacted.body.files as Structured[])[0]?.secrets).toEqual([{ section: 'deploy', patterns: [expect.stringMatching(/aws/i)] }]);
    const stored = (await memoriesOf('redact')).map((memory) => memory.content).join('\n');
    expect(stored).not.toContain(key);
    expect(stored).toMatch(/\[REDACTED:[^\]]+\]/);

    const inline = (userId: string, secretsPolicy: string) =>
      importTool({ source: 'codex', userId, files: [{ path: 'AGENTS.md', content: files['AGENTS.md'] }], secretsPolicy });
    const flagged = await inline('flag', 'flag');
    expect(flagged.body.totals).toMatchObject({ created: 2, secretsFound: 1 });
    const flaggedMemory = (await memoriesOf('flag')).find((memory) => memory.tags.includes('has-secret'));
    expect(flaggedMemory?.metadata.secretsFound).toEqual([expect.stringMatching(/aws/i)]);

    const skipped = await inline('skip', 'skip');
    expect(skipped.body.totals).toMatchObject({ created: 1, skipped: 1, secretsFound: 1 });
    expect((await memoriesOf('skip')).map((memory) => memory.content)).toEqual(['## Build\n\nUse make.']);

    const failed = await inline('fail', 'fail');
    expect(failed.body).toMatchObject({ abortedBySecrets: true, totals: { created: 0, failed: 2 } });
    expect(await memoriesOf('fail')).toEqual([]);

    const unknown = await inline('fail', 'shred');
    expect(unknown.body.error).toMatchObject({ code: 'INVALID_INPUT', data: { field: 'secretsPolicy' } });
  });

  it('takes inline files under a root label, a scope, and one memory per file without splitHeadings', async () => {
    const inline = (rootLabel: string, content: string) =>
      importTool({
        source: 'claude-code',
        userId: 'inline',
        root: rootLabel,
        scope: 'work',
        splitHeadings: false,
        files: [{ path: 'CLAUDE.md', content }],
      });
    expect((await inline('~/projects/a', '# A\n\n## One\n\nalpha\n\n## Two\n\nbeta\n')).body.totals).toMatchObject({ created: 1 });
    expect((await inline('~/projects/b', '# B\n\ngamma\n')).body.totals).toMatchObject({ created: 1 });
    expect((await inline('~/projects/a', '# A\n\n## One\n\nalpha\n\n## Two\n\nbeta\n')).body.totals).toMatchObject({ skipped: 1 });
    const memories = await memoriesOf('inline');
    expect(memories).toHaveLength(2);
    expect(memories.every((memory) => memory.scope === 'work')).toBe(true);
  });

  it('fails a bad file alone (broken frontmatter, binary, a symlink or FIFO), refuses paths out of the root and an empty folder', async () => {
    const folder = project(`${engine.name}-bad`, {
      'notes/good.md': 'A good note.\n',
      'notes/broken.md': '---\ntags: [unclosed\n---\nbody\n',
      'notes/binary.md': 'text\u0000more',
    });
    const outsideDir = join(outside, engine.name);
    mkdirSync(outsideDir);
    writeFileSync(join(outsideDir, 'leak.md'), 'outside the root\n');
    symlinkSync(join(outsideDir, 'leak.md'), join(root, folder, 'notes', 'leak.md'));
    symlinkSync(outsideDir, join(root, folder, 'linked'));
    let fifo = false;
    try {
      execFileSync('mkfifo', [join(root, folder, 'notes', 'pipe.md')]);
      fifo = true;
    } catch {
      // no mkfifo here: the FIFO case is left out of the expectation below
    }
    const result = await importTool({ source: 'markdown', userId: 'bad', path: folder });
    expect(result.isError, JSON.stringify(result.body)).toBe(false);
    const byPath = Object.fromEntries((result.body.files as Structured[]).map((file) => [file.path, file.error?.code ?? 'ok']));
    expect(byPath).toEqual({
      'notes/good.md': 'ok',
      'notes/broken.md': 'INVALID_INPUT',
      'notes/binary.md': 'INVALID_INPUT',
      'notes/leak.md': 'FORBIDDEN',
      linked: 'FORBIDDEN',
      ...(fifo ? { 'notes/pipe.md': 'INVALID_INPUT' } : {}),
    });
    expect(JSON.stringify(result.body)).not.toContain(outside);
    const written = await memoriesOf('bad');
    expect(written.map((memory) => memory.content.trim())).toEqual(['A good note.']);

    mkdirSync(join(root, `${engine.name}-empty`));
    for (const [path, code] of [
      [`${engine.name}-empty`, 'INVALID_INPUT'],
      ['../outside', 'FORBIDDEN'],
      [outside, 'FORBIDDEN'],
      [`${folder}/linked`, 'FORBIDDEN'],
    ] as const) {
      const refused = await importTool({ source: 'markdown', userId: 'bad', path });
      expect([refused.isError, refused.body.error?.code, refused.body.error?.data?.field], path).toEqual([true, code, 'path']);
    }
  });
});
