import { describe, expect, it } from 'vitest';
import { expectedEmbeddingShape } from '../src/index.js';

describe('expectedEmbeddingShape', () => {
  it('uses the provider default model and its documented size', () => {
    expect(expectedEmbeddingShape({ provider: 'ollama' })).toEqual({ provider: 'ollama', model: 'nomic-embed-text', dimensions: 768 });
    expect(expectedEmbeddingShape({ provider: 'openai' })).toEqual({
      provider: 'openai',
      model: 'text-embedding-3-small',
      dimensions: 1536,
    });
  });

  it('lets VECTOR_DIMENSIONS pin the size and leaves unknown models to the first vector', () => {
    expect(expectedEmbeddingShape({ provider: 'openai', model: 'text-embedding-3-large', dimensions: 1024 }).dimensions).toBe(1024);
    expect(expectedEmbeddingShape({ provider: 'ollama', model: 'nomic-embed-text:v1.5' }).dimensions).toBe(768);
    expect(expectedEmbeddingShape({ provider: 'ollama', model: 'my-finetune' }).dimensions).toBeUndefined();
    expect(expectedEmbeddingShape({ provider: 'disabled', model: 'ignored' })).toEqual({
      provider: 'disabled',
      model: undefined,
      dimensions: undefined,
    });
  });
});
