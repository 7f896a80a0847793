import { type ImportStore, isMemsvcError, type MemsvcError, toTenantId } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { checkImportSource, IMPORT_SOURCES, importMemsvcFile, parseMemsvcExport, summarizeImport } from '../src/index.js';

const HEADER = {
  format: 'memsvc-export',
  version: 1,
  exportedAt: '2026-05-01T12:00:00.000Z',
  userId: 'alice',
  filters: { tier: null },
  includes: { history: true, audit: false, vectors: false },
};
const MEMORY = {
  id: '0190f5b2-7c1e-7a00-8000-000000000001',
  tier: 'ltm',
  scope: null,
  content: 'The deploy target is eu-west-1',
  tags: ['deploy'],
  metadata: { a: { b: [1, 2] } },
  importance: 0.5,
  importanceScore: 0.62,
  pinned: false,
  stale: true,
  contradicted: false,
  supersededBy: null,
  accessCount: 3,
  lastAccessedAt: '2026-04-02T00:00:00.000Z',
  expiresAt: null,
  deletedAt: null,
  version: 2,
  embeddingModel: null,
  searchContext: null,
  createdAt: '2026-04-01T00:00:00.000Z',
  updatedAt: '2026-04-01T00:01:00.000Z',
  links: [],
  history: [
    {
      version: 1,
      content: 'The deploy target is us-east-1',
      tags: [],
      metadata: {},
      importance: null,
      pinned: false,
      supersededBy: null,
      action: 'create',
      recordedAt: '2026-04-01T00:00:00.000Z',
    },
  ],
};
const file = (...lines: unknown[]) => `${lines.map((line) => (typeof line === 'string' ? line : JSON.stringify(line))).join('\n')}\n`;

function errorOf(action: () => unknown): MemsvcError {
  try {
    action();
  } catch (error) {
    if (isMemsvcError(error)) return error;
    throw error;
  }
  throw new Error('expected a MemsvcError');
}

describe('parseMemsvcExport', () => {
  it('reads every field of a memory line, with dates as dates and the history as audit snapshots', () => {
    const parsed = parseMemsvcExport(file(HEADER, MEMORY));
    expect(parsed.exportedUserId).toBe('alice');
    expect(parsed.memories).toHaveLength(1);
    const [memory] = parsed.memories;
    expect(memory).toMatchObject({
      id: MEMORY.id,
      stale: true,
      accessCount: 3,
      version: 2,
      metadata: { a: { b: [1, 2] } },
      embedding: null,
    });
    expect(memory?.updatedAt).toEqual(new Date(MEMORY.updatedAt));
    expect(memory?.audit).toEqual([
      {
        action: 'create',
        actor: 'import',
        version: 1,
        before: null,
        after: {
          version: 1,
          content: 'The deploy target is us-east-1',
          tags: [],
          metadata: {},
          importance: null,
          pinned: false,
          supersededBy: null,
        },
        createdAt: new Date('2026-04-01T00:00:00.000Z'),
      },
    ]);
  });

  it('refuses a line that is not JSON, naming its line number', () => {
    const error = errorOf(() => parseMemsvcExport(file(HEADER, MEMORY, '{"id": oops', { ...MEMORY, id: MEMORY.id.replace(/1$/, '2') })));
    expect(error.code).toBe('INVALID_INPUT');
    expect(error.data).toEqual({ line: 3 });
    expect(error.message).toMatch(/^line 3: the line is not JSON/);
  });

  it('refuses an unknown version or format on line 1', () => {
    expect(errorOf(() => parseMemsvcExport(file({ ...HEADER, version: 2 }, MEMORY))).data).toEqual({ line: 1, field: 'version' });
    expect(errorOf(() => parseMemsvcExport(file({ ...HEADER, format: 'other' }, MEMORY))).data).toEqual({ line: 1, field: 'format' });
    expect(errorOf(() => parseMemsvcExport('')).data).toEqual({ line: 1 });
  });

  it('checks each field, naming the line and the field', () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ id: 'not-a-uuid' }, 'id'],
      [{ tier: 'mid' }, 'tier'],
      [{ tags: ['ok', ''] }, 'tags.1'],
      [{ importance: 1.5 }, 'importance'],
      [{ accessCount: -1 }, 'accessCount'],
      [{ version: 0 }, 'version'],
      [{ createdAt: '2026-04-01' }, 'createdAt'],
      [{ metadata: [] }, 'metadata'],
      [{ tier: 'stm' }, 'expiresAt'], // a short-term memory must expire
      [{ surprise: true }, ''], // an unknown key would be lost: refused
    ];
    for (const [patch, field] of cases) {
      const error = errorOf(() => parseMemsvcExport(file(HEADER, { ...MEMORY, ...patch })));
      expect([error.code, error.data.line], JSON.stringify(patch)).toEqual(['INVALID_INPUT', 2]);
      if (field !== '') expect(error.data.field, JSON.stringify(patch)).toBe(field);
    }
  });

  it('refuses an id that appears twice and an empty line in the middle', () => {
    expect(errorOf(() => parseMemsvcExport(file(HEADER, MEMORY, MEMORY))).data).toEqual({ line: 3, field: 'id' });
    expect(errorOf(() => parseMemsvcExport(file(HEADER, '', MEMORY))).data).toEqual({ line: 2 });
  });
});

describe('importMemsvcFile', () => {
  const tenant = toTenantId('bea');
  const store = (outcome: () => Promise<{ created: number; skipped: number; vectorsDropped: number }>): ImportStore => ({
    importMemories: outcome,
  });

  it('reports a bad file as failed with its error, without calling the store', async () => {
    let called = false;
    const summary = await importMemsvcFile(
      store(async () => {
        called = true;
        return { created: 0, skipped: 0, vectorsDropped: 0 };
      }),
      tenant,
      { path: 'a.jsonl', content: file(HEADER, MEMORY, 'nope') },
      false,
    );
    expect(called).toBe(false);
    expect(summary).toMatchObject({ parsed: 0, created: 0, failed: 2, error: { code: 'INVALID_INPUT', data: { line: 3 } } });
    expect(summarizeImport('memsvc', false, [summary]).totals).toEqual({
      parsed: 0,
      created: 0,
      updated: 0,
      skipped: 0,
      conflicts: 0,
      removed: 0,
      secretsFound: 0,
      failed: 2,
      vectorsDropped: 0,
      failedFiles: 1,
    });
  });

  it('throws what is not the file’s fault', async () => {
    const failing = store(async () => {
      throw new Error('connection lost');
    });
    await expect(importMemsvcFile(failing, tenant, { path: 'a.jsonl', content: file(HEADER, MEMORY) }, false)).rejects.toThrow(
      'connection lost',
    );
  });
});

describe('checkImportSource', () => {
  it('accepts memsvc and every agent source, and names the field and the supported sources otherwise', () => {
    expect(IMPORT_SOURCES).toEqual(['memsvc', 'claude-code', 'codex', 'cursor', 'copilot', 'gemini', 'markdown']);
    for (const source of IMPORT_SOURCES) expect(checkImportSource(source)).toBe(source);
    const error = errorOf(() => checkImportSource('windsurf'));
    expect(error).toMatchObject({ code: 'INVALID_INPUT', data: { field: 'source', supported: [...IMPORT_SOURCES] } });
    expect(error.message).toMatch(/supported sources: memsvc, claude-code/);
  });
});
