import { type MemoryEngine, toTenantId } from '@memsvc/core';
import { InMemoryImportLedger, InMemoryMemoryStore, inMemoryEngine, ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { describe, expect, it } from 'vitest';
import { type AgentImportRequest, type ImportSummary, importAgentFiles } from '../../src/index.js';

const tenant = toTenantId('alice');
const context = { tenant, actor: { id: 'admin:import' } };
const AGENTS_MD = '## Build\n\nUse make.\n\n## Deploy\n\nShip on Tuesdays.\n';

function setup() {
  const clock = new ManualClock('2026-05-01T10:00:00Z');
  const store = new InMemoryMemoryStore({ clock });
  // No model: no vectors, so only identical text counts as a duplicate.
  const engine = inMemoryEngine(store, { embedder: new StaticEmbedder({}, undefined), clock });
  const ledger = new InMemoryImportLedger();
  const run = (files: Record<string, string>, overrides: Partial<AgentImportRequest> = {}, using: MemoryEngine = engine) =>
    importAgentFiles({ engine: using, ledger, clock }, context, {
      source: 'codex',
      root: '/projects/app',
      files: Object.entries(files).map(([path, content]) => ({ path, content })),
      wholeFolder: true,
      scope: null,
      secretsPolicy: 'redact',
      splitHeadings: true,
      dryRun: false,
      ...overrides,
    });
  const contents = async () => (await engine.list(context, { limit: 100 })).items.map((memory) => memory.content).sort();
  return { engine, ledger, run, contents };
}

const outcomes = (summary: ImportSummary, file = 'AGENTS.md') =>
  Object.fromEntries(
    (summary.files.find((entry) => entry.path === file)?.sections ?? []).map((section) => [section.section, section.outcome]),
  );

describe('importAgentFiles', () => {
  it('refuses a whole file when one of its sections cannot be stored, naming the field; the other files are written', async () => {
    const { run, contents } = setup();
    // Frontmatter is kept as metadata, which a memory holds up to 64 KiB of.
    const hugeFrontmatter = `---\nsummary: ${'x'.repeat(70_000)}\n---\nA note.\n`;
    const summary = await run({ 'a.md': hugeFrontmatter, 'b.md': 'Another note.\n' }, { source: 'markdown' });
    const [bad, good] = summary.files;
    expect(bad).toMatchObject({
      path: 'a.md',
      parsed: 1,
      created: 0,
      failed: 1,
      error: { code: 'INVALID_INPUT', data: { field: 'metadata' } },
    });
    expect(good).toMatchObject({ path: 'b.md', created: 1 });
    expect(await contents()).toEqual(['Another note.']);
  });

  it('writes nothing on a dry run, neither memories nor ledger entries', async () => {
    const { run, ledger, contents } = setup();
    const dry = await run({ 'AGENTS.md': AGENTS_MD }, { dryRun: true });
    expect(dry.totals).toMatchObject({ parsed: 2, created: 2 });
    expect(await contents()).toEqual([]);
    expect(await ledger.entries(tenant, 'codex', '/projects/app')).toEqual([]);
  });

  it('treats a section that only moved as unchanged, and a re-import as all unchanged', async () => {
    const { run } = setup();
    await run({ 'AGENTS.md': AGENTS_MD });
    const moved = await run({ 'AGENTS.md': `\n\n\n${AGENTS_MD}` });
    expect(moved.totals).toMatchObject({ created: 0, updated: 0, skipped: 2 });
  });

  it('two imports of the same files at once leave one memory per section', async () => {
    const { run, contents } = setup();
    const [first, second] = await Promise.all([run({ 'AGENTS.md': AGENTS_MD }), run({ 'AGENTS.md': AGENTS_MD })]);
    expect(first.totals.created + second.totals.created + first.totals.skipped + second.totals.skipped).toBe(4);
    expect(await contents()).toEqual(['## Build\n\nUse make.', '## Deploy\n\nShip on Tuesdays.']);
  });

  it('an interrupted run is completed by the next one, without duplicates', async () => {
    const { engine, run, contents } = setup();
    let creates = 0;
    const failing = new Proxy(engine, {
      get(target, property, receiver) {
        if (property !== 'create') return Reflect.get(target, property, receiver);
        return async (...args: Parameters<MemoryEngine['create']>) => {
          creates += 1;
          if (creates === 2) throw new Error('the database went away');
          return target.create(...args);
        };
      },
    });
    await expect(run({ 'AGENTS.md': AGENTS_MD }, {}, failing)).rejects.toThrow('the database went away');
    expect(await contents()).toEqual(['## Build\n\nUse make.']);
    const resumed = await run({ 'AGENTS.md': AGENTS_MD });
    expect(outcomes(resumed)).toEqual({ build: 'unchanged', deploy: 'created' });
    expect(await contents()).toHaveLength(2);
  });

  it('a run stopped between an update and its ledger entry is finished by the next run, not reported as a conflict', async () => {
    const { engine, ledger, run, contents } = setup();
    await run({ 'AGENTS.md': AGENTS_MD });
    const edited = AGENTS_MD.replace('Ship on Tuesdays.', 'Ship on Thursdays.');
    let records = 0;
    const failingLedger = {
      entries: ledger.entries.bind(ledger),
      record: async () => {
        records += 1;
        throw new Error(`the database went away (record ${records})`);
      },
    };
    const clock = new ManualClock('2026-05-02T10:00:00Z');
    const request: AgentImportRequest = {
      source: 'codex',
      root: '/projects/app',
      files: [{ path: 'AGENTS.md', content: edited }],
      wholeFolder: true,
      scope: null,
      secretsPolicy: 'redact',
      splitHeadings: true,
      dryRun: false,
    };
    await expect(importAgentFiles({ engine, ledger: failingLedger, clock }, context, request)).rejects.toThrow('the database went away');
    // The memory was updated; its ledger entry still names the version before.
    expect(await contents()).toEqual(['## Build\n\nUse make.', '## Deploy\n\nShip on Thursdays.']);
    const dry = await run({ 'AGENTS.md': edited }, { dryRun: true });
    expect(outcomes(dry)).toEqual({ build: 'unchanged', deploy: 'updated' });
    const resumed = await run({ 'AGENTS.md': edited });
    expect(outcomes(resumed)).toEqual({ build: 'unchanged', deploy: 'updated' });
    expect(resumed.totals.conflicts).toBe(0);
    expect(outcomes(await run({ 'AGENTS.md': edited }))).toEqual({ build: 'unchanged', deploy: 'unchanged' });
    // An edit made in memsvc is still a conflict.
    const deploy = (await engine.list(context, { limit: 10 })).items.find((memory) => memory.content.includes('Thursdays'));
    await engine.update(context, deploy?.id ?? '', { content: '## Deploy\n\nShip on Fridays, says the team.' }, deploy?.version ?? 0);
    const later = await run({ 'AGENTS.md': AGENTS_MD });
    expect(outcomes(later)).toEqual({ build: 'unchanged', deploy: 'conflict' });
    expect(await contents()).toContain('## Deploy\n\nShip on Fridays, says the team.');
  });

  it('never echoes a secret held in a heading: the section is reported under its redacted anchor, whatever the policy', async () => {
    const key = 'ghp_0123456789abcdefghijklmnopqrstuvwxyzAB';
    const file = { 'AGENTS.md': `## Token ${key}\n\nRotate it monthly.\n` };
    for (const secretsPolicy of ['redact', 'skip', 'fail'] as const) {
      const { run } = setup();
      const summary = await run(file, { secretsPolicy });
      expect(summary.files[0]?.secrets, secretsPolicy).toHaveLength(1);
      expect(JSON.stringify(summary), secretsPolicy).not.toContain(key);
      expect(JSON.stringify(summary), secretsPolicy).not.toContain(key.toLowerCase());
    }
  });
});
