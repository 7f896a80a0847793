import { DEFAULT_EMBEDDING_MODEL } from '../domain/embedding-models.js';
import type { MemoryEmbedding } from '../domain/memory.js';
import { FUSION_WEIGHTS, type FusionWeights } from '../domain/recall-ranking.js';
import type { SimilarityRules } from '../domain/similarity-rules.js';
import type { TenantId } from '../domain/tenant.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { ErasureStore } from '../ports/erasure-store.js';
import type { GrantStore } from '../ports/grant-store.js';
import type { Actor, MemoryStore } from '../ports/memory-store.js';
import { NO_TRACING, type Tracer } from '../ports/tracer.js';
import { embedInSpan } from './traced-stages.js';

/** The configuration the engine uses (a slice of MemsvcConfig). */
export interface EngineSettings {
  readonly similarity: SimilarityRules;
  readonly importanceHalfLifeDays: number;
}

/** The spec's defaults (§2.5): duplicate ≥ 0.97, contradiction band [0.8, 0.97) flagged, half-life 14 days. */
export const DEFAULT_ENGINE_SETTINGS: EngineSettings = Object.freeze({
  similarity: Object.freeze({
    duplicateThreshold: 0.97,
    contradictionThreshold: 0.8,
    contradictionThresholdMax: 0.97,
    contradictionPolicy: 'flag' as const,
  }),
  importanceHalfLifeDays: 14,
});

export interface MemoryEngineOptions {
  readonly store: MemoryStore;
  readonly embedder: Embedder;
  readonly clock: Clock;
  /** Defaults to DEFAULT_ENGINE_SETTINGS. */
  readonly settings?: EngineSettings;
  /** How recall weighs its two lists; FUSION_WEIGHTS of the provider in use (default: chosen by the embedder's model). */
  readonly fusion?: FusionWeights;
  /** Failures of work done after an answer (access counting); default: ignored. */
  readonly onBackgroundError?: (error: unknown) => void;
  /** Spans for create and recall with their stages (embed, database, rank); default: none. */
  readonly tracer?: Tracer;
  /** Spaces shared by grant (shared-spaces.ts). Required: an engine is complete or does not exist. */
  readonly grants: GrantStore;
  /** Erasure for good (erase-memories.ts). Required, as `grants` (core/testing has in-memory ones). */
  readonly erasures: ErasureStore;
}

/** Who is asking, on whose memories. */
export interface CallContext {
  readonly tenant: TenantId;
  readonly actor: Actor;
  /** The API key behind the call, when there is one: grants made to that key apply to it. */
  readonly apiKeyId?: string | undefined;
  /**
   * Set only on a grantee's write into another owner's memories (asGrantee): the granted space,
   * one scope of `tenant`. The write may touch no memory outside it (grant-space-bounds.ts).
   */
  readonly grantSpace?: string | undefined;
}

/** The engine's options with every default filled in: what each use-case works with. */
export interface EngineParts {
  readonly store: MemoryStore;
  readonly embedder: Embedder;
  readonly clock: Clock;
  readonly settings: EngineSettings;
  /** The caller's choice of fusion weights; recallFusion fills in the default. */
  readonly fusion: FusionWeights | undefined;
  readonly onBackgroundError: (error: unknown) => void;
  readonly tracer: Tracer;
  readonly grants: GrantStore;
  readonly erasures: ErasureStore;
}

export function engineParts(options: MemoryEngineOptions): EngineParts {
  return {
    store: options.store,
    embedder: options.embedder,
    clock: options.clock,
    settings: options.settings ?? DEFAULT_ENGINE_SETTINGS,
    fusion: options.fusion,
    onBackgroundError: options.onBackgroundError ?? (() => undefined),
    tracer: options.tracer ?? NO_TRACING,
    grants: options.grants,
    erasures: options.erasures,
  };
}

/**
 * How recall weighs its two lists. Without an explicit choice: none for no embedder, local's for
 * the local model, a semantic model's otherwise — asked at each recall, since an embedder may
 * learn its model after the engine is made.
 */
export function recallFusion(parts: EngineParts): FusionWeights {
  if (parts.fusion) return parts.fusion;
  const model = parts.embedder.model;
  if (model === undefined) return FUSION_WEIGHTS.disabled;
  return model === DEFAULT_EMBEDDING_MODEL.local ? FUSION_WEIGHTS.local : FUSION_WEIGHTS.ollama;
}

/** The content's vector, or undefined when the provider is down or disabled (the memory is stored without one). */
export async function embedContent(parts: EngineParts, content: string): Promise<MemoryEmbedding | undefined> {
  const vectors = await embedInSpan(parts.tracer, parts.embedder, [content]);
  const vector = vectors?.[0];
  return vector && parts.embedder.model ? { vector, model: parts.embedder.model } : undefined;
}

export function memoryNotFound(id: string): MemsvcError {
  return new MemsvcError('NOT_FOUND', `memory ${id} was not found`, { memoryId: id });
}
