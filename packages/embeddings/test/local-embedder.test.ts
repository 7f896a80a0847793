import { describe, expect, it } from 'vitest';
import { createEmbedder, LOCAL_DIMENSIONS, LocalEmbedder } from '../src/index.js';

const cosine = (a: readonly number[], b: readonly number[]) => a.reduce((sum, value, i) => sum + value * (b[i] ?? 0), 0);

describe('the local embedder', () => {
  const embedder = new LocalEmbedder();

  it('is deterministic and unit-length', async () => {
    const [a, b] = await embedder.embed(['The deploy target is eu-west-1', 'The deploy target is eu-west-1']);
    expect(a).toEqual(b);
    expect(a).toHaveLength(LOCAL_DIMENSIONS);
    expect(Math.hypot(...(a ?? []))).toBeCloseTo(1, 10);
    // Pinned values: a change to the hashing would silently invalidate every stored vector.
    expect(
      embedder
        .vectorOf('memsvc')
        .slice(0, 3)
        .map((value) => Number(value.toFixed(6))),
    ).toMatchSnapshot();
  });

  it('scores shared wording high and unrelated text low, case and punctuation aside', () => {
    const base = embedder.vectorOf('The deploy target is eu-west-1');
    expect(cosine(base, embedder.vectorOf('the DEPLOY target is eu-west-1!'))).toBeCloseTo(1, 10);
    expect(cosine(base, embedder.vectorOf('Deploys target eu-west-1'))).toBeGreaterThan(0.5);
    expect(cosine(base, embedder.vectorOf('Alice likes green tea'))).toBeLessThan(0.2);
  });

  it('gives text without letters or digits a stable non-zero vector', () => {
    const emoji = embedder.vectorOf('🚀🚀');
    expect(Math.hypot(...emoji)).toBeCloseTo(1, 10);
    expect(embedder.vectorOf('🚀🚀')).toEqual(emoji);
    expect(Math.hypot(...embedder.vectorOf('東京タワーへ行った'))).toBeCloseTo(1, 10);
  });
});

describe('createEmbedder', () => {
  it('builds each provider; openai without a key is disabled silently (spec §7)', async () => {
    expect(createEmbedder({ provider: 'local' })).toMatchObject({ provider: 'local', embedder: expect.any(LocalEmbedder) });
    expect(await createEmbedder({ provider: 'disabled' }).embedder.embed(['x'])).toBeUndefined();
    expect(createEmbedder({ provider: 'ollama' })).toMatchObject({ provider: 'ollama', embedder: { model: 'nomic-embed-text' } });
    const keyless = createEmbedder({ provider: 'openai' });
    expect(keyless.provider).toBe('disabled');
    expect(await keyless.embedder.embed(['x'])).toBeUndefined();
    const keyed = createEmbedder({ provider: 'openai', openaiApiKey: { reveal: () => 'sk-test' }, model: 'text-embedding-3-large' });
    expect(keyed).toMatchObject({ provider: 'openai', embedder: { model: 'text-embedding-3-large' } });
  });
});
