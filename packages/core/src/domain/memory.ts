import type { TenantId } from './tenant.js';

/** The two tiers of spec §1.3: short-term rows expire, long-term rows persist. */
export const MEMORY_TIERS = ['stm', 'ltm'] as const;
export type MemoryTier = (typeof MEMORY_TIERS)[number];

/** Plain JSON, the only shape memory metadata may take. */
export type JsonValue = string | number | boolean | null | readonly JsonValue[] | { readonly [key: string]: JsonValue };
export type JsonObject = { readonly [key: string]: JsonValue };

/**
 * A memory as every caller sees it. The embedding vector itself is deliberately absent: it is
 * large, useless to an agent, and an earlier implementation leaked it into every result.
 */
export interface MemoryRecord {
  readonly id: string;
  readonly userId: TenantId;
  readonly tier: MemoryTier;
  /** Optional namespace inside the tenant (`project:x`); exact match, null when unscoped. */
  readonly scope: string | null;
  readonly content: string;
  readonly tags: readonly string[];
  readonly metadata: JsonObject;
  /** Importance the client supplied (0–1), kept as given; null when none was. */
  readonly importance: number | null;
  /** The server's computed importance score (spec §2.1). */
  readonly importanceScore: number;
  readonly accessCount: number;
  readonly lastAccessedAt: Date | null;
  /** Set on short-term rows only. */
  readonly expiresAt: Date | null;
  readonly pinned: boolean;
  readonly stale: boolean;
  readonly contradicted: boolean;
  /** Id of the newer memory that superseded this one under policy `supersede`. */
  readonly supersededBy: string | null;
  /**
   * Id of the newer memory that changed the fact this one states ("I live in Paris", then "I
   * moved to Berlin"): the memory stays visible, marked as probably outdated (issue 38). Stores
   * always set it; optional so records built elsewhere (imports, tests) need not.
   */
  readonly replacedBy?: string | null;
  readonly deletedAt: Date | null;
  readonly version: number;
  readonly embeddingModel: string | null;
  readonly hasEmbedding: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** What a store needs to insert a memory; ids, versions and timestamps are the store's. */
export interface NewMemory {
  readonly tier: MemoryTier;
  readonly scope?: string | null;
  readonly content: string;
  readonly tags?: readonly string[];
  readonly metadata?: JsonObject;
  readonly importance?: number | null;
  readonly importanceScore?: number;
  readonly pinned?: boolean;
  /** Required for `stm`, forbidden for `ltm`. */
  readonly expiresAt?: Date | null;
  readonly embedding?: MemoryEmbedding | null;
  /** Words the memory is also found by (an ingested turn's neighbour, speaker, date); never returned. */
  readonly searchContext?: string | null;
}

/** A vector and the model that produced it. */
export interface MemoryEmbedding {
  readonly vector: readonly number[];
  readonly model: string;
}

/** Changes to a memory; absent fields stay as they are. */
export interface MemoryPatch {
  readonly content?: string;
  readonly tags?: readonly string[];
  /** The complete new metadata object (the engine has already merged it). */
  readonly metadata?: JsonObject;
  readonly importance?: number | null;
  readonly importanceScore?: number;
  readonly pinned?: boolean;
  readonly tier?: MemoryTier;
  readonly expiresAt?: Date | null;
  /** A new vector, or null to drop a vector that no longer matches the content. */
  readonly embedding?: MemoryEmbedding | null;
}

/** One entry of a memory's audit trail. */
export interface AuditEntry {
  readonly id: number;
  readonly memoryId: string;
  readonly action: string;
  readonly actor: string;
  readonly version: number | null;
  readonly before: JsonObject | null;
  readonly after: JsonObject | null;
  readonly createdAt: Date;
}

/** The markers a memory can carry, as the dashboard filters by them. */
export const MEMORY_MARKERS = ['pinned', 'stale', 'contradicted', 'superseded'] as const;
export type MemoryMarker = (typeof MEMORY_MARKERS)[number];
