import { MemsvcError } from '../errors/memsvc-error.js';
import { insideSpace } from './grant-space-bounds.js';
import type { MemoryRecord } from './memory.js';
import type { PlannedLink } from './write-plan.js';

/**
 * Most memories one write may retire with `supersedes`. A change of fact replaces one memory,
 * sometimes a few restatements of it; twenty is far past that, and keeps the rows a write locks
 * (and the audit entries it writes) bounded.
 */
export const MAX_SUPERSEDES = 20;

/** The links an explicit supersession records: both directions, as the `supersede` policy does. */
const SUPERSESSION_LINKS: readonly PlannedLink[] = Object.freeze([
  { from: 'new', rel: 'supersedes' },
  { from: 'existing', rel: 'superseded-by' },
]);

/**
 * What a write does to one memory its caller named in `supersedes` (R-SUPERSEDES-RETIRE): the
 * memory is hidden behind the write's memory as a new version (so restore_memory with the
 * version before brings it back), audited as `supersede`, and linked both ways. Unlike a
 * ContradictionEffect no similarity made it: the caller stated it, so its links are `authored`.
 */
export interface SupersessionEffect {
  /** The named memory as the store read it under its lock. */
  readonly memory: MemoryRecord;
  readonly auditAction: 'supersede';
  readonly links: readonly PlannedLink[];
}

/**
 * The caller's `supersedes`, checked, with the plan that turns the rows a store finds into
 * effects. Core's write and update use cases (writeMemory, updateMemory) read the named rows
 * through the store's unit of work, under their locks, call `plan` before the unit changes
 * anything, and have the unit apply what it returns; `plan` throws when the write must not
 * happen, and then nothing is written.
 */
export interface SupersessionRequest {
  /** The named ids, each once, in the caller's order. */
  readonly ids: readonly string[];
  /**
   * The effects of retiring `ids` behind `successorId`. `found` are the named rows of the tenant
   * that are live and not superseded; `successorChain` the ids of the memories that supersede
   * the successor, transitively (empty for a new memory).
   */
  plan(found: readonly MemoryRecord[], successorId: string, successorChain: readonly string[]): readonly SupersessionEffect[];
}

/** Who names the memories a `supersedes` retires, beyond the list itself. */
export interface SupersessionScope {
  /** update_memory's own memory, which the list must not name. */
  readonly ownId?: string | undefined;
  /** The granted space a grantee writes under (CallContext.grantSpace): only its memories may be retired. */
  readonly space?: string | undefined;
}

/**
 * R-SUPERSEDES-LIMIT / R-SUPERSEDES-SELF: checks `supersedes` before anything is written or
 * embedded: a list of 1 to MAX_SUPERSEDES ids (repeats count once) that does not name `ownId`
 * (update_memory's own memory). Undefined when the caller named none.
 */
export function supersessionRequest(ids: unknown, { ownId, space }: SupersessionScope = {}): SupersessionRequest | undefined {
  if (ids === undefined) return undefined;
  if (!Array.isArray(ids) || ids.some((id) => typeof id !== 'string' || id.length === 0 || id.length > 128)) {
    throw invalid('supersedes must be a list of memory ids');
  }
  const unique = [...new Set(ids as string[])];
  if (unique.length === 0) return undefined;
  if (unique.length > MAX_SUPERSEDES)
    throw invalid(`supersedes names ${unique.length} memories; at most ${MAX_SUPERSEDES} may be retired at once`);
  if (ownId !== undefined && unique.includes(ownId)) throw invalid('a memory cannot supersede itself');
  return { ids: unique, plan: (found, successorId, chain) => planSupersession(unique, found, successorId, chain, space) };
}

/**
 * R-SUPERSEDES-FOUND / R-SUPERSEDES-CYCLE: every named id must be one of the tenant's live,
 * current memories. Another tenant's id, an unknown one, a deleted one and one already
 * superseded all get the same answer, so the error tells nothing about other tenants. Retiring
 * a memory that (transitively) supersedes the successor would make each hide the other.
 * R-GRANT-SUPERSEDES: under a grant (`space`), every named id must also be inside the space;
 * any other is FORBIDDEN, and a memory outside the space gets the same answer as an unknown
 * one, so the refusal does not tell the grantee which of the owner's ids exist.
 */
function planSupersession(
  ids: readonly string[],
  found: readonly MemoryRecord[],
  successorId: string,
  successorChain: readonly string[],
  space: string | undefined,
): readonly SupersessionEffect[] {
  if (ids.includes(successorId)) throw invalid('a memory cannot supersede itself');
  const current = found.filter((memory) => memory.deletedAt === null && memory.supersededBy === null && insideSpace(memory, space));
  const byId = new Map(current.map((m) => [m.id, m]));
  const missing = ids.find((id) => !byId.has(id));
  if (missing !== undefined && space !== undefined) {
    throw new MemsvcError(
      'FORBIDDEN',
      `supersedes names ${missing}, which is not a current memory of the space ${JSON.stringify(space)} shared with you`,
      { field: 'supersedes', memoryId: missing },
    );
  }
  if (missing !== undefined) {
    throw invalid(`supersedes names ${missing}, which is not one of your current memories (unknown, deleted or already superseded)`, {
      memoryId: missing,
    });
  }
  const cycle = ids.find((id) => successorChain.includes(id));
  if (cycle !== undefined) {
    throw invalid(`memory ${cycle} already supersedes this one (directly or through others): superseding it would form a cycle`, {
      memoryId: cycle,
    });
  }
  return ids.map((id) => ({ memory: byId.get(id) as MemoryRecord, auditAction: 'supersede', links: SUPERSESSION_LINKS }));
}

/** The ids a write's candidates must not contain: a memory being retired is neither its duplicate nor its contradiction. */
export function withoutRetired<
  T extends {
    readonly exact: MemoryRecord | undefined;
    readonly neighbours: readonly { memory: MemoryRecord }[];
    readonly related?: readonly MemoryRecord[];
  },
>(candidates: T, request: SupersessionRequest | undefined): T {
  if (!request) return candidates;
  const retired = new Set(request.ids);
  return {
    ...candidates,
    exact: candidates.exact && retired.has(candidates.exact.id) ? undefined : candidates.exact,
    neighbours: candidates.neighbours.filter((neighbour) => !retired.has(neighbour.memory.id)),
    // Nor a changed fact the write would detect: the caller already said what it replaces.
    ...(candidates.related ? { related: candidates.related.filter((memory) => !retired.has(memory.id)) } : {}),
  };
}

function invalid(message: string, data: Record<string, unknown> = {}): MemsvcError {
  return new MemsvcError('INVALID_INPUT', message, { field: 'supersedes', ...data });
}
