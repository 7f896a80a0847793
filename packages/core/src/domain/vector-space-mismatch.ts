import { MemsvcError } from '../errors/memsvc-error.js';
import { DEFAULT_EMBEDDING_MODEL, type EmbeddingProviderName } from './embedding-models.js';

/** What a database's vectors were made with, as its vector space records it. */
export interface StoredVectors {
  readonly dimensions: number;
  readonly model: string | null;
}

/**
 * DIMENSION_MISMATCH: a process is about to embed with another size than the database holds. The
 * usual cause is not a model change but a forgotten setting — an agent started on a shared
 * directory without the EMBEDDING_PROVIDER it was made with — and a reindex would then throw the
 * other agents' vectors away. So the message names what made the database and the settings that
 * open it as it is first, and the reindex only for a deliberate move to the new model.
 */
export function vectorSpaceMismatch(stored: StoredVectors, dimensions: number, model: string | null): MemsvcError {
  const made = stored.model ? `${stored.model}, ${stored.dimensions} dimensions` : `${stored.dimensions} dimensions`;
  const asked = model ? `${model}, ${dimensions} dimensions` : `${dimensions} dimensions`;
  const settings = stored.model ? settingsFor(stored.model, stored.dimensions) : `VECTOR_DIMENSIONS=${stored.dimensions}`;
  return new MemsvcError(
    'DIMENSION_MISMATCH',
    `this database's vectors were made with ${made}, but this process embeds with ${asked}. ` +
      `To use the database as it is, start with ${settings}. ` +
      'To move it to the new model instead, stop every process using it and run memsvc-reindex --recreate --regenerate.',
    { expected: stored.dimensions, actual: dimensions, storedModel: stored.model, model },
  );
}

/**
 * The environment settings that select `model` at `dimensions`: the provider, the model unless it
 * is the provider's default, and the size always (the process that failed may have pinned another).
 */
function settingsFor(model: string, dimensions: number): string {
  const provider = providerOf(model);
  const parts = [`EMBEDDING_PROVIDER=${provider}`];
  if (DEFAULT_EMBEDDING_MODEL[provider] !== model) parts.push(`EMBEDDING_MODEL=${model}`);
  parts.push(`VECTOR_DIMENSIONS=${dimensions}`);
  return parts.join(' ');
}

/** Which provider serves a model: memsvc's own, OpenAI's by their names, any other through Ollama. */
function providerOf(model: string): Exclude<EmbeddingProviderName, 'disabled'> {
  if (model === DEFAULT_EMBEDDING_MODEL.local) return 'local';
  if (model.startsWith('text-embedding-')) return 'openai';
  return 'ollama';
}
