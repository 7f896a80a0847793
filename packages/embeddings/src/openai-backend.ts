import type { EmbeddingBackend } from './embedding-backend.js';
import { EmbeddingRequestError } from './embedding-backend.js';
import { asVectors, postJson } from './http-json.js';

/**
 * OpenAI refuses a text over 8,192 tokens. A token covers at least one character in every
 * script, so cutting at 8,000 characters means no memory is ever refused. Only the part of a
 * memory beyond 8,000 characters (memsvc allows 10,240) goes unembedded; it stays searchable
 * by full text.
 */
const MAX_INPUT_CHARACTERS = 8000;

export const OPENAI_BASE_URL = 'https://api.openai.com/v1';

/** OpenAI's embeddings endpoint: POST {base}/embeddings {model, input: [...]} → {data: [{index, embedding}]}. */
export class OpenAiBackend implements EmbeddingBackend {
  readonly provider = 'openai';
  readonly maxBatch = 256;
  readonly #endpoint: string;

  constructor(
    readonly model: string,
    readonly apiKey: { reveal(): string },
    baseUrl = OPENAI_BASE_URL,
  ) {
    this.#endpoint = new URL('embeddings', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();
  }

  async embedBatch(texts: readonly string[], _purpose: unknown, signal: AbortSignal): Promise<number[][]> {
    const reply = await postJson(
      this.#endpoint,
      { model: this.model, input: texts.map((text) => text.slice(0, MAX_INPUT_CHARACTERS)), encoding_format: 'float' },
      {
        signal,
        headers: { authorization: `Bearer ${this.apiKey.reveal()}` },
        describeError: (body) => {
          const error = isRecord(body) && isRecord(body.error) ? body.error : undefined;
          return typeof error?.message === 'string' ? error.message : undefined;
        },
      },
    );
    const data = isRecord(reply) ? reply.data : undefined;
    if (!Array.isArray(data) || data.length !== texts.length) {
      throw new EmbeddingRequestError(
        `OpenAI returned ${Array.isArray(data) ? data.length : 'no'} embeddings for ${texts.length} texts`,
        false,
      );
    }
    // The reply says which input each embedding belongs to; do not trust the array order.
    const ordered = new Array<unknown>(texts.length);
    for (const item of data) {
      const index = isRecord(item) ? item.index : undefined;
      if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= texts.length || ordered[index] !== undefined) {
        throw new EmbeddingRequestError('OpenAI returned embeddings with missing or repeated indexes', false);
      }
      ordered[index] = (item as Record<string, unknown>).embedding;
    }
    return asVectors(ordered, 'OpenAI reply field "data[].embedding"');
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
