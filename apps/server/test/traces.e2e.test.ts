import { connect as connectTcp, type Socket } from 'node:net';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifies } from '../../../packages/core/test/requirements.js';
import {
  type CollectedSpan,
  type CollectorBehaviour,
  childrenOf,
  type OtlpCollector,
  startOtlpCollector,
  unusedLoopbackEndpoint,
} from '../../../tooling/vitest/otlp-collector.ts';
import { runUntilExit, type ServerProcess, startHttpServer } from './support/server-process.js';
import { call, e2eEngines } from './support/tool-calls.js';

const API_KEY = 'trace-e2e-bearer-key-5c1f9a';
const ADMIN_TOKEN = 'trace-e2e-admin-token-77d0b3';
const TENANT = 'zephyrine@example.com';
const CONTENT = 'Zephyrine keeps her passport under the loose floorboard';
const QUERY = 'where does Zephyrine hide the passport';
const METADATA_VALUE = 'attic-by-the-chimney';

/** memsvc over HTTP with a bearer key, its spans going to `endpoint`. */
function serverEnv(database: string, endpoint: string): Record<string, string> {
  return {
    DATABASE_URL: database,
    DEPLOYMENT_PROFILE: 'lite',
    AUTH_REQUIRED: 'true',
    JWT_SECRET: 't'.repeat(40),
    MEMSVC_API_KEY: API_KEY,
    MEMSVC_DEFAULT_USER_ID: TENANT,
    MCP_ADMIN_TOKEN: ADMIN_TOKEN,
    OTEL_EXPORTER_OTLP_ENDPOINT: endpoint,
    OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=e2e,team=memory%20platform',
  };
}

async function connect(server: ServerProcess): Promise<Client> {
  const client = new Client({ name: 'traces-e2e', version: '0.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { authorization: `Bearer ${API_KEY}` } } }),
  );
  return client;
}

/** A TCP connection to the server on which nothing is ever sent. */
function silentConnection(url: string): Promise<Socket> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connectTcp(Number(port), hostname, () => resolve(socket));
    socket.once('error', reject);
  });
}

function only(spans: readonly CollectedSpan[], name: string): CollectedSpan {
  const found = spans.filter((span) => span.name === name);
  expect(found, `exactly one span ${name}`).toHaveLength(1);
  return found[0] as CollectedSpan;
}

function parentOf(spans: readonly CollectedSpan[], child: CollectedSpan): CollectedSpan | undefined {
  return spans.find((span) => span.traceId === child.traceId && span.spanId === child.parentSpanId);
}

/** Spec §6 rule 2 end to end: the built server, a real MCP client, spans at a loopback collector. */
describe.each(e2eEngines('memsvc_traces'))('traces over OTLP/HTTP [$name]', (engine) => {
  let collector: OtlpCollector;
  let server: ServerProcess;
  let spans: CollectedSpan[];
  let exitCode: number | null;

  beforeAll(async () => {
    collector = await startOtlpCollector();
    server = await startHttpServer(serverEnv(await engine.database(), collector.endpoint));
    const client = await connect(server);
    const created = await call(client, 'create_memory', {
      content: CONTENT,
      type: 'long-term',
      tags: ['travel'],
      metadata: { hidingPlace: METADATA_VALUE },
    });
    expect(created.isError).toBe(false);
    expect((await call(client, 'recall', { query: QUERY })).body.count).toBeGreaterThan(0);
    expect((await call(client, 'reindex_memories', { adminToken: ADMIN_TOKEN, reuseExistingEmbeddings: false })).isError).toBe(false);
    await client.close();
    // Shutdown flushes what is still queued.
    exitCode = await server.stop();
    spans = collector.spans();
  });
  afterAll(async () => {
    await collector?.close();
  });

  it('names the service and carries OTEL_RESOURCE_ATTRIBUTES on every span', () => {
    expect(exitCode).toBe(0);
    expect(collector.requests().every((request) => request.path === '/v1/traces')).toBe(true);
    expect(spans.length).toBeGreaterThan(10);
    for (const span of spans) {
      expect(span.resource).toMatchObject({
        'service.name': 'memsvc-mcp-server',
        'deployment.environment': 'e2e',
        team: 'memory platform',
      });
    }
  });

  it('traces a create: POST /mcp → mcp.tool create_memory → memory.create → embed and database → statements', () => {
    const tool = only(spans, 'mcp.tool create_memory');
    expect(tool.attributes).toMatchObject({
      'mcp.tool.name': 'create_memory',
      'memsvc.tool.kind': 'memory',
      'memsvc.tool.status': 'success',
      'memsvc.memory.tier': 'ltm',
    });
    const request = parentOf(spans, tool);
    expect(request?.name).toBe('POST /mcp');
    expect(request?.attributes).toMatchObject({ 'http.request.method': 'POST', 'http.route': '/mcp', 'http.response.status_code': 200 });
    expect(request?.parentSpanId).toBe('');
    const create = only(spans, 'memory.create');
    expect(parentOf(spans, create)).toBe(tool);
    expect(create.attributes).toMatchObject({ 'memsvc.memory.outcome': 'created', 'memsvc.memory.embedded': true });
    expect(create.attributes['memsvc.memory.id']).toMatch(/^[0-9a-f-]{36}$/);
    const stages = childrenOf(spans, create);
    expect(stages.map((span) => span.name)).toEqual(expect.arrayContaining(['embed', 'database']));
    const write = stages.find((span) => span.name === 'database' && span.attributes['memsvc.db.step'] === 'write');
    const statements = write ? childrenOf(spans, write) : [];
    expect(statements.map((span) => span.name)).toEqual(expect.arrayContaining(['BEGIN', 'COMMIT']));
    for (const statement of statements) {
      expect(statement.attributes).toEqual({
        'db.system': 'postgresql',
        'db.operation.name': statement.name,
        'memsvc.db.engine': engine.name,
      });
    }
  });

  it('traces a recall: mcp.tool recall → memory.recall → embed, database (with its statements) and rank', () => {
    const recall = only(spans, 'memory.recall');
    expect(parentOf(spans, recall)?.name).toBe('mcp.tool recall');
    expect(recall.attributes['memsvc.recall.results']).toBeGreaterThan(0);
    const stages = childrenOf(spans, recall);
    // The hits' access counts are recorded after the answer, in a stage of their own.
    expect(stages.map((span) => [span.name, span.attributes['memsvc.db.step']])).toEqual([
      ['embed', undefined],
      ['database', 'recall-candidates'],
      ['rank', undefined],
      ['database', 'record-access'],
    ]);
    for (const database of stages.filter((span) => span.name === 'database')) expect(childrenOf(spans, database).length).toBeGreaterThan(0);
  });

  it('traces a reindex: mcp.tool reindex_memories → memory.reindex with its counts and batch stages', () => {
    const reindex = only(spans, 'memory.reindex');
    expect(parentOf(spans, reindex)?.name).toBe('mcp.tool reindex_memories');
    expect(reindex.attributes).toMatchObject({
      'memsvc.reindex.reuse_existing': false,
      'memsvc.reindex.processed': 1,
      'memsvc.reindex.indexed': 1,
      'memsvc.reindex.stopped_by': 'end',
    });
    expect(childrenOf(spans, reindex).map((span) => span.name)).toEqual(expect.arrayContaining(['database', 'embed']));
  });

  it('writes the trace and span ids into the log lines of the call', () => {
    const tool = only(spans, 'mcp.tool reindex_memories');
    const line = server
      .stderr()
      .split('\n')
      .filter((entry) => entry.includes('"admin_auth_ok"'))
      .map((entry) => JSON.parse(entry) as Record<string, unknown>)[0];
    expect(line).toMatchObject({ trace_id: tool.traceId, span_id: tool.spanId });
  });

  it('sends no memory content, query, metadata value, tenant, bearer key or admin token to the collector', () => {
    const payload = collector.rawBodies().join('\n');
    expect(payload.length).toBeGreaterThan(0);
    for (const secret of [
      CONTENT,
      'passport',
      'floorboard',
      QUERY,
      METADATA_VALUE,
      'hidingPlace',
      TENANT,
      'zephyrine',
      API_KEY,
      ADMIN_TOKEN,
    ]) {
      expect(payload.toLowerCase()).not.toContain(secret.toLowerCase());
    }
  });
});

describe('a failing collector never slows or fails a tool call [pglite]', () => {
  const cases: { name: string; collector: () => Promise<{ endpoint: string; close(): Promise<void> }> }[] = [
    { name: 'down', collector: async () => ({ endpoint: await unusedLoopbackEndpoint(), close: async () => undefined }) },
    { name: 'answering 500', collector: () => startOtlpCollector('error' satisfies CollectorBehaviour) },
    { name: 'taking 10 s to answer', collector: () => startOtlpCollector({ delayMs: 10_000 }) },
    { name: 'accepting and never answering', collector: () => startOtlpCollector({ delayMs: 600_000 }) },
  ];

  it.each(cases)(
    verifies('R-SHUTDOWN-BOUNDED', 'collector $name: calls succeed promptly, drops are counted, and SIGTERM stops the server within 8 s'),
    async (scenario) => {
      const collector = await scenario.collector();
      const server = await startHttpServer(serverEnv('pglite://memory', collector.endpoint));
      let spare: Socket | undefined;
      try {
        const client = await connect(server);
        // A call that waited on the exporter would take its 5 s timeout (or the collector's 10 s):
        // each call is held well under that, whatever else the machine is running.
        const timed = async (tool: string, args: Record<string, unknown>) => {
          const started = performance.now();
          expect((await call(client, tool, args)).isError).toBe(false);
          return performance.now() - started;
        };
        const durations: number[] = [];
        for (let round = 0; round < 3; round++) {
          durations.push(await timed('create_memory', { content: `fact number ${round}`, type: 'long-term' }));
          durations.push(await timed('recall', { query: `fact ${round}` }));
        }
        expect(Math.max(...durations)).toBeLessThan(3_000);
        await client.close();

        // The exporter gives up after its 5 s timeout at the latest; the drops are then counted.
        const deadline = Date.now() + 20_000;
        let dropped = 0;
        while (dropped === 0 && Date.now() < deadline) {
          const text = await (await fetch(`${server.url}/health/metrics`)).text();
          dropped = Number(/^memsvc_trace_spans_dropped_total\{reason="export_failed"\} (\d+)/m.exec(text)?.[1] ?? 0);
          if (dropped === 0) await new Promise((resolve) => setTimeout(resolve, 250));
        }
        expect(dropped).toBeGreaterThan(0);
        // The log line follows the count by a moment (the logger writes asynchronously).
        await expect.poll(() => server.stderr(), { timeout: 5_000 }).toContain('trace export to the OTLP collector failed');
        // A connection a client opened and has sent nothing on yet (a pool's spare, a preconnect): on
        // a loaded CI run one such socket held the stop for 60 s, while the jobs went on starting.
        spare = await silentConnection(server.url);
      } finally {
        const stopping = performance.now();
        const exitCode = await server.stop();
        // Shutdown flushes for 2 s at most, whatever the collector does, and the whole stop keeps
        // within MEMSVC_SHUTDOWN_TIMEOUT_MS (10 s); 8 s leaves the flush, the database and a loaded
        // machine their time. The server's log says where the time went, should it fail.
        expect(performance.now() - stopping, `the server's log:\n${server.stderr().slice(-6_000)}`).toBeLessThan(8_000);
        expect(exitCode).toBe(0);
        spare?.destroy();
        await collector.close();
      }
    },
  );
});

describe('a tracing endpoint the server cannot use', () => {
  it.each([
    'localhost:4318',
    'collector.internal:4318/v1',
    'grpc://collector:4317',
  ])('refuses to boot with %s, naming the variable', async (endpoint) => {
    const { code, stderr } = await runUntilExit({ DATABASE_URL: 'pglite://memory', OTEL_EXPORTER_OTLP_ENDPOINT: endpoint });
    expect(code).toBe(2);
    expect(stderr).toContain('OTEL_EXPORTER_OTLP_ENDPOINT: must be a URL starting with http:// or https://');
  });
});
