import { createServer } from 'node:net';
import { Writable } from 'node:stream';
import { ManualClock, ManualTimers } from '@memsvc/core/testing';
import { DEFAULT_RESILIENCE, OllamaBackend, ResilientEmbedder } from '@memsvc/embeddings';
import { afterEach, describe, expect, it } from 'vitest';
import { FakeEmbeddingServer } from '../../embeddings/test/support/fake-embedding-server.ts';
import { createLogger, EMBEDDING_RECHECK_MS, EmbeddingReachability } from '../src/index.js';

/** A loopback port where nothing listens (yet): taken, then given back. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

function logLines() {
  const lines: { level: string; msg: string; url?: string }[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      lines.push(JSON.parse(String(chunk)));
      done();
    },
  });
  return { lines, logger: createLogger('info', stream) };
}

describe('EmbeddingReachability: an Ollama that is not there at boot and comes up later', () => {
  let ollama = new FakeEmbeddingServer(8);
  afterEach(async () => {
    await ollama.stop();
    ollama = new FakeEmbeddingServer(8);
  });

  it('says so once at boot, keeps writes off the provider (no request, no wait), and notices when it answers', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const clock = new ManualClock();
    const timers = new ManualTimers(clock);
    let requests = 0;
    const embedder = new ResilientEmbedder(new OllamaBackend(url, 'nomic-embed-text'), {
      ...DEFAULT_RESILIENCE,
      now: () => clock.now().getTime(),
      onRequest: () => requests++,
    });
    const { lines, logger } = logLines();
    const reachability = new EmbeddingReachability({ embedder, provider: 'ollama', model: 'nomic-embed-text', url, logger, timers });

    expect(reachability.indicator()).toMatchObject({ status: 'up', checked: false });
    await reachability.start();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ level: 'warn', url });
    expect(lines[0]?.msg).toMatch(
      new RegExp(
        `^embedding provider ollama at ${url} cannot be reached: memories are stored without vectors and recall uses full text only`,
      ),
    );
    expect(reachability.indicator()).toMatchObject({ status: 'down', provider: 'ollama', model: 'nomic-embed-text', checked: true });

    // A write now is refused by the open circuit: no attempt, no backoff.
    const started = performance.now();
    expect(await embedder.embed(['the deploy runs on Fridays'])).toBeUndefined();
    expect(performance.now() - started).toBeLessThan(50);

    // Still down at every recheck, well past the circuit's own cooldown: writes never half-open it.
    for (let elapsed = 0; elapsed < 3 * DEFAULT_RESILIENCE.cooldownMs; elapsed += EMBEDDING_RECHECK_MS) {
      timers.advance(EMBEDDING_RECHECK_MS);
      await reachability.check();
      expect(await embedder.embed(['still a write'])).toBeUndefined();
    }
    expect(lines).toHaveLength(1);

    // Ollama comes up on its address; the next recheck finds it and closes the circuit.
    await ollama.start(port);
    expect(ollama.received).toHaveLength(0);
    timers.advance(EMBEDDING_RECHECK_MS);
    await reachability.check();
    expect(reachability.indicator()).toEqual({ status: 'up', provider: 'ollama', model: 'nomic-embed-text', checked: true });
    expect(lines[1]).toMatchObject({ level: 'info', url });
    expect(lines[1]?.msg).toMatch(/answers again: new memories get vectors/);
    expect(await embedder.embed(['the deploy runs on Fridays'])).toHaveLength(1);
    expect(requests).toBeGreaterThan(0);
    reachability.stop();
    expect(timers.pending).toBe(0);
  });

  it('with the provider up at boot, says nothing and leaves the writes to watch it', async () => {
    await ollama.start();
    const clock = new ManualClock();
    const timers = new ManualTimers(clock);
    const embedder = new ResilientEmbedder(new OllamaBackend(ollama.url, 'nomic-embed-text'), DEFAULT_RESILIENCE);
    const { lines, logger } = logLines();
    const reachability = new EmbeddingReachability({ embedder, provider: 'ollama', model: 'm', url: ollama.url, logger, timers });
    await reachability.start();
    timers.advance(EMBEDDING_RECHECK_MS);
    await reachability.check();
    expect(lines).toEqual([]);
    expect(ollama.received).toHaveLength(1);
    expect(reachability.indicator()).toMatchObject({ status: 'up', checked: true });
    reachability.stop();
  });

  it('never logs the credentials of an OLLAMA_URL', async () => {
    const port = await freePort();
    const { lines, logger } = logLines();
    const embedder = new ResilientEmbedder(new OllamaBackend(`http://127.0.0.1:${port}`, 'm'), DEFAULT_RESILIENCE);
    const timers = new ManualTimers(new ManualClock());
    const url = `http://ops:hunter2@127.0.0.1:${port}`;
    const reachability = new EmbeddingReachability({ embedder, provider: 'ollama', model: 'm', url, logger, timers });
    await reachability.start();
    reachability.stop();
    expect(JSON.stringify(lines)).not.toContain('hunter2');
    expect(lines[0]?.url).toBe(`http://127.0.0.1:${port}`);
  });
});
