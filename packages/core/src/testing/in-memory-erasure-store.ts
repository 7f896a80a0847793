import { ERASURE_PLACES, type ErasureCheck, type ErasureCounts, type ErasureReceipt, erasedIdsText } from '../domain/erasure.js';
import { fnv1a64Hex } from '../domain/stable-hash.js';
import type { TenantId } from '../domain/tenant.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { Clock } from '../ports/clock.js';
import type { ErasureOfMemory, ErasureStore } from '../ports/erasure-store.js';
import type { Actor } from '../ports/memory-store.js';
import type { InMemoryMemoryStore } from './in-memory-memory-store.js';

const NONE: ErasureCounts = Object.freeze(Object.fromEntries(ERASURE_PLACES.map((place) => [place, 0])) as ErasureCounts);

/**
 * Erasure for good over an InMemoryMemoryStore, so an engine built on in-memory stores is
 * complete. Rows, their versions and their links go; the receipt is kept and checked later. Core
 * has no SHA-256, so the digest here is `fnv1a64:<hex>` of the same text the database store hashes.
 */
export class InMemoryErasureStore implements ErasureStore {
  readonly #receipts = new Map<string, { readonly tenant: TenantId; readonly receipt: ErasureReceipt }>();
  readonly #erased = new Map<string, ErasureOfMemory>();
  #sequence = 0;

  constructor(
    private readonly memories: InMemoryMemoryStore,
    private readonly clock: Clock,
  ) {}

  async erase(tenant: TenantId, ids: readonly string[], actor: Actor): Promise<ErasureReceipt> {
    const held = new Set(this.memories.idsOf(tenant));
    const missing = ids.find((id) => !held.has(id));
    if (missing !== undefined) throw new MemsvcError('NOT_FOUND', `memory ${missing} was not found`, { memoryId: missing });
    return this.#record(tenant, ids, actor);
  }

  async eraseTenant(tenant: TenantId, actor: Actor): Promise<ErasureReceipt> {
    return this.#record(tenant, this.memories.idsOf(tenant), actor);
  }

  async erasureOf(tenant: TenantId, id: string): Promise<ErasureOfMemory | undefined> {
    return this.#erased.get(`${tenant}\n${id}`);
  }

  async check(tenant: TenantId, erasureId: string): Promise<ErasureCheck | undefined> {
    const kept = this.#receipts.get(erasureId);
    if (!kept || kept.tenant !== tenant) return undefined;
    const held = new Set(this.memories.idsOf(tenant));
    const remaining = { ...NONE, memories: kept.receipt.memoryIds.filter((id) => held.has(id)).length };
    const digestMatches = kept.receipt.digest === digestOf(kept.receipt.memoryIds);
    return { erasureId, verified: digestMatches && remaining.memories === 0, digestMatches, remaining };
  }

  #record(tenant: TenantId, ids: readonly string[], actor: Actor): ErasureReceipt {
    const memoryIds = [...new Set(ids)].sort();
    const removed = this.memories.eraseForGood(tenant, memoryIds);
    const erasedAt = this.clock.now();
    const erasureId = `erasure-${++this.#sequence}`;
    const receipt: ErasureReceipt = {
      erasureId,
      erasedAt,
      actor: actor.id,
      memoryIds,
      digest: digestOf(memoryIds),
      counts: { ...NONE, ...removed },
      state: 'completed',
    };
    this.#receipts.set(erasureId, { tenant, receipt });
    for (const id of memoryIds) this.#erased.set(`${tenant}\n${id}`, { erasureId, erasedAt });
    return receipt;
  }
}

function digestOf(ids: readonly string[]): string {
  return `fnv1a64:${fnv1a64Hex(erasedIdsText(ids))}`;
}
