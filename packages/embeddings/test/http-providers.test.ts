import { isMemsvcError } from '@memsvc/core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createEmbedder, type EmbeddingRequestEvent, type ResilienceOptions } from '../src/index.js';
import { FakeEmbeddingServer, fakeVector } from './support/fake-embedding-server.js';

const server = new FakeEmbeddingServer(8);
let now = 0;
const events: EmbeddingRequestEvent[] = [];
const FAST: Partial<ResilienceOptions> = {
  timeoutMs: 300,
  baseDelayMs: 1,
  maxAttempts: 3,
  failureThreshold: 3,
  cooldownMs: 30_000,
  now: () => now,
};

const ollama = (overrides: { dimensions?: number; model?: string; url?: string } = {}) =>
  createEmbedder({
    provider: 'ollama',
    ollamaUrl: overrides.url ?? server.url,
    model: overrides.model ?? 'nomic-embed-text',
    dimensions: overrides.dimensions ?? 8,
    resilience: FAST,
    onRequest: (event) => events.push(event),
  }).embedder;
const openai = (key = 'sk-test') =>
  createEmbedder({
    provider: 'openai',
    openaiApiKey: { reveal: () => key },
    openaiBaseUrl: `${server.url}/v1`,
    dimensions: 8,
    resilience: FAST,
    onRequest: (event) => events.push(event),
  }).embedder;

beforeAll(async () => {
  await server.start();
});
afterAll(async () => {
  await server.stop();
});
afterEach(() => {
  server.received.length = 0;
  server.script.length = 0;
  events.length = 0;
  now += 1_000_000; // past any cooldown a test left behind
});

describe('ollama provider (POST /api/embed)', () => {
  it('sends the batch format with nomic task prefixes and returns vectors in input order', async () => {
    const vectors = await ollama().embed(['alpha', 'be']);
    expect(vectors).toEqual([fakeVector('search_document: alpha', 8), fakeVector('search_document: be', 8)]);
    expect(server.received).toEqual([
      expect.objectContaining({
        path: '/api/embed',
        body: { model: 'nomic-embed-text', input: ['search_document: alpha', 'search_document: be'], truncate: true },
      }),
    ]);
    await ollama().embed(['where is it'], 'query');
    expect(server.received[1]?.body.input).toEqual(['search_query: where is it']);
    await ollama({ model: 'mxbai-embed-large' }).embed(['plain']);
    expect(server.received[2]?.body.input).toEqual(['plain']);
    expect(events.map((event) => event.status)).toEqual(['success', 'success', 'success']);
  });

  it('splits large inputs into batches of 64 and keeps the order across them', async () => {
    const texts = Array.from({ length: 130 }, (_, i) => `t${'x'.repeat(i)}`);
    const vectors = await ollama({ model: 'all-minilm' }).embed(texts);
    expect(server.received.map((request) => (request.body.input as string[]).length)).toEqual([64, 64, 2]);
    expect(vectors?.map((vector) => vector[0])).toEqual(texts.map((text) => text.length));
  });

  it('retries a 500 and a dropped connection, then succeeds', async () => {
    server.script.push({ kind: 'status', status: 500, body: { error: 'llama runner process has terminated' } }, { kind: 'drop' });
    expect(await ollama().embed(['retry me'])).toHaveLength(1);
    expect(server.received).toHaveLength(3);
    expect(events).toEqual([expect.objectContaining({ status: 'success', attempts: 3 })]);
  });

  it('does not retry an unknown model (404), and reports the server message', async () => {
    server.script.push({ kind: 'status', status: 404, body: { error: 'model "nomic-embed-txt" not found, try pulling it first' } });
    expect(await ollama().embed(['x'])).toBeUndefined();
    expect(server.received).toHaveLength(1);
    expect(events[0]).toMatchObject({ status: 'error', attempts: 1, error: expect.stringContaining('try pulling it first') });
  });

  it('never puts a user name or password of its URL in an error', async () => {
    const withCredentials = server.url.replace('://', '://ops:s3cret-pw@');
    expect(await ollama({ url: withCredentials }).embed(['x'])).toBeUndefined();
    expect(events[0]?.status).toBe('error');
    expect(events[0]?.error).toContain(new URL(server.url).host);
    expect(JSON.stringify(events)).not.toContain('s3cret-pw');
  });

  it('gives up on a slow provider after its timeout and attempts, without a vector', async () => {
    server.script.push({ kind: 'slow', delayMs: 1000 }, { kind: 'slow', delayMs: 1000 }, { kind: 'slow', delayMs: 1000 });
    const started = performance.now();
    expect(await ollama().embed(['x'])).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(2000);
    expect(events[0]).toMatchObject({ status: 'error', attempts: 3, error: expect.stringContaining('in time') });
  });

  it('opens the circuit after 3 failed requests: later calls cost nothing until the cooldown, then one trial closes it', async () => {
    const embedder = ollama({ url: 'http://127.0.0.1:1' }); // nothing listens: connection refused
    for (let i = 0; i < 3; i++) expect(await embedder.embed(['x'])).toBeUndefined();
    expect(events.map((event) => event.status)).toEqual(['error', 'error', 'error']);
    expect(await embedder.embed(['x'])).toBeUndefined();
    expect(events.at(-1)).toMatchObject({ status: 'short_circuited', attempts: 0 });

    // Same breaker, now pointed at a live server: still refused during the cooldown …
    const live = ollama();
    for (let i = 0; i < 3; i++) {
      server.script.push(
        { kind: 'status', status: 503, body: { error: 'busy' } },
        { kind: 'status', status: 503, body: { error: 'busy' } },
        { kind: 'status', status: 503, body: { error: 'busy' } },
      );
      await live.embed(['x']);
    }
    const requestsWhenOpened = server.received.length;
    expect(await live.embed(['x'])).toBeUndefined();
    expect(server.received).toHaveLength(requestsWhenOpened);
    now += 30_000; // … and after it, one trial goes through and closes the circuit.
    expect(await live.embed(['x'])).toHaveLength(1);
    expect(await live.embed(['y'])).toHaveLength(1);
  });

  it('refuses vectors of the wrong size with DIMENSION_MISMATCH instead of returning them', async () => {
    server.script.push({ kind: 'dimensions', dimensions: 5 });
    const error = await ollama()
      .embed(['x'])
      .catch((caught: unknown) => caught);
    expect(isMemsvcError(error) && error.code).toBe('DIMENSION_MISMATCH');
    expect(isMemsvcError(error) && error.message).toMatch(/5-dimensional vector where 8 were expected/);
    // A misconfiguration is not an outage: the circuit stays closed.
    expect(await ollama().embed(['x'])).toHaveLength(1);
  });
});

describe('openai provider (POST /v1/embeddings)', () => {
  it('sends the key as a bearer token and orders the reply by its indexes', async () => {
    const vectors = await openai().embed(['first', 'second', 'third']);
    expect(vectors).toEqual(['first', 'second', 'third'].map((text) => fakeVector(text, 8)));
    expect(server.received[0]).toMatchObject({
      path: '/v1/embeddings',
      headers: { authorization: 'Bearer sk-test' },
      body: { model: 'text-embedding-3-small', input: ['first', 'second', 'third'], encoding_format: 'float' },
    });
  });

  it('does not retry a rejected key and never puts the key in the error', async () => {
    expect(await openai('sk-wrong').embed(['x'])).toBeUndefined();
    expect(server.received).toHaveLength(1);
    expect(events[0]).toMatchObject({ status: 'error', error: expect.stringContaining('401: Incorrect API key') });
    expect(JSON.stringify(events)).not.toContain('sk-wrong');
  });

  it('retries a 429 rate limit', async () => {
    server.script.push({
      kind: 'status',
      status: 429,
      body: { error: { message: 'Rate limit reached', type: 'requests', code: 'rate_limit_exceeded' } },
    });
    expect(await openai().embed(['x'])).toHaveLength(1);
    expect(server.received).toHaveLength(2);
  });

  it('cuts texts at 8,000 characters so no memory is refused for length', async () => {
    await openai().embed(['語'.repeat(10_000)]);
    expect((server.received[0]?.body.input as string[])[0]).toHaveLength(8000);
  });
});
