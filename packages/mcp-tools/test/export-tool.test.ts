import { TOOL_SET_NAMES } from '@memsvc/config';

import { InMemoryExportStore, InMemoryMemoryStore, inMemoryEngine, ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import { isFrontmatterError, splitFrontmatter } from '@memsvc/import-export';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { afterEach, describe, expect, it } from 'vitest';
import { createMcpServer } from '../src/index.js';

/**
 * export_memories over core's in-memory stores, through the SDK's linked transport pair. With
 * `vectors`, those contents are embedded (the rest are not), so a write can contradict another.
 */
async function connectedClient(vectors?: Record<string, readonly number[]>) {
  const clock = new ManualClock('2026-05-01T10:00:00Z');
  const store = new InMemoryMemoryStore({ clock });
  const embedder = vectors ? new StaticEmbedder(vectors) : new StaticEmbedder({}, undefined);
  const engine = inMemoryEngine(store, { embedder, clock });
  const exports = new InMemoryExportStore(store, clock);
  const server = createMcpServer(
    { name: 'memsvc-test', version: '0.0.0' },
    { clock, engine, exports, pipeline: { defaultUserId: 'alice' }, toolSets: TOOL_SET_NAMES },
  );
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'test-client', version: '0.0.0' });
  await client.connect(clientSide);
  return { client, clock, close: () => client.close() };
}

interface ExportResult {
  format: string;
  header: { format: string; version: number; userId: string; includes: Record<string, boolean> } | null;
  lines: string[];
  count: number;
  nextCursor: string | null;
}

describe('export_memories', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  const open = async (vectors?: Record<string, readonly number[]>) => {
    const connection = await connectedClient(vectors);
    closers.push(connection.close);
    return connection;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    return { isError: result.isError === true, structured: result.structuredContent as Record<string, unknown> };
  };
  const exportPage = async (client: Client, args: Record<string, unknown>) =>
    (await call(client, 'export_memories', args)).structured as unknown as ExportResult;

  it('is listed, read-only, with its filters in the input schema', async () => {
    const { client } = await open();
    const tool = (await client.listTools()).tools.find((candidate) => candidate.name === 'export_memories');
    expect(tool?.annotations?.readOnlyHint).toBe(true);
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining([
        'format',
        'tier',
        'scope',
        'tags',
        'createdFrom',
        'createdTo',
        'includeDeleted',
        'includeSuperseded',
        'includeHistory',
        'includeAudit',
        'includeVectors',
        'cursor',
        'limit',
      ]),
    );
  });

  it("pages the caller's memories: a header first, then one line per memory in id order, no gaps or repeats", async () => {
    const { client, clock } = await open();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const created = await call(client, 'create_memory', { content: `fact number ${i}`, type: 'long-term', tags: [`t${i % 2}`] });
      ids.push((created.structured.memory as { id: string }).id);
      clock.advance(1000);
    }
    await call(client, 'create_memory', { userId: 'bob', content: "bob's fact", type: 'long-term' });

    const lines: string[] = [];
    let cursor: string | null = null;
    let first = true;
    do {
      const page: ExportResult = await exportPage(client, { limit: 2, includeHistory: true, ...(cursor ? { cursor } : {}) });
      expect(page.format).toBe('jsonl');
      if (first) expect(page.header).toMatchObject({ format: 'memsvc-export', version: 1, userId: 'alice' });
      else expect(page.header).toBeNull();
      expect(page.count).toBeLessThanOrEqual(2);
      lines.push(...page.lines);
      cursor = page.nextCursor;
      first = false;
    } while (cursor !== null);

    expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({
      format: 'memsvc-export',
      includes: { history: true, audit: false, vectors: false },
    });
    const memories = lines.slice(1).map((line) => JSON.parse(line) as { id: string; content: string; history: unknown[] });
    expect(memories.map((memory) => memory.id)).toEqual(ids);
    expect(memories[0]).toMatchObject({ content: 'fact number 0', history: [{ version: 1, content: 'fact number 0' }] });
    expect(lines.join('\n')).not.toContain("bob's fact");

    const tagged = await exportPage(client, { tags: ['t1', 'nothing'] });
    expect(tagged.count).toBe(2);
  });

  it('ends a page early at its byte budget, so no result grows past a few megabytes', async () => {
    const { client } = await open();
    const filler = 'x'.repeat(10_000);
    for (let i = 0; i < 260; i += 1) await call(client, 'create_memory', { content: `${i} ${filler}`, type: 'long-term' });
    const page = await exportPage(client, { limit: 2000 });
    expect(page.count).toBeGreaterThan(100);
    expect(page.count).toBeLessThan(260);
    expect(page.nextCursor).not.toBeNull();
    expect(page.lines.reduce((bytes, line) => bytes + line.length + 1, 0)).toBeLessThanOrEqual(2 * 1024 * 1024);
    const rest = await exportPage(client, { limit: 2000, cursor: page.nextCursor });
    expect(page.count + rest.count).toBe(260);
    expect(rest.nextCursor).toBeNull();
  });

  it('refuses bad input with a typed error naming the field', async () => {
    const { client } = await open();
    const wrongDates = await call(client, 'export_memories', { createdFrom: '2026-05-02', createdTo: '2026-05-01' });
    expect(wrongDates).toMatchObject({ isError: true, structured: { error: { code: 'INVALID_INPUT', data: { field: 'createdTo' } } } });
    const badCursor = await call(client, 'export_memories', { cursor: 'not-a-cursor' });
    expect(badCursor).toMatchObject({ isError: true, structured: { error: { code: 'INVALID_INPUT', data: { field: 'cursor' } } } });
    const tooMany = await client.callTool({ name: 'export_memories', arguments: { limit: 2001 } });
    expect(tooMany.isError).toBe(true);
    const unknownFormat = await client.callTool({ name: 'export_memories', arguments: { format: 'csv' } });
    expect(unknownFormat.isError).toBe(true);
  });
});

interface MarkdownResult {
  format: string;
  notes: { path: string; content: string }[];
  count: number;
  nextCursor: string | null;
}

/** A note's frontmatter, read as memsvc's importer reads a markdown file's. */
function frontmatterOf(content: string): Record<string, unknown> {
  const split = splitFrontmatter(content);
  if (isFrontmatterError(split)) throw new Error(split.error);
  return split.data;
}

describe('export_memories as markdown', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });
  const open = async (vectors?: Record<string, readonly number[]>) => {
    const connection = await connectedClient(vectors);
    closers.push(connection.close);
    return connection;
  };
  const call = async (client: Client, name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    return { isError: result.isError === true, structured: result.structuredContent as Record<string, unknown> };
  };
  const markdownPage = async (client: Client, args: Record<string, unknown>) =>
    (await call(client, 'export_memories', { format: 'markdown', ...args })).structured as unknown as MarkdownResult;

  it("pages the caller's memories as one note each, in id order, with the same cursor and filters as jsonl", async () => {
    const { client, clock } = await open();
    const ids: string[] = [];
    for (let i = 0; i < 5; i += 1) {
      const created = await call(client, 'create_memory', {
        content: `fact ${i}\n---\nid: forged`,
        type: i === 4 ? 'short-term' : 'long-term',
        tags: [`t${i % 2}`],
      });
      ids.push((created.structured.memory as { id: string }).id);
      clock.advance(1000);
    }
    await call(client, 'create_memory', { userId: 'bob', content: "bob's fact", type: 'long-term' });

    const notes: { path: string; content: string }[] = [];
    let cursor: string | null = null;
    do {
      const page: MarkdownResult = await markdownPage(client, { limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.format).toBe('markdown');
      expect(page).not.toHaveProperty('lines');
      expect(page.count).toBe(page.notes.length);
      expect(page.count).toBeLessThanOrEqual(2);
      notes.push(...page.notes);
      cursor = page.nextCursor;
    } while (cursor !== null);

    expect(notes.map((note) => note.path)).toEqual(ids.map((id, i) => `${i === 4 ? 'stm' : 'ltm'}/${id}.md`));
    notes.forEach((note, i) => {
      expect(frontmatterOf(note.content)).toMatchObject({ id: ids[i], tier: i === 4 ? 'stm' : 'ltm', tags: [`t${i % 2}`], version: 1 });
      expect(note.content.endsWith(`---\nfact ${i}\n---\nid: forged\n`)).toBe(true);
    });
    expect(notes.map((note) => note.content).join('')).not.toContain("bob's fact");

    const tagged = await markdownPage(client, { tags: ['t1'], tier: 'ltm' });
    expect(tagged.notes.map((note) => frontmatterOf(note.content).id)).toEqual([ids[1], ids[3]]);
  });

  it('links a note to the notes it links to, by their file names', async () => {
    const { client } = await open({ 'Alice drinks tea': [1, 0], 'Alice drinks coffee': [0.9, Math.sqrt(1 - 0.81)] });
    const tea = await call(client, 'create_memory', { content: 'Alice drinks tea', type: 'long-term' });
    const coffee = await call(client, 'create_memory', { content: 'Alice drinks coffee', type: 'long-term' });
    expect(coffee.structured).toMatchObject({ memory: { contradicted: true } });
    const page = await markdownPage(client, {});
    const [teaNote, coffeeNote] = page.notes;
    const teaId = (tea.structured.memory as { id: string }).id;
    const coffeeId = (coffee.structured.memory as { id: string }).id;
    expect(coffeeNote?.content).toContain(`## Links\n\n- contradicts [[${teaId}]]\n`);
    expect(frontmatterOf(coffeeNote?.content ?? '')).toMatchObject({ contradicted: true, links: [{ rel: 'contradicts', target: teaId }] });
    expect(teaNote?.content).toContain(`[[${coffeeId}]]`);
    expect(teaNote?.path).toBe(`ltm/${teaId}.md`);
  });

  it('ends a page early at the same byte budget as jsonl', async () => {
    const { client } = await open();
    const filler = 'x'.repeat(10_000);
    for (let i = 0; i < 260; i += 1) await call(client, 'create_memory', { content: `${i} ${filler}`, type: 'long-term' });
    const page = await markdownPage(client, { limit: 2000 });
    expect(page.count).toBeGreaterThan(100);
    expect(page.count).toBeLessThan(260);
    expect(page.notes.reduce((bytes, note) => bytes + note.path.length + note.content.length, 0)).toBeLessThanOrEqual(2 * 1024 * 1024);
    const rest = await markdownPage(client, { limit: 2000, cursor: page.nextCursor });
    expect(page.count + rest.count).toBe(260);
    expect(rest.nextCursor).toBeNull();
  });

  it('refuses the options only the lossless jsonl carries, naming the field', async () => {
    const { client } = await open();
    for (const field of ['includeHistory', 'includeAudit', 'includeVectors']) {
      const refused = await call(client, 'export_memories', { format: 'markdown', [field]: true });
      expect(refused).toMatchObject({ isError: true, structured: { error: { code: 'INVALID_INPUT', data: { field } } } });
    }
    const badCursor = await call(client, 'export_memories', { format: 'markdown', cursor: 'not-a-cursor' });
    expect(badCursor).toMatchObject({ isError: true, structured: { error: { code: 'INVALID_INPUT', data: { field: 'cursor' } } } });
  });
});
