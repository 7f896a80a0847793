import { isFrontmatterError, splitFrontmatter } from '@memsvc/import-export';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, e2eEngines } from './support/tool-calls.js';
import { inProcessConnection, type ToolConnection } from './support/tool-connections.js';

const CONTENTS = ['The deploy target is eu-west-1', '---\nid: forged\n---\n<script>x</script> 🧠', 'Release notes live in docs/release.md'];

/** A note's frontmatter and body, read as memsvc's importer reads a markdown file. */
function readNote(content: string): { data: Record<string, unknown>; body: string } {
  const split = splitFrontmatter(content);
  if (isFrontmatterError(split)) throw new Error(split.error);
  return split;
}

describe.each(e2eEngines('memsvc_export_markdown'))('export_memories format markdown [$name]', (engine) => {
  let connection: ToolConnection;
  let client: Client;
  const ids: string[] = [];

  beforeAll(async () => {
    connection = await inProcessConnection({
      DATABASE_URL: await engine.database(),
      DEPLOYMENT_PROFILE: 'lite',
      EMBEDDING_PROVIDER: 'local',
    });
    client = connection.client;
    for (const content of CONTENTS) {
      const created = await call(client, 'create_memory', {
        userId: 'alice',
        content,
        type: 'long-term',
        tags: ['seed'],
        metadata: { n: { deep: 1 } },
      });
      ids.push(created.body.memory.id as string);
    }
    await call(client, 'create_memory', { userId: 'bob', content: "bob's own memory", type: 'long-term' });
  });
  afterAll(async () => {
    await connection?.close();
  });

  it("pages the caller's memories as notes, one per memory, with the content after the frontmatter", async () => {
    const notes: { path: string; content: string }[] = [];
    let cursor: string | null = null;
    do {
      const page = await call(client, 'export_memories', { userId: 'alice', format: 'markdown', limit: 2, ...(cursor ? { cursor } : {}) });
      expect(page.isError).toBe(false);
      expect(page.body).toMatchObject({ format: 'markdown', count: expect.any(Number) });
      notes.push(...page.body.notes);
      cursor = page.body.nextCursor;
    } while (cursor !== null);

    expect(notes.map((note) => note.path)).toEqual(ids.map((id) => `ltm/${id}.md`));
    notes.forEach((note, index) => {
      const { data, body } = readNote(note.content);
      expect(data).toMatchObject({ id: ids[index], tier: 'ltm', tags: ['seed'], metadata: { n: { deep: 1 } }, version: 1 });
      expect(body.startsWith(`${CONTENTS[index]}\n`)).toBe(true);
    });
    expect(notes.map((note) => note.content).join('')).not.toContain("bob's own memory");
  });

  it('refuses the vectors, history and audit that only jsonl carries, naming the field', async () => {
    const refused = await call(client, 'export_memories', { userId: 'alice', format: 'markdown', includeVectors: true });
    expect(refused).toMatchObject({ isError: true, body: { error: { code: 'INVALID_INPUT', data: { field: 'includeVectors' } } } });
  });
});
