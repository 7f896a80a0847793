import { orderReplacementsFirst } from '../domain/fact-replacement-order.js';
import { LEXICAL_RANKING } from '../domain/lexical-ranking.js';
import type { MemoryRecord, MemoryTier } from '../domain/memory.js';
import type { SharedSpace } from '../domain/memory-grants.js';
import { checkMetadata, checkScope, checkTags } from '../domain/memory-limits.js';
import { rankingQueryText } from '../domain/query-terms.js';
import type { RecallCandidate } from '../domain/recall-ranking.js';
import { FUSION_WEIGHTS, type FusionWeights, type RankedMemory, rankCandidates } from '../domain/recall-ranking.js';
import { type TenantId, toTenantId } from '../domain/tenant.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { MemoryStore, RecallFilters } from '../ports/memory-store.js';
import { NO_TRACING, type Tracer, type TraceSpan } from '../ports/tracer.js';
import { type AsOfGaps, recallAsOf } from './as-of-reads.js';
import type { SharedSelection } from './shared-spaces.js';
import { databaseStage, embedInSpan } from './traced-stages.js';

/** Longest query recall accepts, in characters. */
export const MAX_QUERY_LENGTH = 2048;
/** Most results one recall returns. */
export const MAX_RECALL_LIMIT = 50;

export interface RecallInput {
  readonly query: string;
  /** 1–50, default 10. */
  readonly limit?: number | undefined;
  readonly tier?: MemoryTier | undefined;
  readonly scope?: string | null | undefined;
  /** All of these tags (the same rule as list_memories). */
  readonly tags?: readonly string[] | undefined;
  /** Metadata containing this object. */
  readonly metadata?: unknown;
  readonly createdFrom?: Date | undefined;
  readonly createdTo?: Date | undefined;
  /** Superseded memories are hidden unless asked for. */
  readonly includeSuperseded?: boolean | undefined;
  /**
   * The candidates must be the memories as they are now (forget with confirm deletes what it
   * finds): a store with a read replica reads them on the primary, never a standby that may lag.
   */
  readonly current?: boolean | undefined;
  /**
   * Answer as the tenant's memory would have then (as-of-reads.ts): the versions current at that
   * moment, ranked by full text alone. Slower than a live recall; counts no access.
   */
  readonly asOf?: Date | undefined;
  /**
   * Which spaces shared with the caller by grant are searched besides its own memories
   * (shared-spaces.ts; default: the ones it chose). Not with `asOf`: the past is the caller's own.
   */
  readonly shared?: SharedSelection | undefined;
}

export interface RecallResult {
  readonly results: readonly RankedMemory[];
  /** Whether a query vector ranked the answer; without one only full text did. */
  readonly vector: boolean;
  /**
   * Whether it was ranked by meaning: a query vector from an embedder that embeds meaning
   * (Embedder.embedsMeaning: ollama, openai). The local embedder's vectors hash words, so its
   * answers have `vector` but are not `semantic`.
   */
  readonly semantic: boolean;
  /** For an `asOf` recall: the moment, and what could not be rebuilt. */
  readonly asOf?: AsOfGaps;
}

export interface RecallDependencies {
  readonly store: MemoryStore;
  readonly embedder: Embedder;
  readonly clock: Clock;
  readonly fusion: FusionWeights;
  /** A failure of work done after the answer (access counting): reported, never thrown. */
  readonly onBackgroundError: (error: unknown) => void;
  /** A `memory.recall` span with its stages (embed, database, rank); default: none. */
  readonly tracer?: Tracer;
}

/**
 * Recall (spec §3.3): both tiers unless one is asked for, expired rows never, superseded rows
 * only on request, contradicted rows with their marker. Candidates from vector and full-text
 * search in one round trip, ranked by core's fusion formula; the hits' access counts are
 * recorded after the answer is ready, in one statement.
 */
export function recall(
  deps: RecallDependencies,
  tenant: TenantId,
  input: RecallInput,
  spaces: readonly SharedSpace[] | Promise<readonly SharedSpace[]> = [],
): Promise<RecallResult> {
  const tracer = deps.tracer ?? NO_TRACING;
  return tracer.inSpan('memory.recall', { 'memsvc.memory.tier': input.tier, 'memsvc.recall.limit': input.limit }, (span) =>
    recallInSpan({ ...deps, tracer }, tenant, input, spaces, span),
  );
}

async function recallInSpan(
  deps: RecallDependencies & { readonly tracer: Tracer },
  tenant: TenantId,
  input: RecallInput,
  spaces: readonly SharedSpace[] | Promise<readonly SharedSpace[]>,
  span: TraceSpan,
): Promise<RecallResult> {
  const query = checkQuery(input.query);
  const limit = input.limit ?? 10;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_RECALL_LIMIT) {
    throw new MemsvcError('INVALID_INPUT', `limit must be a whole number from 1 to ${MAX_RECALL_LIMIT}`, { field: 'limit' });
  }
  const filters = checkFilters(input);
  const rankingText = rankingQueryText(query);
  const { tracer } = deps;
  // A memory can be far down one list and first in the other; three times the limit (at least
  // 30) gives fusion room without paying for long lists.
  const perList = Math.min(150, Math.max(30, limit * 3));
  // As of a moment: the versions of then, ranked in core (as-of-reads.ts); no access is counted.
  if (input.asOf !== undefined) {
    const { results, ...asOf } = await databaseStage(tracer, 'recall-as-of', () =>
      recallAsOf(deps, tenant, { asOf: input.asOf as Date, query, rankingText, limit, perList, filters }),
    );
    span.setAttributes({ 'memsvc.recall.results': results.length, 'memsvc.recall.vector': false, 'memsvc.recall.semantic': false });
    return { results, vector: false, semantic: false, asOf };
  }
  // The grants are looked up while the query is embedded: neither waits for the other.
  const [embedded, shared] = await Promise.all([
    deps.fusion.vector > 0 ? embedInSpan(tracer, deps.embedder, [rankingText], 'query') : undefined,
    spaces,
  ]);
  const vector = embedded?.[0];
  const now = deps.clock.now();
  // The caller's own memories and each shared space, each read within its owner's tenant (so a
  // space's BM25 statistics are its owner's), at the same time, then ranked as one list.
  const sources = [{ tenant, filters }, ...sharedSources(shared, filters)];
  const candidates = await databaseStage(
    tracer,
    'recall-candidates',
    async () =>
      (
        await Promise.all(
          sources.map((source) =>
            deps.store.recallCandidates(source.tenant, {
              text: rankingText,
              vector: vector ?? null,
              perList,
              minSimilarity: deps.fusion.minVectorSimilarity,
              lexical: LEXICAL_RANKING,
              filters: source.filters,
              now,
              ...(input.current ? { current: true } : {}),
            }),
          ),
        )
      ).flat() as RecallCandidate[],
  );
  const weights = vector ? deps.fusion : FUSION_WEIGHTS.disabled;
  // Ranked past the limit, so a replacement found a little further down can move up before what it replaced.
  const ranked = await tracer.inSpan('rank', { 'memsvc.recall.candidates': candidates.length }, async () =>
    rankCandidates(candidates, weights, { now, limit: limit * 2, query }),
  );
  const results = orderReplacementsFirst(ranked, await missingReplacements(deps, sources, ranked), limit);
  const byVector = vector !== undefined;
  const semantic = byVector && deps.embedder.embedsMeaning === true;
  span.setAttributes({ 'memsvc.recall.results': results.length, 'memsvc.recall.vector': byVector, 'memsvc.recall.semantic': semantic });
  // A grantee's reads are not its owner's accesses: only the caller's own hits are counted.
  const own = results.filter((result) => result.memory.userId === tenant);
  if (own.length > 0) {
    // After the answer: its span may end after memory.recall's, which tracing allows.
    databaseStage(tracer, 'record-access', () =>
      deps.store.recordAccess(
        tenant,
        own.map((result) => result.memory.id),
      ),
    ).catch(deps.onBackgroundError);
  }
  return { results, vector: byVector, semantic };
}

/**
 * The live replacements of marked results that the query did not rank (one read each, bounded by
 * the limit; most recalls have none), within the recall's scope, tier and dates.
 */
async function missingReplacements(
  deps: RecallDependencies,
  sources: readonly RecallSource[],
  ranked: readonly RankedMemory[],
): Promise<MemoryRecord[]> {
  const present = new Set(ranked.map((result) => result.memory.id));
  // A replacement is looked for where the memory it replaces lives, under that source's filters.
  const wanted = new Map<string, RecallSource>();
  for (const { memory } of ranked) {
    if (!memory.replacedBy || present.has(memory.replacedBy)) continue;
    const source =
      sources.find((candidate) => candidate.tenant === memory.userId && candidate.filters.scope === undefined) ??
      sources.find((candidate) => candidate.tenant === memory.userId && candidate.filters.scope === memory.scope);
    if (source) wanted.set(memory.replacedBy, source);
  }
  if (wanted.size === 0) return [];
  const found = await databaseStage(deps.tracer ?? NO_TRACING, 'replacements', () =>
    Promise.all(
      [...wanted].map(async ([id, source]) => ({ memory: await deps.store.findById(source.tenant, id), filters: source.filters })),
    ),
  );
  return found.flatMap(({ memory, filters }) => (memory !== undefined && admits(memory, filters) ? [memory] : []));
}

/** Whether a replacement is one the recall would have returned. */
function admits(memory: MemoryRecord, filters: RecallFilters): boolean {
  return (
    memory.supersededBy === null &&
    (filters.tier === undefined || memory.tier === filters.tier) &&
    (filters.scope === undefined || memory.scope === filters.scope) &&
    (filters.createdFrom === undefined || memory.createdAt >= filters.createdFrom) &&
    (filters.createdTo === undefined || memory.createdAt <= filters.createdTo)
  );
}

/** Where a recall reads: a tenant, under the filters that bound what it may return there. */
interface RecallSource {
  readonly tenant: TenantId;
  readonly filters: RecallFilters;
}

/**
 * The shared spaces a recall reads, each bounded to its space (its scope in its owner's tenant).
 * A space outside an asked-for scope is not read at all.
 */
function sharedSources(spaces: readonly SharedSpace[], filters: RecallFilters): RecallSource[] {
  return spaces
    .filter((space) => filters.scope === undefined || filters.scope === space.space)
    .map((space) => ({ tenant: toTenantId(space.owner, 'owner'), filters: { ...filters, scope: space.space } }));
}

function checkQuery(query: string): string {
  // A NUL cannot be sent as PostgreSQL text; it is never part of a word anyway.
  const trimmed = typeof query === 'string' ? query.replaceAll('\u0000', ' ').trim() : '';
  if (trimmed.length === 0) throw new MemsvcError('INVALID_INPUT', 'query must not be empty', { field: 'query' });
  if (trimmed.length > MAX_QUERY_LENGTH) {
    throw new MemsvcError('INVALID_INPUT', `query is ${trimmed.length} characters; the limit is ${MAX_QUERY_LENGTH}`, { field: 'query' });
  }
  return trimmed;
}

function checkFilters(input: RecallInput): RecallFilters {
  const { createdFrom, createdTo } = input;
  for (const [field, date] of [
    ['createdFrom', createdFrom],
    ['createdTo', createdTo],
  ] as const) {
    if (date !== undefined && Number.isNaN(date.getTime()))
      throw new MemsvcError('INVALID_INPUT', `${field} is not a valid date`, { field });
  }
  if (createdFrom && createdTo && createdFrom > createdTo) {
    throw new MemsvcError('INVALID_INPUT', 'createdFrom must not be after createdTo', { field: 'createdFrom' });
  }
  return {
    tier: input.tier,
    scope: input.scope === undefined ? undefined : checkScope(input.scope),
    tags: input.tags && input.tags.length > 0 ? checkTags(input.tags) : undefined,
    metadata: input.metadata === undefined ? undefined : checkMetadata(input.metadata),
    createdFrom,
    createdTo,
    includeSuperseded: input.includeSuperseded,
  };
}
