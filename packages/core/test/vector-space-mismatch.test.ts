import { describe, expect, it } from 'vitest';
import { vectorSpaceMismatch } from '../src/domain/vector-space-mismatch.js';

describe('DIMENSION_MISMATCH advice', () => {
  it.each([
    [{ dimensions: 384, model: 'memsvc-local-v1' }, 'EMBEDDING_PROVIDER=local VECTOR_DIMENSIONS=384'],
    [{ dimensions: 768, model: 'nomic-embed-text' }, 'EMBEDDING_PROVIDER=ollama VECTOR_DIMENSIONS=768'],
    [
      { dimensions: 1024, model: 'mxbai-embed-large' },
      'EMBEDDING_PROVIDER=ollama EMBEDDING_MODEL=mxbai-embed-large VECTOR_DIMENSIONS=1024',
    ],
    [{ dimensions: 512, model: 'text-embedding-3-small' }, 'EMBEDDING_PROVIDER=openai VECTOR_DIMENSIONS=512'],
    [
      { dimensions: 3072, model: 'text-embedding-3-large' },
      'EMBEDDING_PROVIDER=openai EMBEDDING_MODEL=text-embedding-3-large VECTOR_DIMENSIONS=3072',
    ],
  ])('names the settings that open a database made with %o as it is: %s', (stored, settings) => {
    const error = vectorSpaceMismatch(stored, 16, 'other-model');
    expect(error.code).toBe('DIMENSION_MISMATCH');
    expect(error.message).toContain(`start with ${settings}.`);
    expect(error.message).toContain(`made with ${stored.model}, ${stored.dimensions} dimensions`);
    expect(error.message).toMatch(/To move it to the new model instead.*memsvc-reindex --recreate --regenerate/);
    expect(error.data).toMatchObject({ expected: stored.dimensions, actual: 16, storedModel: stored.model, model: 'other-model' });
  });

  it('without a recorded model names the size alone', () => {
    const error = vectorSpaceMismatch({ dimensions: 3, model: null }, 2, null);
    expect(error.message).toContain('made with 3 dimensions, but this process embeds with 2 dimensions');
    expect(error.message).toContain('start with VECTOR_DIMENSIONS=3.');
  });
});
