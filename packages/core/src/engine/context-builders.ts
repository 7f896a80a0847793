import { type ContextBlock, packContext } from '../domain/context-block.js';
import type { MemoryRecord } from '../domain/memory.js';
import type { ContextEntry } from '../domain/replacement-order.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { CallContext } from './engine-parts.js';
import type { MemoryOperations } from './memory-operations.js';
import type { RecallHit, RecallInput } from './recall.js';
import type { SharedSelection } from './shared-spaces.js';

export const CHAR_BUDGET = { min: 512, max: 32_000 } as const;
export const TOKEN_BUDGET = { min: 100, max: 32_000 } as const;

function checkRange(value: number, range: { min: number; max: number }, field: string): number {
  if (!Number.isInteger(value) || value < range.min || value > range.max) {
    throw new MemsvcError('INVALID_INPUT', `${field} must be a whole number from ${range.min} to ${range.max}`, { field });
  }
  return value;
}

function checkScore(minScore: number | undefined): number {
  const value = minScore ?? 0;
  if (!Number.isFinite(value) || value < 0 || value > 1)
    throw new MemsvcError('INVALID_INPUT', 'minScore must be from 0 to 1', { field: 'minScore' });
  return value;
}

export interface QueryContextResult extends ContextBlock {
  /** Recall hits (replacements included) before the minScore filter. */
  readonly candidatesFound: number;
}

/**
 * Recall, keep hits at or above minScore, pack them in recall's reading order — each replacement
 * before what it replaced (R-TIME-CURRENT-FIRST) — dated against the engine's clock; a long
 * memory as the passage that matched the query (R-RECALL-PASSAGE).
 */
async function rankedContext(
  engine: MemoryOperations,
  context: CallContext,
  input: RecallInput & { minScore?: number | undefined },
  budget: { maxChars: number } | { maxTokens: number },
): Promise<QueryContextResult> {
  const minScore = checkScore(input.minScore);
  const { results } = await engine.recall(context, input);
  const entries = hitsAtLeast(results, minScore);
  return { ...packContext(entries, budget, { now: engine.now(), reader: context.tenant }), candidatesFound: results.length };
}

/**
 * The hits scoring at least `minScore`, in recall's order; a replacement keeps its label only
 * for the replaced hits still there (a replacement scores at least what it replaced, so it stays
 * whenever they do).
 */
export function hitsAtLeast(hits: readonly RecallHit[], minScore: number): ContextEntry[] {
  const kept = hits.filter((hit) => hit.score >= minScore);
  const keptIds = new Set(kept.map((hit) => hit.memory.id));
  return kept.map((hit) => {
    const replaces = hit.replaces?.filter((id) => keptIds.has(id));
    const { replaces: _all, ...entry } = hit;
    return replaces && replaces.length > 0 ? { ...entry, replaces } : entry;
  });
}

function newestFirst(memories: readonly MemoryRecord[]): MemoryRecord[] {
  return [...memories].sort((a, b) => b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1));
}

function mostImportantFirst(memories: readonly MemoryRecord[]): MemoryRecord[] {
  return [...memories].sort(
    (a, b) => b.importanceScore - a.importanceScore || b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : -1),
  );
}

/** `prompt_context`: the memories most relevant to a query, packed within a token budget. */
export async function promptContext(
  engine: MemoryOperations,
  context: CallContext,
  input: RecallInput & { tokenBudget?: number | undefined; minScore?: number | undefined },
): Promise<QueryContextResult> {
  const maxTokens = checkRange(input.tokenBudget ?? 2000, TOKEN_BUDGET, 'tokenBudget');
  return rankedContext(engine, context, { ...input, limit: input.limit ?? 20 }, { maxTokens });
}

/** `compress_context`: the memories most relevant to a query, packed within a character budget. */
export async function compressContext(
  engine: MemoryOperations,
  context: CallContext,
  input: RecallInput & { maxChars?: number | undefined; minScore?: number | undefined },
): Promise<QueryContextResult> {
  const maxChars = checkRange(input.maxChars ?? 4000, CHAR_BUDGET, 'maxChars');
  return rankedContext(engine, context, { ...input, limit: input.limit ?? 10 }, { maxChars });
}

export interface LoadContextInput {
  readonly maxChars?: number | undefined;
  readonly recentLimit?: number | undefined;
  readonly importantLimit?: number | undefined;
  readonly scope?: string | undefined;
  readonly tags?: readonly string[] | undefined;
  /** Shared spaces to include (default: the ones the caller chose); their memories are labelled. */
  readonly shared?: SharedSelection | undefined;
}

/**
 * `load_context`: no query, for the start of a session: the most recent memories of both tiers
 * (what was going on), then the most important ones (what matters), without repeats or
 * superseded rows, each replacement before what it replaced, packed within a character budget.
 */
export async function loadContext(engine: MemoryOperations, context: CallContext, input: LoadContextInput): Promise<ContextBlock> {
  const maxChars = checkRange(input.maxChars ?? 6000, CHAR_BUDGET, 'maxChars');
  const recentLimit = checkRange(input.recentLimit ?? 5, { min: 0, max: 20 }, 'recentLimit');
  const importantLimit = checkRange(input.importantLimit ?? 10, { min: 0, max: 30 }, 'importantLimit');
  const filters = { ...(input.scope !== undefined ? { scope: input.scope } : {}), ...(input.tags ? { tags: input.tags } : {}) };
  // A shared space outside an asked-for scope is not read; each space is read in its owner's tenant.
  const spaces = (await engine.sharedSpaces(context, input.shared ?? 'default')).filter(
    (space) => input.scope === undefined || space.space === input.scope,
  );
  const sources = [undefined, ...spaces.map((space) => ({ owner: space.owner, space: space.space }))];
  const recent =
    recentLimit > 0
      ? newestFirst(
          (
            await Promise.all(
              sources.map((shared) => engine.list(context, { limit: recentLimit, ...filters, ...(shared ? { shared } : {}) })),
            )
          ).flatMap((page) => page.items),
        ).slice(0, recentLimit)
      : [];
  const important =
    importantLimit > 0
      ? mostImportantFirst(
          (
            await Promise.all(
              sources.map((shared) =>
                engine.mostImportant(context, { limit: importantLimit + recentLimit, ...filters, ...(shared ? { shared } : {}) }),
              ),
            )
          ).flat(),
        )
      : [];
  const seen = new Set(recent.map((memory) => memory.id));
  const chosen: MemoryRecord[] = [...recent];
  for (const memory of important) {
    if (chosen.length >= recent.length + importantLimit) break;
    if (!seen.has(memory.id)) {
      seen.add(memory.id);
      chosen.push(memory);
    }
  }
  const entries = await engine.inReadingOrder(context, chosen, filters, spaces);
  return packContext(entries, { maxChars }, { now: engine.now(), reader: context.tenant });
}
