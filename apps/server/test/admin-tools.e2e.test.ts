import { ADMIN_TOOLS } from '@memsvc/mcp-tools';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, e2eEngines, type Structured } from './support/tool-calls.js';
import { TOOL_CONNECTIONS, type ToolConnection } from './support/tool-connections.js';

const ADMIN_TOKEN = 'an-admin-token-for-tests-0123456789';

const engines = e2eEngines('memsvc_admin');

const cases = engines.flatMap((engine) => TOOL_CONNECTIONS.map((connection) => ({ ...connection, engine, name: engine.name })));

describe.each(cases)('admin tools over $transport: consolidation and reindex [$name]', ({ engine, connect, transport }) => {
  let connection: ToolConnection;
  let client: Client;
  beforeAll(async () => {
    connection = await connect({
      DATABASE_URL: await engine.database(),
      DEPLOYMENT_PROFILE: 'lite',
      EMBEDDING_PROVIDER: 'local',
      MCP_ADMIN_TOKEN: ADMIN_TOKEN,
      STM_CONSOLIDATION_ACCESS_THRESHOLD: '2',
      // The admin lines are on record whatever the level (spec §5.6): in process, this level drops
      // every other info line and warning. (The HTTP helper waits for the server's info line that it listens.)
      ...(transport === 'in-process' ? { LOG_LEVEL: 'error' } : {}),
    });
    client = connection.client;
  });
  afterAll(async () => {
    await connection?.close();
  });

  const adminLines = () =>
    connection
      .logText()
      .split('\n')
      .filter((line) => line.includes('"admin_auth_'))
      .map((line) => JSON.parse(line) as Structured);

  it('advertises adminToken as a required argument of every admin tool', async () => {
    const adminTools = (await client.listTools()).tools.filter((tool) => 'adminToken' in (tool.inputSchema.properties ?? {}));
    expect(adminTools.map((tool) => tool.name).sort()).toEqual([...ADMIN_TOOLS].sort());
    for (const tool of adminTools) expect(tool.inputSchema.required, tool.name).toContain('adminToken');
  });

  it('refuses a missing or wrong token and malformed arguments, logs every call, and never logs the token', async () => {
    const before = adminLines().length;
    const missing = await call(client, 'reindex_memories', {});
    expect(missing).toMatchObject({ isError: true, body: { error: { code: 'INVALID_INPUT', data: { field: 'adminToken' } } } });
    const wrong = await call(client, 'get_reindex_status', { adminToken: 'not-the-token', jobId: '00000000-0000-7000-8000-000000000000' });
    expect(wrong.body.error.code).toBe('FORBIDDEN');
    const tooBig = await call(client, 'reindex_memories', { adminToken: ADMIN_TOKEN, batchSize: 1001 });
    expect(tooBig.body.error).toMatchObject({ code: 'INVALID_INPUT', data: { field: 'batchSize' } });
    const zero = await call(client, 'queue_reindex_memories', { adminToken: ADMIN_TOKEN, batchSize: 0 });
    expect(zero.body.error).toMatchObject({ code: 'INVALID_INPUT', data: { field: 'batchSize' } });
    const ok = await call(client, 'consolidate_memories', { adminToken: ADMIN_TOKEN });
    expect(ok.isError).toBe(false);

    // The log reaches us through the child's stderr pipe, which may lag the HTTP answer.
    for (let wait = 0; wait < 100 && adminLines().length < before + 5; wait++) await new Promise((resolve) => setTimeout(resolve, 20));
    const lines = adminLines().slice(before);
    expect(lines.map((line) => [line.msg, line.tool, line.reason])).toEqual([
      ['admin_auth_denied', 'reindex_memories', 'invalid-arguments'],
      ['admin_auth_denied', 'get_reindex_status', 'wrong-token'],
      ['admin_auth_denied', 'reindex_memories', 'invalid-arguments'],
      ['admin_auth_denied', 'queue_reindex_memories', 'invalid-arguments'],
      ['admin_auth_ok', 'consolidate_memories', undefined],
    ]);
    expect(connection.logText()).not.toContain(ADMIN_TOKEN);
    expect(connection.logText()).not.toContain('not-the-token');
  });

  it('reindex_memories backfills and resumes; recreate on a scoped run is refused, not ignored', async () => {
    for (let i = 0; i < 5; i++) {
      await call(client, 'create_memory', { userId: 'ops', content: `runbook step ${i}: restart the ${i} service`, type: 'long-term' });
    }
    const partial = await call(client, 'reindex_memories', { adminToken: ADMIN_TOKEN, userId: 'ops', batchSize: 2, maxMemories: 3 });
    expect(partial.body).toMatchObject({ scope: 'ops', processed: 3, skipped: 3, indexed: 0, stoppedBy: 'max-memories' });
    const rest = await call(client, 'reindex_memories', {
      adminToken: ADMIN_TOKEN,
      userId: 'ops',
      cursor: partial.body.cursor,
      reuseExistingEmbeddings: false,
    });
    expect(rest.body).toMatchObject({ processed: 2, indexed: 2, cursor: null, stoppedBy: 'end' });
    const refused = await call(client, 'reindex_memories', { adminToken: ADMIN_TOKEN, userId: 'ops', recreate: true });
    expect(refused.body.error).toMatchObject({ code: 'INVALID_INPUT', data: { field: 'recreate' } });
    const badCursor = await call(client, 'reindex_memories', { adminToken: ADMIN_TOKEN, cursor: 'not-an-id' });
    expect(badCursor.body.error).toMatchObject({ code: 'INVALID_INPUT', data: { field: 'cursor' } });
  });

  it('a queued job runs in the lite server, reports its progress, and refuses impossible transitions', async () => {
    const completedRuns = async () =>
      Number(/memsvc_reindex_operations_total\{status="completed"\} (\d+)/.exec(await connection.metricsText())?.[1] ?? 0);
    const completedBefore = await completedRuns();
    const queued = await call(client, 'queue_reindex_memories', { adminToken: ADMIN_TOKEN, reuseExistingEmbeddings: false, batchSize: 2 });
    expect(queued.body).toMatchObject({ state: 'queued' });
    const jobId = queued.body.jobId as string;
    let status: Structured = {};
    for (let attempt = 0; attempt < 300; attempt++) {
      status = (await call(client, 'get_reindex_status', { adminToken: ADMIN_TOKEN, jobId })).body;
      if (status.state === 'completed' || status.state === 'failed') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(status).toMatchObject({ jobId, state: 'completed', attempts: 1, progress: { failed: 0, cursor: null } });
    expect(status.progress.processed).toBeGreaterThanOrEqual(5);
    expect((await call(client, 'cancel_reindex_job', { adminToken: ADMIN_TOKEN, jobId })).body.error.code).toBe('CONFLICT');
    expect((await call(client, 'retry_reindex_job', { adminToken: ADMIN_TOKEN, jobId })).body.error.code).toBe('CONFLICT');
    const unknown = await call(client, 'get_reindex_status', { adminToken: ADMIN_TOKEN, jobId: '00000000-0000-7000-8000-000000000000' });
    expect(unknown.body.error.code).toBe('NOT_FOUND');
    // Synchronous runs and jobs count by how they ended; this job adds one `completed`.
    expect((await completedRuns()) - completedBefore).toBe(1);
  });

  it('consolidate_memories promotes a short-term memory read often enough; consolidate_corpus dry-runs by default', async () => {
    const note = await call(client, 'create_memory', { userId: 'dana', content: 'Dana is on call this week', type: 'short-term' });
    const id = note.body.memory.id as string;
    for (let i = 0; i < 2; i++) await call(client, 'get_memory', { userId: 'dana', memoryId: id });
    const pass = await call(client, 'consolidate_memories', { adminToken: ADMIN_TOKEN, userId: 'dana' });
    expect(pass.body).toMatchObject({ promoted: 1, promotedIds: [id] });
    expect((await call(client, 'get_memory', { userId: 'dana', memoryId: id })).body.memory.type).toBe('long-term');
    const corpus = await call(client, 'consolidate_corpus', { adminToken: ADMIN_TOKEN });
    expect(corpus.body).toMatchObject({ dryRun: true, merged: 0 });
    const metrics = await connection.metricsText();
    // The spec's promotion counters are the scheduler's; an operator's pass counts as the tool call it is.
    expect(metrics).toMatch(/memsvc_memories_promoted_total 0/);
    expect(metrics).toMatch(/memsvc_memory_operations_total\{op="consolidate_memories",tier="none",status="success"\} [1-9]/);
  });
});
