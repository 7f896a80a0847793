// @ts-check
// A loopback server speaking Ollama's `POST /api/embed` wire format (the same request and reply
// bodies as packages/embeddings/test/support/fake-embedding-server.ts), answering every request
// after a fixed delay: a stand-in for a fast embedding provider, so a benchmark measures memsvc's
// side of a provider-backed reindex (batching, requests, JSON, writes) rather than a model.
// Vectors are deterministic per text (the same text always gets the same vector, so a regenerate
// over unchanged content finds equal vectors) and are assembled from pre-formatted numbers, so
// the fake costs the benchmark process little CPU on a 2-core machine.
import { createServer } from 'node:http';

const TABLE_SIZE = 4096;
// Pre-formatted float32-like values in (-0.1, 0.1), never zero, as Ollama prints them.
let state = 7;
const next = () => {
  state = (Math.imul(state, 1_103_515_245) + 12_345) >>> 0;
  return state / 4294967296;
};
const TABLE = Array.from({ length: TABLE_SIZE }, () => {
  const value = (next() - 0.5) / 5;
  return (Math.abs(value) < 1e-4 ? 0.0123 : value).toPrecision(8);
});

/** @param {string} text */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

/**
 * @param {string} text
 * @param {number} dimensions
 */
function vectorJson(text, dimensions) {
  const hash = fnv1a(text);
  const parts = new Array(dimensions);
  for (let i = 0; i < dimensions; i++) parts[i] = TABLE[(hash + Math.imul(i, 2_654_435_761 >>> 0)) & (TABLE_SIZE - 1)];
  return `[${parts.join(',')}]`;
}

/**
 * A loopback server speaking Ollama's `POST /api/embed` wire format: {model, input} in,
 * {model, embeddings, ...} out. `embeddingsJson(texts, model)` returns the `embeddings` array as
 * JSON text; the reply is sent after `delayMs`. Returns {url, requests(), texts(), stop()}.
 * @param {{ embeddingsJson: (texts: string[], model: string) => string, delayMs?: number }} options
 */
export async function serveOllamaEmbed({ embeddingsJson, delayMs = 0 }) {
  let requests = 0;
  let texts = 0;
  const server = createServer((request, response) => {
    /** @type {Buffer[]} */
    const chunks = [];
    request.on('data', (/** @type {Buffer} */ chunk) => chunks.push(chunk));
    request.on('end', () => {
      const send = (/** @type {number} */ status, /** @type {string} */ body) => {
        response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        response.end(body);
      };
      if (request.method !== 'POST' || request.url !== '/api/embed') {
        send(404, JSON.stringify({ error: `no route ${request.method} ${request.url}` }));
        return;
      }
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        send(400, JSON.stringify({ error: 'invalid JSON' }));
        return;
      }
      const input = (Array.isArray(body.input) ? body.input : [body.input]).map(String);
      requests++;
      texts += input.length;
      const reply = () =>
        send(
          200,
          `{"model":${JSON.stringify(body.model)},"embeddings":${embeddingsJson(input, body.model)},` +
            `"total_duration":${delayMs * 1_000_000},"load_duration":0,"prompt_eval_count":${input.length}}`,
        );
      if (delayMs > 0) setTimeout(reply, delayMs);
      else reply();
    });
  });
  server.keepAliveTimeout = 60_000;
  await /** @type {Promise<void>} */ (new Promise((resolve) => server.listen(0, '127.0.0.1', resolve)));
  return {
    url: `http://127.0.0.1:${/** @type {import('node:net').AddressInfo} */ (server.address()).port}`,
    requests: () => requests,
    texts: () => texts,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/**
 * Starts the fake on a free loopback port. Returns {url, requests(), texts(), stop()}.
 * Options: dimensions (default 768, nomic-embed-text's size), delayMs per request (default 5).
 * @param {{ dimensions?: number, delayMs?: number }} [options]
 */
export function startFakeOllama({ dimensions = 768, delayMs = 5 } = {}) {
  return serveOllamaEmbed({
    delayMs,
    embeddingsJson: (texts) => `[${texts.map((text) => vectorJson(text, dimensions)).join(',')}]`,
  });
}
