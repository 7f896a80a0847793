// `--embedder ollama-fake` for `pnpm eval:conversations`: a loopback server speaking Ollama's
// real `POST /api/embed` wire format (the request and reply bodies of tooling/bench/fake-ollama.mjs
// and packages/embeddings/test/support/fake-embedding-server.ts), so the server's ollama provider
// path (batching, task prefixes, retries, dimension checks) is what runs. Its vectors are built to
// behave like an imperfect semantic model rather than like the lexical `local` embedder: word forms
// share a direction (a token is cut to its first 6 characters), stop words carry nothing, and a
// per-text noise term stands for everything a real model gets wrong. Deterministic: the same text
// always gets the same vector.
import { createServer } from 'node:http';
import { STOP_WORDS } from './bm25-baseline.mjs';

export const FAKE_DIMENSIONS = 384;
export const FAKE_MODEL = 'nomic-embed-text';

function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

// mulberry32, then Box-Muller: Gaussian coordinates make the direction uniform on the sphere, so
// two different tokens are nearly orthogonal in 384 dimensions, as unrelated words should be.
function unitVector(seed, dimensions) {
  let state = seed;
  const uniform = () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return (((t ^ (t >>> 14)) >>> 0) + 1) / 4294967297;
  };
  const vector = new Float64Array(dimensions);
  for (let i = 0; i < dimensions; i += 2) {
    const radius = Math.sqrt(-2 * Math.log(uniform()));
    const angle = 2 * Math.PI * uniform();
    vector[i] = radius * Math.cos(angle);
    if (i + 1 < dimensions) vector[i + 1] = radius * Math.sin(angle);
  }
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
}

/** The fake model's vector for one text (`noise` relative to the token sum's norm). */
export function semanticVector(text, { dimensions = FAKE_DIMENSIONS, noise = 0.5, cache = new Map() } = {}) {
  // memsvc sends nomic-embed-text its task prefixes; a real model reads them as an instruction,
  // not as content, so they must not become shared words of every document or every query.
  const body = text.replace(/^search_(document|query):\s*/, '');
  const sum = new Float64Array(dimensions);
  for (const word of body.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
    if (STOP_WORDS.has(word)) continue;
    const token = word.slice(0, 6);
    let direction = cache.get(token);
    if (!direction) {
      direction = unitVector(fnv1a(`token:${token}`), dimensions);
      cache.set(token, direction);
    }
    for (let i = 0; i < dimensions; i++) sum[i] += direction[i];
  }
  const sumNorm = Math.hypot(...sum);
  // A text of stop words only still gets a stable vector: its noise alone.
  const noiseWeight = sumNorm === 0 ? 1 : noise * sumNorm;
  const noiseVector = unitVector(fnv1a(`text:${body}`), dimensions);
  const vector = sum.map((value, i) => value + noiseWeight * noiseVector[i]);
  const norm = Math.hypot(...vector);
  return Array.from(vector, (value) => value / norm);
}

/** Starts the fake on a free loopback port: {url, model, dimensions, requests(), texts(), stop()}. */
export async function startFakeSemanticOllama({ dimensions = FAKE_DIMENSIONS, noise = 0.5 } = {}) {
  const cache = new Map();
  let requests = 0;
  let texts = 0;
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      const send = (status, body) => {
        const text = JSON.stringify(body);
        response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
        response.end(text);
      };
      if (request.method !== 'POST' || request.url !== '/api/embed') {
        send(404, { error: `no route ${request.method} ${request.url}` });
        return;
      }
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8'));
      } catch {
        send(400, { error: 'invalid JSON' });
        return;
      }
      const input = Array.isArray(body.input) ? body.input : [body.input];
      requests++;
      texts += input.length;
      send(200, {
        model: body.model,
        embeddings: input.map((text) => semanticVector(String(text), { dimensions, noise, cache })),
        total_duration: 0,
        load_duration: 0,
        prompt_eval_count: input.length,
      });
    });
  });
  server.keepAliveTimeout = 60_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    model: FAKE_MODEL,
    dimensions,
    requests: () => requests,
    texts: () => texts,
    stop: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
