import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeEmbeddingServer } from '../../../packages/embeddings/test/support/fake-embedding-server.ts';
import { type ServerProcess, startHttpServer } from './support/server-process.js';

// biome-ignore lint/suspicious/noExplicitAny: tool results are arbitrary JSON that the assertions navigate
type Structured = Record<string, any>;

async function connect(server: ServerProcess): Promise<Client> {
  const client = new Client({ name: 'e2e', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  return client;
}

async function call(client: Client, name: string, args: Record<string, unknown>): Promise<Structured> {
  const result = await client.callTool({ name, arguments: args });
  expect(result.isError, JSON.stringify(result.content)).not.toBe(true);
  return result.structuredContent as Structured;
}

describe('the server with an HTTP embedding provider', () => {
  const ollama = new FakeEmbeddingServer(768); // nomic-embed-text's documented size
  beforeAll(async () => {
    await ollama.start();
  });
  afterAll(async () => {
    await ollama.stop();
  });

  it('embeds writes and queries through Ollama, and counts the requests in the metrics', async () => {
    const server = await startHttpServer({
      DATABASE_URL: 'pglite://memory',
      DEPLOYMENT_PROFILE: 'lite',
      EMBEDDING_PROVIDER: 'ollama',
      OLLAMA_URL: ollama.url,
    });
    try {
      const client = await connect(server);
      const created = await call(client, 'create_memory', {
        userId: 'o',
        content: 'The staging cluster runs on ARM nodes',
        type: 'long-term',
      });
      expect(created.embedded).toBe(true);
      const read = await call(client, 'get_memory', { userId: 'o', memoryId: created.memory.id });
      expect(read.memory).toMatchObject({ hasEmbedding: true, embeddingModel: 'nomic-embed-text' });
      expect(await call(client, 'recall', { userId: 'o', query: 'staging cluster' })).toMatchObject({ semantic: true, vector: true });
      expect(ollama.received.map((request) => (request.body.input as string[])[0])).toEqual([
        // The boot probe: is the provider there?
        'search_document: memsvc reachability probe',
        'search_document: The staging cluster runs on ARM nodes',
        'search_query: staging cluster',
      ]);
      await client.close();
      const metrics = await (await fetch(`${server.url}/health/metrics`)).text();
      // The probe is no embedding request of memsvc's: it is not counted.
      expect(metrics).toMatch(/memsvc_embedding_requests_total\{provider="ollama",status="success"\} 2/);
      expect(metrics).toMatch(/memsvc_embedding_texts_total\{provider="ollama",status="success"\} 2/);
      expect(metrics).toContain('memsvc_embedding_request_duration_seconds_bucket');
    } finally {
      await server.stop();
    }
  });

  it('says at boot and on /health that Ollama cannot be reached, stores memories without a vector at once, and keeps them findable by text', async () => {
    const server = await startHttpServer({
      DATABASE_URL: 'pglite://memory',
      DEPLOYMENT_PROFILE: 'lite',
      EMBEDDING_PROVIDER: 'ollama',
      OLLAMA_URL: 'http://127.0.0.1:1',
    });
    try {
      await expect
        .poll(() => server.stderr())
        .toMatch(/embedding provider ollama at http:\/\/127\.0\.0\.1:1 cannot be reached: memories are stored without vectors/);
      const health = await fetch(`${server.url}/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toMatchObject({
        status: 'ok',
        indicators: { database: { status: 'up' }, embeddings: { status: 'down', provider: 'ollama', model: 'nomic-embed-text' } },
      });
      const client = await connect(server);
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const created = await call(client, 'create_memory', {
          userId: 'd',
          content: `Outage note ${i}: the queue was drained by hand`,
          type: 'long-term',
        });
        expect(created.embedded).toBe(false);
        // No attempts and no backoff (three attempts against a dead port took ~1.4 s per write).
        expect(performance.now() - started).toBeLessThan(1000);
      }
      const found = await call(client, 'recall', { userId: 'd', query: 'queue drained' });
      expect(found).toMatchObject({ semantic: false, vector: false, count: 5 });
      await client.close();
      const metrics = await (await fetch(`${server.url}/health/metrics`)).text();
      expect(metrics).not.toMatch(/memsvc_embedding_requests_total\{provider="ollama",status="error"\}/);
      expect(metrics).toMatch(/memsvc_embedding_requests_total\{provider="ollama",status="short_circuited"\} 6/);
      expect(server.stderr().match(/cannot be reached/g)).toHaveLength(1);
      expect(server.stderr()).not.toMatch(/embedding provider failed/);
    } finally {
      await server.stop();
    }
  });
});
