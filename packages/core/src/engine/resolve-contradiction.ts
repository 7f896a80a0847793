import type { MemoryRecord } from '../domain/memory.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { MemoryStore } from '../ports/memory-store.js';
import type { ReviewStore } from '../ports/review-store.js';
import type { CallContext } from './engine-parts.js';

/** What a person can decide about a contradicted pair. */
export const CONTRADICTION_OUTCOMES = ['keep-both', 'keep-newer', 'keep-older'] as const;
export type ContradictionOutcome = (typeof CONTRADICTION_OUTCOMES)[number];

/** The audit action of a cleared contradicted mark. */
export const CONTRADICTION_RESOLVE_ACTION = 'contradiction-resolve';

/** A memory as the person saw it: its id and the version shown. */
export interface SeenMemory {
  readonly id: string;
  readonly version: number;
}

export interface ResolveContradictionInput {
  /** The two memories of the pair, in either order, at the versions shown. */
  readonly pair: readonly [SeenMemory, SeenMemory];
  readonly outcome: ContradictionOutcome;
}

/** What a resolution did. */
export interface ContradictionResolution {
  readonly outcome: ContradictionOutcome;
  /** The memories kept, as they now are. */
  readonly kept: readonly MemoryRecord[];
  /** The memory deleted (restorable from its page), for keep-newer and keep-older. */
  readonly deletedId: string | undefined;
}

export interface ResolveContradictionDependencies {
  readonly review: ReviewStore;
  readonly memories: MemoryStore;
}

/**
 * A person's decision on a contradicted pair (the review queue, issue 18):
 * - `keep-both`: both are right (different contexts, both true): both contradicted marks are
 *   cleared in one transaction, each a new version audited `contradiction-resolve`; the
 *   `contradicts` links stay as the pair's history.
 * - `keep-newer` / `keep-older`: the other one is deleted through the store's delete (a new
 *   version, audited `delete`, restorable), then the kept one's mark is cleared the same way,
 *   unless it still belongs to another open pair, which the person has not decided yet.
 *
 * NOT_FOUND when the two are not an open pair of the caller's tenant (another tenant's ids
 * included, so nothing about them leaks); CONFLICT when either changed since the person saw it.
 */
export async function resolveContradiction(
  deps: ResolveContradictionDependencies,
  context: CallContext,
  input: ResolveContradictionInput,
): Promise<ContradictionResolution> {
  const outcome = checkOutcome(input.outcome);
  const [first, second] = input.pair.map(checkSeen) as [SeenMemory, SeenMemory];
  if (first.id === second.id) throw new MemsvcError('INVALID_INPUT', 'a pair needs two different memories', { field: 'pair' });
  const pair = await deps.review.contradictedPair(context.tenant, first.id, second.id);
  if (!pair) {
    throw new MemsvcError('NOT_FOUND', `there is no open contradiction between memories ${first.id} and ${second.id}`, {
      memoryIds: [first.id, second.id],
    });
  }
  const seenVersion = new Map([first, second].map((seen) => [seen.id, seen.version]));
  for (const memory of [pair.newer, pair.older]) {
    if (seenVersion.get(memory.id) !== memory.version) {
      throw new MemsvcError(
        'CONFLICT',
        `memory ${memory.id} changed since it was shown: it is at version ${memory.version}; look at the pair again`,
        { memoryId: memory.id, currentVersion: memory.version, expectedVersion: seenVersion.get(memory.id) },
      );
    }
  }
  const details = { resolution: outcome, pair: [pair.newer.id, pair.older.id] };
  const clearance = { actor: context.actor, action: CONTRADICTION_RESOLVE_ACTION, details };

  if (outcome === 'keep-both') {
    const cleared = await deps.review.clearContradicted(
      context.tenant,
      [pair.newer, pair.older].map((memory) => ({ id: memory.id, expectedVersion: memory.version })),
      { ...clearance, keepWhileOpen: false },
    );
    return {
      outcome,
      kept: [pair.newer, pair.older].map((memory) => cleared.find((c) => c.id === memory.id) ?? memory),
      deletedId: undefined,
    };
  }

  const [keep, drop] = outcome === 'keep-newer' ? [pair.newer, pair.older] : [pair.older, pair.newer];
  // The delete is the engine's own (MemoryEngine.delete calls the same store method), so the
  // memory's page can restore it like any other deleted memory.
  if (!(await deps.memories.softDelete(context.tenant, drop.id, context.actor))) {
    throw new MemsvcError('CONFLICT', `memory ${drop.id} was deleted meanwhile; look at the pair again`, { memoryId: drop.id });
  }
  // Without an expected version: the decision was about the deleted one; the kept one's mark
  // follows from it.
  const cleared = await deps.review.clearContradicted(context.tenant, [{ id: keep.id }], { ...clearance, keepWhileOpen: true });
  return { outcome, kept: [cleared[0] ?? keep], deletedId: drop.id };
}

function checkOutcome(outcome: unknown): ContradictionOutcome {
  if (!(CONTRADICTION_OUTCOMES as readonly unknown[]).includes(outcome)) {
    throw new MemsvcError('INVALID_INPUT', `outcome must be one of ${CONTRADICTION_OUTCOMES.join(', ')}`, { field: 'outcome' });
  }
  return outcome as ContradictionOutcome;
}

function checkSeen(seen: SeenMemory): SeenMemory {
  if (typeof seen?.id !== 'string' || seen.id === '') throw new MemsvcError('INVALID_INPUT', 'each memory needs its id', { field: 'pair' });
  if (!Number.isInteger(seen.version) || seen.version < 1) {
    throw new MemsvcError('INVALID_INPUT', 'each memory needs the version that was shown (a whole number ≥ 1)', { field: 'pair' });
  }
  return seen;
}
