import { ADMIN_TOOLS, TOOL_NAMES } from '@memsvc/mcp-tools';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serverBin, serverEnv } from './support/server-process.js';
import { call, e2eEngines, errorCode, type Structured } from './support/tool-calls.js';
import { TOOL_CONNECTIONS, type ToolConnection } from './support/tool-connections.js';

const engines = e2eEngines('memsvc_tools');
const cases = engines.flatMap((engine) => TOOL_CONNECTIONS.map((connection) => ({ ...connection, engine, name: engine.name })));

describe.each(cases)('memory tools over $transport [$name]', ({ engine, connect }) => {
  let connection: ToolConnection;
  let client: Client;
  beforeAll(async () => {
    connection = await connect({ DATABASE_URL: await engine.database(), DEPLOYMENT_PROFILE: 'lite', EMBEDDING_PROVIDER: 'local' });
    client = connection.client;
  });
  afterAll(async () => {
    await connection?.close();
  });

  it('R-TOOLS-OFFERED: lists every tool (MCP_TOOL_SETS=all: spec §4.3 and the connectors) but the admin tools, as MCP_ADMIN_TOKEN is not set', async () => {
    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(TOOL_NAMES.filter((tool) => !ADMIN_TOOLS.has(tool)).sort());
    expect(names).toHaveLength(27);
  });

  it('creates, reads, updates, deletes and restores a memory, with versions and an audit trail', async () => {
    const created = await call(client, 'create_memory', {
      userId: 'alice',
      content: 'Alice prefers tabs over spaces',
      type: 'long-term',
      tags: ['prefs'],
      metadata: { source: 'chat' },
    });
    expect(created.isError).toBe(false);
    // A write's result is lean (docs/tools.md#what-a-write-returns): the whole record is get_memory's.
    const id = created.body.memory.id as string;
    expect(created.body).toEqual({ outcome: 'created', wasDeduped: false, embedded: true, memory: { id, version: 1 } });

    expect((await call(client, 'get_memory', { userId: 'alice', memoryId: id })).body).toMatchObject({
      found: true,
      memory: {
        id,
        content: 'Alice prefers tabs over spaces',
        type: 'long-term',
        version: 1,
        hasEmbedding: true,
        tags: ['prefs'],
        accessCount: 1,
      },
    });
    expect((await call(client, 'get_memory', { userId: 'alice', memoryId: id })).body.memory).not.toHaveProperty('embedding');

    const updated = await call(client, 'update_memory', {
      userId: 'alice',
      memoryId: id,
      expectedVersion: 1,
      content: 'Alice prefers tabs, width 4',
      metadata: { reviewed: true },
    });
    expect(updated.body).toEqual({ memory: { id, version: 2 } });
    expect((await call(client, 'get_memory', { userId: 'alice', memoryId: id })).body.memory).toMatchObject({
      version: 2,
      content: 'Alice prefers tabs, width 4',
      metadata: { source: 'chat', reviewed: true },
      tags: ['prefs'],
    });

    const stale = await call(client, 'update_memory', { userId: 'alice', memoryId: id, expectedVersion: 1, content: 'lost update' });
    expect(stale).toMatchObject({ isError: true, body: { error: { code: 'CONFLICT', data: { currentVersion: 2 } } } });

    expect((await call(client, 'delete_memory', { userId: 'alice', memoryId: id })).body).toEqual({ deleted: true, memoryId: id });
    expect(await errorCode(client, 'get_memory', { userId: 'alice', memoryId: id })).toBe('NOT_FOUND');
    expect((await call(client, 'restore_memory', { userId: 'alice', memoryId: id })).body.memory).toEqual({
      id,
      version: 4,
      content: 'Alice prefers tabs, width 4',
    });
    expect((await call(client, 'restore_memory', { userId: 'alice', memoryId: id, version: '1' })).body.memory).toMatchObject({
      content: 'Alice prefers tabs over spaces',
      version: 5,
    });

    const audit = await call(client, 'get_memory_audit', { userId: 'alice', memoryId: id });
    expect(audit.body.entries.map((entry: Structured) => entry.action)).toEqual(['restore', 'restore', 'delete', 'update', 'create']);
  });

  it('collapses a duplicate, and two concurrent identical writes leave one memory', async () => {
    const results = await Promise.all(
      [1, 2, 3].map(() =>
        call(client, 'create_memory', { userId: 'dup', content: 'The staging database is on port 5433', type: 'long-term' }),
      ),
    );
    expect(new Set(results.map((result) => result.body.memory.id)).size).toBe(1);
    expect(results.filter((result) => result.body.outcome === 'created')).toHaveLength(1);
    const again = await call(client, 'create_memory', {
      userId: 'dup',
      content: 'the staging database is on port 5433.',
      type: 'long-term',
    });
    expect(again.body).toMatchObject({ outcome: 'duplicate', wasDeduped: true });
    expect((await call(client, 'list_memories', { userId: 'dup' })).body.memories).toHaveLength(1);
  });

  it('pages across both tiers without gaps or repeats, and promotes and re-embeds', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      const result = await call(client, 'create_memory', {
        userId: 'pager',
        content: `note number ${i} about topic ${'abcde'[i]}`,
        type: i % 2 ? 'short-term' : 'long-term',
        ttl: 3600,
      });
      ids.push(result.body.memory.id);
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await call(client, 'list_memories', { userId: 'pager', limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.body.memories.map((memory: Structured) => memory.id));
      cursor = page.body.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toEqual([...ids].reverse());
    expect((await call(client, 'list_memories', { userId: 'pager', type: 'short-term' })).body.memories).toHaveLength(2);

    const promoted = await call(client, 'promote_memory', { userId: 'pager', memoryId: ids[1] });
    expect(promoted.body).toMatchObject({
      promoted: true,
      outcome: 'promoted',
      memory: { id: ids[1], version: 2 },
    });
    expect((await call(client, 'get_memory', { userId: 'pager', memoryId: ids[1] })).body.memory).toMatchObject({
      type: 'long-term',
      expiresAt: null,
    });
    // Only the id, the version, the markers that are set and the model (the notes may mark one another replaced).
    expect((await call(client, 'reembed_memory', { userId: 'pager', memoryId: ids[0] })).body).toMatchObject({
      memory: { id: ids[0], version: 1 },
      embeddingModel: 'memsvc-local-v1',
    });

    const bulk = await call(client, 'bulk_delete_memories', {
      userId: 'pager',
      memoryIds: [ids[2], ids[3], '00000000-0000-7000-8000-000000000000'],
    });
    expect(bulk.body).toMatchObject({ deletedCount: 2, failedCount: 1, failed: [{ reason: 'not-found' }] });
  });

  it('answers bad input with typed errors naming the field, and changes nothing', async () => {
    const before = (await call(client, 'list_memories', { userId: 'strict' })).body.memories.length;
    const missing = await call(client, 'create_memory', { userId: 'strict', type: 'long-term' });
    expect(missing).toMatchObject({ isError: true, body: { error: { code: 'INVALID_INPUT', data: { field: 'content' } } } });
    expect(await errorCode(client, 'no_such_tool', {})).toBe('NOT_FOUND');
    // Text PostgreSQL cannot store, and nesting past the limit: typed, named, and nothing written.
    // 40 levels: past metadata's 32, within the 64 that HTTP reads at all (deeper bodies are
    // refused before parsing, mcp-edge.test.ts), so both transports reach the tool's own check.
    let deep: unknown = 1;
    for (let i = 0; i < 40; i++) deep = { a: deep };
    for (const [tool, args, field] of [
      ['create_memory', { userId: 'strict', content: 'a\u0000b', type: 'long-term' }, 'content'],
      ['create_memory', { userId: 'strict', content: 'x', type: 'long-term', metadata: { note: '\ud800' } }, 'metadata.note'],
      ['create_memory', { userId: 'strict', content: 'x', type: 'long-term', metadata: deep }, 'metadata'],
      ['recall', { userId: 'strict', query: 'x', scope: '\u0000' }, 'scope'],
      ['list_memories', { userId: 'strict', tags: ['\udc00'] }, 'tags.0'],
      // What create_memory and update_memory store is checked once, by the engine (core's rules).
      ['create_memory', { userId: 'strict', content: 'x', type: 'long-term', tags: ['\udc00'] }, 'tags'],
      ['create_memory', { userId: 'strict', content: 'x', type: 'long-term', scope: 'a\u0000' }, 'scope'],
      ['create_memory', { userId: 'strict', content: 'x', type: 'long-term', supersedes: ['a\u0000'] }, 'supersedes'],
    ] as const) {
      expect(await call(client, tool, args), `${tool} ${field}`).toMatchObject({
        isError: true,
        body: { error: { code: 'INVALID_INPUT', data: { field } } },
      });
    }
    const stored = (await call(client, 'create_memory', { userId: 'strict-update', content: 'kept', type: 'long-term' })).body.memory;
    const unstorableUpdate = await call(client, 'update_memory', {
      userId: 'strict-update',
      memoryId: stored.id,
      expectedVersion: stored.version,
      tags: ['ok', 'a\u0000'],
      metadata: { note: '\ud800' },
    });
    expect(unstorableUpdate).toMatchObject({ isError: true, body: { error: { code: 'INVALID_INPUT', data: { field: 'metadata.note' } } } });
    const unstorableId = await call(client, 'update_memory', {
      userId: 'strict-update',
      memoryId: 'a\u0000',
      expectedVersion: 1,
      content: 'x',
    });
    expect(unstorableId).toMatchObject({ isError: true, body: { error: { code: 'NOT_FOUND' } } });
    expect((await call(client, 'get_memory', { userId: 'strict-update', memoryId: stored.id })).body.memory).toMatchObject({
      version: stored.version,
      content: 'kept',
    });
    const unknownArgument = await call(client, 'create_memory', { userId: 'strict', content: 'x', type: 'long-term', bogusField: 1 });
    expect(unknownArgument).toMatchObject({ isError: true, body: { error: { code: 'INVALID_INPUT', data: { field: 'bogusField' } } } });
    const wrongType = await client.callTool({ name: 'create_memory', arguments: { userId: 'strict', content: 42, type: 'long-term' } });
    expect(wrongType.isError).toBe(true);
    const oversize = await client.callTool({
      name: 'create_memory',
      arguments: { userId: 'strict', content: 'x'.repeat(10_241), type: 'long-term' },
    });
    expect(oversize.isError).toBe(true);
    expect(await errorCode(client, 'create_memory', { userId: 'bad user id', content: 'x', type: 'long-term' })).toBe('INVALID_INPUT');
    expect(await errorCode(client, 'get_memory', { userId: 'strict', memoryId: 'no-such-id' })).toBe('NOT_FOUND');
    expect(
      await errorCode(client, 'update_memory', {
        userId: 'strict',
        memoryId: '00000000-0000-7000-8000-000000000000',
        expectedVersion: 1,
        content: 'x',
      }),
    ).toBe('NOT_FOUND');

    const mine = await call(client, 'create_memory', { userId: 'owner', content: 'owner secret plan', type: 'long-term' });
    const theirs = { userId: 'strict', memoryId: mine.body.memory.id };
    expect(await errorCode(client, 'get_memory', theirs)).toBe('NOT_FOUND');
    expect(await errorCode(client, 'update_memory', { ...theirs, expectedVersion: 1, content: 'hijacked' })).toBe('NOT_FOUND');
    expect((await call(client, 'delete_memory', theirs)).body.deleted).toBe(false);
    expect((await call(client, 'get_memory', { userId: 'owner', memoryId: mine.body.memory.id })).body.memory.content).toBe(
      'owner secret plan',
    );

    expect((await call(client, 'list_memories', { userId: 'strict' })).body.memories.length).toBe(before);
    expect((await call(client, 'ping', {})).isError).toBe(false);
  });

  it('recalls by meaning and words, with filters and typed errors for bad filters', async () => {
    for (const content of [
      'The staging cluster runs Kubernetes 1.29 on three nodes',
      'Lunch on Fridays is at the ramen place near the office',
      'Kubernetes upgrades happen on the first Monday of the month',
    ]) {
      expect((await call(client, 'create_memory', { userId: 'recaller', content, type: 'long-term', tags: ['infra'] })).isError).toBe(
        false,
      );
    }
    const found = await call(client, 'recall', { userId: 'recaller', query: 'when do we upgrade kubernetes?', limit: '2' });
    expect(found.isError).toBe(false);
    expect(found.body).toMatchObject({ vector: true, semantic: false, count: 2 });
    expect(found.body.results[0]).toMatchObject({ text: expect.stringMatching(/upgrades happen/), tags: ['infra'] });
    expect(found.body.results[0].score).toBeGreaterThan(found.body.results[1].score);
    expect((await call(client, 'recall', { userId: 'recaller', query: 'kubernetes', tags: ['infra', 'other'] })).body.count).toBe(0);
    expect((await call(client, 'recall', { userId: 'someone-else', query: 'kubernetes' })).body.count).toBe(0);
    expect(await errorCode(client, 'recall', { userId: 'recaller', query: '' })).toBe('INVALID_INPUT');
    expect(await errorCode(client, 'recall', { userId: 'recaller', query: 'k8s', createdFrom: 'last tuesday' })).toBe('INVALID_INPUT');
    expect(await errorCode(client, 'recall', { userId: 'recaller', query: 'k8s', tags: 'infra' })).toBe('INVALID_INPUT');
    expect(await errorCode(client, 'recall', { userId: 'recaller', query: 'k8s', limit: 1000 })).toBe('INVALID_INPUT');
  });

  it('remembers, primes and packs context, reflects and forgets (restorably) as an agent would', async () => {
    const user = { userId: 'agent-user' };
    const note = await call(client, 'remember', { ...user, content: 'Currently pairing with Eli on the flaky checkout test' });
    expect(note.body).toMatchObject({ resolvedType: 'short-term', wasDeduped: false });
    const fact = await call(client, 'remember', { ...user, content: 'Eli owns the checkout service', tags: ['people'] });
    expect(fact.body.resolvedType).toBe('long-term');
    expect((await call(client, 'remember', { ...user, content: 'eli owns the checkout service' })).body).toMatchObject({
      wasDeduped: true,
      memoryId: fact.body.memoryId,
    });

    const session = await client.callTool({ name: 'load_context', arguments: { ...user, maxChars: 2000 } });
    const [block, figures] = session.content as { type: string; text: string }[];
    expect(block?.text).toContain('<<untrusted-memory>>');
    expect(block?.text).toContain('Currently pairing with Eli');
    expect(JSON.parse(figures?.text ?? '{}')).toMatchObject({ memoryCount: 2, truncated: false });

    const prompt = await call(client, 'prompt_context', { ...user, query: 'who owns checkout?', tokenBudget: 200 });
    expect(prompt.body.memoryIds[0]).toBe(fact.body.memoryId);
    expect(prompt.body.estimatedTokens).toBeLessThanOrEqual(200);
    expect(await errorCode(client, 'prompt_context', { ...user, query: 'x', tokenBudget: 1_000_000_000 })).toBe('INVALID_INPUT');
    expect((await call(client, 'compress_context', { ...user, query: 'checkout', maxChars: 600 })).body.charCount).toBeLessThanOrEqual(600);
    expect((await call(client, 'reflect', { ...user, query: 'checkout Eli' })).body.memoryCount).toBe(2);

    const preview = await call(client, 'forget', { ...user, query: 'checkout service owner' });
    expect(preview.body).toMatchObject({ dryRun: true, deleted: [] });
    const gone = await call(client, 'forget', { ...user, memoryId: fact.body.memoryId, confirm: true });
    expect(gone.body.deleted).toEqual([fact.body.memoryId]);
    expect((await call(client, 'restore_memory', { ...user, memoryId: fact.body.memoryId })).body.restored).toBe(true);

    const turns = [
      { role: 'user', content: 'What is the wifi password in the Porto office?' },
      { role: 'assistant', content: 'It is douro-2026, and it rotates every month.' },
    ];
    const ingested = await call(client, 'ingest_conversation', { ...user, turns, date: '2026-04-30' });
    expect(ingested.body).toMatchObject({ ingested: 2, skipped: 0, total: 2 });
    expect((await call(client, 'ingest_conversation', { ...user, turns, date: '2026-04-30' })).body).toMatchObject({
      ingested: 0,
      skipped: 2,
    });
    expect(await errorCode(client, 'ingest_conversation', { ...user, turns: [] })).toBe('INVALID_INPUT');
  });

  it('counts operations in the metrics', async () => {
    const text = await connection.metricsText();
    expect(text).toMatch(/memsvc_memory_operations_total\{op="create",tier="ltm",status="success"\} \d+/);
    expect(text).toMatch(/memsvc_memory_operation_duration_seconds_count\{op="get",tier="ltm"\} \d+/);
    // A recall without a type searches both tiers, so it has none of its own (docs/operations.md).
    expect(text).toMatch(/memsvc_memory_operations_total\{op="recall",tier="none",status="success"\} \d+/);
    expect(text).not.toMatch(/memsvc_memory_operations_total\{op="recall",tier="ltm"/);
    expect(text).toMatch(/memsvc_agent_memory_operations_total\{agent="local",op="store",status="success"\} \d+/);
  });
});

describe('memory tools over stdio', () => {
  it('creates and reads a memory with MEMSVC_DEFAULT_USER_ID as the tenant', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [serverBin],
      env: serverEnv({ DATABASE_URL: 'pglite://memory', PORT: '0', MEMSVC_DEFAULT_USER_ID: 'desktop-user' }),
      stderr: 'pipe',
    });
    const client = new Client({ name: 'stdio', version: '0.0.0' });
    await client.connect(transport);
    const created = await call(client, 'create_memory', { content: 'Use pnpm in this repository', type: 'long-term' });
    const read = await call(client, 'get_memory', { memoryId: created.body.memory.id });
    expect(read.body.memory).toMatchObject({ userId: 'desktop-user', content: 'Use pnpm in this repository' });
    await client.close();
  });
});
