import type { EmbeddingBackend, EmbeddingPurpose } from './embedding-backend.js';
import { EmbeddingRequestError } from './embedding-backend.js';
import { asVectors, postJson } from './http-json.js';

/**
 * nomic-embed-text was trained with task prefixes and ranks noticeably better with them; other
 * models get the text as it is.
 */
function withTaskPrefix(model: string, text: string, purpose: EmbeddingPurpose): string {
  if (!model.startsWith('nomic-embed-text')) return text;
  return `${purpose === 'query' ? 'search_query' : 'search_document'}: ${text}`;
}

/** Ollama's batch endpoint: POST {OLLAMA_URL}/api/embed {model, input: [...]} → {embeddings: [...]}. */
export class OllamaBackend implements EmbeddingBackend {
  readonly provider = 'ollama';
  readonly maxBatch = 64;
  readonly #endpoint: string;

  constructor(
    baseUrl: string,
    readonly model: string,
  ) {
    this.#endpoint = new URL('api/embed', baseUrl.endsWith('/') ? baseUrl : `${baseUrl}/`).toString();
  }

  async embedBatch(texts: readonly string[], purpose: EmbeddingPurpose, signal: AbortSignal): Promise<number[][]> {
    const reply = await postJson(
      this.#endpoint,
      // truncate: the server cuts an over-long input to the model's context instead of failing.
      { model: this.model, input: texts.map((text) => withTaskPrefix(this.model, text, purpose)), truncate: true },
      { signal, describeError: (body) => (isRecord(body) && typeof body.error === 'string' ? body.error : undefined) },
    );
    if (!isRecord(reply)) throw new EmbeddingRequestError('Ollama answered without an object', false);
    const vectors = asVectors(reply.embeddings, 'Ollama reply field "embeddings"');
    if (vectors.length !== texts.length) {
      throw new EmbeddingRequestError(`Ollama returned ${vectors.length} vectors for ${texts.length} texts`, false);
    }
    return vectors;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
