import { packContext } from '../domain/context-block.js';
import type { ErasureReceipt } from '../domain/erasure.js';
import type { MemoryRecord, MemoryTier } from '../domain/memory.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import { hitsAtLeast } from './context-builders.js';
import type { CreateResult } from './create-memory.js';
import type { CallContext } from './engine-parts.js';
import type { MemoryOperations } from './memory-operations.js';

/**
 * Cues that a note is about now rather than for good ("currently", "today", "working on", …):
 * `remember` with type auto keeps those short-term. Matched on words, case-insensitively.
 */
const TRANSIENT_CUES =
  /\b(today|tonight|tomorrow|right now|currently|at the moment|working on|in progress|just (started|finished|did|updated)|this (morning|afternoon|evening|week)|temporar(y|ily)|reminder|remind me|don't forget|later today)\b/i;

export interface RememberInput {
  readonly content: string;
  readonly type?: 'auto' | MemoryTier | undefined;
  readonly scope?: string | undefined;
  readonly tags?: readonly string[] | undefined;
  readonly metadata?: unknown;
  readonly importance?: number | null | undefined;
  readonly ttlSeconds?: number | undefined;
  /** Ids of memories this one replaces (CreateMemoryInput.supersedes). */
  readonly supersedes?: readonly string[] | undefined;
  /** Write into this owner's space `scope`, shared with the caller read-write (MemoryEngine.create). */
  readonly owner?: string | undefined;
}

export interface RememberResult extends CreateResult {
  readonly resolvedType: MemoryTier;
  /** True exactly when nothing new was stored because the memory was already there. */
  readonly wasDeduped: boolean;
}

/** Which tier `auto` picks: short-term when a ttl is given or the text is about the moment. */
export function resolveTier(input: Pick<RememberInput, 'type' | 'content' | 'ttlSeconds'>): MemoryTier {
  if (input.type && input.type !== 'auto') return input.type;
  if (input.ttlSeconds !== undefined) return 'stm';
  return TRANSIENT_CUES.test(input.content) ? 'stm' : 'ltm';
}

/** `remember`: the smart write. Picks the tier, then writes under the same rules as create. */
export async function remember(engine: MemoryOperations, context: CallContext, input: RememberInput): Promise<RememberResult> {
  const tier = resolveTier(input);
  const created = await engine.create(context, {
    content: input.content,
    tier,
    scope: input.scope,
    tags: input.tags,
    metadata: input.metadata,
    importance: input.importance,
    supersedes: input.supersedes,
    ...(tier === 'stm' && input.ttlSeconds !== undefined ? { ttlSeconds: input.ttlSeconds } : {}),
    ...(input.owner !== undefined ? { owner: input.owner } : {}),
  });
  return { ...created, resolvedType: tier, wasDeduped: created.outcome === 'duplicate' };
}

export interface ForgetInput {
  readonly memoryId?: string | undefined;
  readonly query?: string | undefined;
  /** 1–20, default 5. */
  readonly limit?: number | undefined;
  /** Default 0.3. */
  readonly minScore?: number | undefined;
  readonly scope?: string | undefined;
  readonly confirm?: boolean | undefined;
  /** Erase for good instead of deleting (MemoryEngine.erase): not restorable; the result carries the receipt. */
  readonly erase?: boolean | undefined;
}

export interface ForgetResult {
  readonly dryRun: boolean;
  readonly candidates: readonly { memoryId: string; content: string; score: number | undefined }[];
  /** Ids deleted (restorable with restore_memory, audited as deletes), or erased. */
  readonly deleted: readonly string[];
  /** With `erase`: what was erased where. */
  readonly receipt?: ErasureReceipt;
}

/**
 * `forget`: delete by id, or by what a query finds. Shows what it would delete unless
 * `confirm` is true. Deletes are the ordinary soft deletes: audited and restorable.
 */
export async function forget(engine: MemoryOperations, context: CallContext, input: ForgetInput): Promise<ForgetResult> {
  if ((input.memoryId === undefined) === (input.query === undefined)) {
    throw new MemsvcError('INVALID_INPUT', 'give either memoryId or query', { field: input.memoryId === undefined ? 'query' : 'memoryId' });
  }
  let candidates: ForgetResult['candidates'];
  if (input.memoryId !== undefined) {
    const memory = await engine.getUncounted(context, input.memoryId);
    candidates = [{ memoryId: memory.id, content: memory.content, score: undefined }];
  } else {
    const limit = input.limit ?? 5;
    if (!Number.isInteger(limit) || limit < 1 || limit > 20)
      throw new MemsvcError('INVALID_INPUT', 'limit must be from 1 to 20', { field: 'limit' });
    const minScore = input.minScore ?? 0.3;
    if (!(minScore >= 0 && minScore <= 1)) throw new MemsvcError('INVALID_INPUT', 'minScore must be from 0 to 1', { field: 'minScore' });
    // What a confirmed forget deletes is found on the memories as they are now, not on a standby's
    // copy that may lag (another server's edit of a memory, not yet replayed, could no longer match).
    const { results } = await engine.recall(context, {
      query: input.query ?? '',
      limit,
      scope: input.scope,
      current: input.confirm === true,
      // forget deletes what it finds: only ever the caller's own memories.
      shared: 'none',
    });
    // A memory is deleted for what it says itself, never for what the turns after it say.
    candidates = results
      .filter((result) => result.matchScore >= minScore)
      .map((result) => ({
        memoryId: result.memory.id,
        content: result.memory.content,
        score: Math.round(result.matchScore * 10_000) / 10_000,
      }));
  }
  if (!input.confirm) return { dryRun: true, candidates, deleted: [] };
  if (input.erase) {
    if (candidates.length === 0) return { dryRun: false, candidates, deleted: [] };
    const receipt = await engine.erase(
      context,
      candidates.map((candidate) => candidate.memoryId),
    );
    return { dryRun: false, candidates, deleted: [...receipt.memoryIds], receipt };
  }
  const deleted: string[] = [];
  for (const candidate of candidates) if (await engine.delete(context, candidate.memoryId)) deleted.push(candidate.memoryId);
  return { dryRun: false, candidates, deleted };
}

export interface ReflectInput {
  readonly query: string;
  readonly limit?: number | undefined;
  readonly minScore?: number | undefined;
  readonly scope?: string | undefined;
  readonly tags?: readonly string[] | undefined;
}

export interface ReflectResult {
  readonly summary: string;
  readonly themes: readonly string[];
  readonly sourceIds: readonly string[];
  readonly memoryCount: number;
  readonly dateRange: { earliest: string; latest: string } | null;
}

const STOP_WORDS = new Set(
  'a an and are as at be but by for from has have in is it its of on or our so that the their there this to was we were will with not no'.split(
    ' ',
  ),
);

/**
 * `reflect`: a deterministic digest of the memories relevant to a query, no model involved:
 * the memories as a framed block, and up to five themes — their most frequent tags, then their
 * most frequent words — with the sources and the dates they span.
 */
export async function reflect(engine: MemoryOperations, context: CallContext, input: ReflectInput): Promise<ReflectResult> {
  const limit = input.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > 30)
    throw new MemsvcError('INVALID_INPUT', 'limit must be from 1 to 30', { field: 'limit' });
  const minScore = input.minScore ?? 0.2;
  if (!(minScore >= 0 && minScore <= 1)) throw new MemsvcError('INVALID_INPUT', 'minScore must be from 0 to 1', { field: 'minScore' });
  // The digest reads as the context tools do: when each was said, the current one before the one it replaced.
  const { results } = await engine.recall(context, { query: input.query, limit, scope: input.scope, tags: input.tags, passages: false });
  const entries = hitsAtLeast(results, minScore);
  if (entries.length === 0) {
    return { summary: `Nothing stored is relevant to "${input.query}".`, themes: [], sourceIds: [], memoryCount: 0, dateRange: null };
  }
  const shown = entries.map((entry) => entry.memory);
  const times = shown.map((memory) => memory.createdAt.getTime());
  return {
    summary: packContext(entries, { maxChars: 4000 }, { now: engine.now() }).text,
    themes: themesOf(shown),
    sourceIds: shown.map((memory) => memory.id),
    memoryCount: shown.length,
    dateRange: { earliest: new Date(Math.min(...times)).toISOString(), latest: new Date(Math.max(...times)).toISOString() },
  };
}

function themesOf(memories: readonly MemoryRecord[]): string[] {
  const count = (items: Iterable<string>) => {
    const counts = new Map<string, number>();
    for (const item of items) counts.set(item, (counts.get(item) ?? 0) + 1);
    // Most frequent first; ties alphabetically, so the same memories give the same themes.
    return [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0])).map(([item]) => item);
  };
  const tags = count(memories.flatMap((memory) => memory.tags));
  const words = count(
    memories.flatMap((memory) => [
      ...new Set(
        (memory.content.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}-]+/gu) ?? []).filter(
          (word) => word.length > 2 && !STOP_WORDS.has(word),
        ),
      ),
    ]),
  );
  return [...new Set([...tags, ...words])].slice(0, 5);
}
