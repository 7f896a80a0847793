import { type AuditEntry, type ExportedMemory, type ExportPage, type ExportQuery, type ExportStore, toTenantId } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { canonicalJson, memoryLine, planExport, readExportPage, utf8Length } from '../src/index.js';

const alice = toTenantId('alice');
const NOW = new Date('2026-05-01T12:00:00.000Z');
const includes = { history: true, audit: true, vectors: true };

const memory = (id: string, overrides: Partial<ExportedMemory> = {}): ExportedMemory => ({
  id,
  userId: alice,
  tier: 'ltm',
  scope: 'project:x',
  content: `content of ${id}`,
  tags: ['b', 'a'],
  metadata: { z: 1, a: { d: 2, c: [3, { f: 1, e: 0 }] } },
  importance: 0.5,
  importanceScore: 0.625,
  accessCount: 3,
  lastAccessedAt: new Date('2026-04-02T00:00:00.000Z'),
  expiresAt: null,
  pinned: true,
  stale: false,
  contradicted: true,
  supersededBy: null,
  deletedAt: null,
  version: 2,
  embeddingModel: 'static-test',
  hasEmbedding: true,
  createdAt: new Date('2026-04-01T00:00:00.000Z'),
  updatedAt: new Date('2026-04-01T01:00:00.000Z'),
  searchContext: 'more words',
  embeddedAt: new Date('2026-04-01T01:00:00.000Z'),
  vector: [0.5, -0.25],
  ...overrides,
});

const audit = (id: number, version: number, content: string, action = 'update'): AuditEntry => ({
  id,
  memoryId: 'm1',
  action,
  actor: 'user:alice',
  version,
  before: null,
  after: { userId: 'alice', version, content, tags: ['a'], metadata: { y: 1, x: 2 }, importance: null, pinned: false, supersededBy: null },
  createdAt: new Date(Date.UTC(2026, 3, 1, 0, id)),
});

/** An ExportStore over a fixed list, recording the queries it was asked. */
function fixedStore(memories: ExportedMemory[]): ExportStore & { queries: ExportQuery[] } {
  const queries: ExportQuery[] = [];
  return {
    queries,
    async exportPage(_tenant, query): Promise<ExportPage> {
      queries.push(query);
      const after = memories.filter((item) => query.after === undefined || item.id > query.after);
      const page = after.slice(0, query.limit);
      return { memories: page, links: [], audit: [], nextCursor: after.length > query.limit ? page.at(-1)?.id : undefined };
    },
  };
}

describe('the JSONL export format', () => {
  it(verifies('R-EXPORT-DETERMINISTIC', 'writes every stored field in a fixed order, metadata and snapshots in canonical order'), () => {
    const line = memoryLine({ memory: memory('m1'), links: [], audit: [audit(1, 1, 'first', 'create'), audit(2, 2, 'second')], includes });
    const parsed = JSON.parse(line);
    expect(Object.keys(parsed)).toEqual([
      'id',
      'tier',
      'scope',
      'content',
      'tags',
      'metadata',
      'importance',
      'importanceScore',
      'pinned',
      'stale',
      'contradicted',
      'supersededBy',
      'replacedBy',
      'accessCount',
      'lastAccessedAt',
      'expiresAt',
      'deletedAt',
      'version',
      'embeddingModel',
      'searchContext',
      'createdAt',
      'updatedAt',
      'links',
      'history',
      'audit',
      'embedding',
    ]);
    expect(line).toContain('"metadata":{"a":{"c":[3,{"e":0,"f":1}],"d":2},"z":1}');
    expect(parsed.tags).toEqual(['b', 'a']); // arrays keep their order
    expect(parsed.history.map((entry: { version: number; content: string }) => [entry.version, entry.content])).toEqual([
      [1, 'first'],
      [2, 'second'],
    ]);
    // No tenant and no database-specific audit id on a memory line: it imports into any tenant as it is.
    expect(line).not.toContain('"userId"');
    expect(parsed.audit[0]).toEqual({
      action: 'create',
      actor: 'user:alice',
      version: 1,
      before: null,
      after: { content: 'first', importance: null, metadata: { x: 2, y: 1 }, pinned: false, supersededBy: null, tags: ['a'], version: 1 },
      createdAt: '2026-04-01T00:01:00.000Z',
    });
    expect(parsed.embedding).toEqual({ vector: [0.5, -0.25], embeddedAt: '2026-04-01T01:00:00.000Z' });
    // The same memory with its metadata keys in another order: the same bytes.
    const reordered = memory('m1', { metadata: { a: { c: [3, { e: 0, f: 1 }], d: 2 }, z: 1 } });
    expect(memoryLine({ memory: reordered, links: [], audit: [audit(1, 1, 'first', 'create'), audit(2, 2, 'second')], includes })).toBe(
      line,
    );
  });

  it(verifies('R-EXPORT-DETERMINISTIC', 'leaves out what was not asked for: no history, audit or vector key'), () => {
    const parsed = JSON.parse(
      memoryLine({ memory: memory('m1'), links: [], audit: [], includes: { history: false, audit: false, vectors: false } }),
    );
    expect(parsed).not.toHaveProperty('history');
    expect(parsed).not.toHaveProperty('audit');
    expect(parsed).not.toHaveProperty('embedding');
    expect(JSON.parse(memoryLine({ memory: memory('m1', { vector: null }), links: [], audit: [], includes })).embedding).toBeNull();
  });

  it('sorts keys by code point and measures UTF-8 as the wire does', () => {
    expect(JSON.stringify(canonicalJson({ b: 1, B: 2, é: 3, a: undefined }))).toBe('{"B":2,"b":1,"é":3}');
    expect(utf8Length('aé€😀')).toBe(1 + 2 + 3 + 4);
  });
});

describe('export pages', () => {
  const memories = Array.from({ length: 7 }, (_, i) => memory(`m${i}`, { content: 'x'.repeat(100) }));

  it(verifies('R-EXPORT-BOUNDED', 'a page holds at most `limit` memories; the header comes only on the first page'), async () => {
    const store = fixedStore(memories);
    const first = await readExportPage(store, alice, { limit: 3 }, NOW);
    expect(first.header).toMatchObject({ format: 'memsvc-export', version: 1, userId: 'alice', exportedAt: NOW.toISOString() });
    expect(first.lines).toHaveLength(4);
    expect(JSON.parse(first.lines[0] ?? '')).toEqual(first.header);
    expect(first).toMatchObject({ count: 3, nextCursor: 'm2' });
    const second = await readExportPage(store, alice, { limit: 3, cursor: 'm2' }, NOW);
    expect(second).toMatchObject({ header: undefined, count: 3, nextCursor: 'm5' });
    expect(second.lines.map((line) => JSON.parse(line).id)).toEqual(['m3', 'm4', 'm5']);
    expect((await readExportPage(store, alice, { limit: 3, cursor: 'm5' }, NOW)).nextCursor).toBeUndefined();
  });

  it(
    verifies('R-EXPORT-BOUNDED', 'a page ends early at its byte budget, never empty, and the cursor resumes after the last line'),
    async () => {
      const store = fixedStore(memories);
      const oneLine =
        utf8Length(
          memoryLine({
            memory: memories[0] as ExportedMemory,
            links: [],
            audit: [],
            includes: { history: false, audit: false, vectors: false },
          }),
        ) + 1;
      const page = await readExportPage(store, alice, { cursor: 'm0', maxBytes: oneLine * 2 + 10 }, NOW);
      expect(page).toMatchObject({ count: 2, nextCursor: 'm2' });
      const tiny = await readExportPage(store, alice, { cursor: 'm0', maxBytes: 1 }, NOW);
      expect(tiny).toMatchObject({ count: 1, nextCursor: 'm1' });
    },
  );

  it('refuses a bad request, naming the field', () => {
    const fieldOf = (request: Parameters<typeof planExport>[0]) => {
      try {
        planExport(request);
        return undefined;
      } catch (error) {
        return (error as { code: string; data: { field: string } }).data.field;
      }
    };
    expect(fieldOf({ limit: 0 })).toBe('limit');
    expect(fieldOf({ limit: 2001 })).toBe('limit');
    expect(fieldOf({ maxBytes: 5 * 1024 * 1024 })).toBe('maxBytes');
    expect(fieldOf({ createdFrom: new Date('nope') })).toBe('createdFrom');
    expect(fieldOf({ createdFrom: new Date('2026-05-02'), createdTo: new Date('2026-05-01') })).toBe('createdTo');
    expect(fieldOf({ tags: [''] })).toBe('tags');
    expect(planExport({ includeHistory: true }).query).toMatchObject({ includeAudit: true, limit: 500 });
  });
});

describe('canonicalJson', () => {
  it('keeps a __proto__ key as data, in order, instead of setting the prototype', () => {
    const parsed = JSON.parse('{"b": 1, "__proto__": {"x": 2}, "a": [3]}');
    const canonical = canonicalJson(parsed) as Record<string, unknown>;
    expect(JSON.stringify(canonical)).toBe('{"__proto__":{"x":2},"a":[3],"b":1}');
    expect(Object.getPrototypeOf(canonical)).toBe(Object.prototype);
  });
});
