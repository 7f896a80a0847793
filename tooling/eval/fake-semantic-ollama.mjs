// @ts-check
// `--embedder ollama-fake` for `pnpm eval:conversations`: a loopback server speaking Ollama's
// real `POST /api/embed` wire format (the request and reply bodies of tooling/bench/fake-ollama.mjs
// and packages/embeddings/test/support/fake-embedding-server.ts), so the server's ollama provider
// path (batching, task prefixes, retries, dimension checks) is what runs. Its vectors are built to
// behave like an imperfect semantic model rather than like the lexical `local` embedder: word forms
// share a direction (a token is cut to its first 6 characters), stop words carry nothing, and a
// per-text noise term stands for everything a real model gets wrong. Deterministic: the same text
// always gets the same vector.
import { serveOllamaEmbed } from '../bench/fake-ollama.mjs';
import { STOP_WORDS } from './bm25-baseline.mjs';

export const FAKE_DIMENSIONS = 384;
export const FAKE_MODEL = 'nomic-embed-text';

/** @param {string} text */
function fnv1a(text) {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  return hash >>> 0;
}

// mulberry32, then Box-Muller: Gaussian coordinates make the direction uniform on the sphere, so
// two different tokens are nearly orthogonal in 384 dimensions, as unrelated words should be.
/**
 * @param {number} seed
 * @param {number} dimensions
 */
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

/**
 * The fake model's vector for one text (`noise` relative to the token sum's norm).
 * @param {string} text
 * @param {{ dimensions?: number, noise?: number, cache?: Map<string, Float64Array> }} [options]
 */
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
    for (let i = 0; i < dimensions; i++) /** @type {number} */ (sum[i]) += /** @type {number} */ (direction[i]);
  }
  const sumNorm = Math.hypot(...sum);
  // A text of stop words only still gets a stable vector: its noise alone.
  const noiseWeight = sumNorm === 0 ? 1 : noise * sumNorm;
  const noiseVector = unitVector(fnv1a(`text:${body}`), dimensions);
  const vector = sum.map((value, i) => value + noiseWeight * /** @type {number} */ (noiseVector[i]));
  const norm = Math.hypot(...vector);
  return Array.from(vector, (value) => value / norm);
}

/**
 * Starts the fake on a free loopback port: {url, model, dimensions, requests(), texts(), stop()}.
 * @param {{ dimensions?: number, noise?: number }} [options]
 */
export async function startFakeSemanticOllama({ dimensions = FAKE_DIMENSIONS, noise = 0.5 } = {}) {
  /** @type {Map<string, Float64Array>} */
  const cache = new Map();
  const server = await serveOllamaEmbed({
    embeddingsJson: (texts) => JSON.stringify(texts.map((text) => semanticVector(text, { dimensions, noise, cache }))),
  });
  return { ...server, model: FAKE_MODEL, dimensions };
}
