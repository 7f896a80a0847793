import { LEXICAL_RANKING } from '../domain/lexical-ranking.js';
import { matchingPassage } from '../domain/matching-passage.js';
import type { MemoryTier } from '../domain/memory.js';
import { describeAge, formatInstant } from '../domain/memory-age.js';
import type { SharedSpace } from '../domain/memory-grants.js';
import { checkMetadata, checkScope, checkTags } from '../domain/memory-limits.js';
import { newerSaidFirst } from '../domain/newer-said-first.js';
import { rankingQueryText } from '../domain/query-terms.js';
import { detectChangedFacts } from '../domain/read-time-fact-changes.js';
import { explainHit, type RecallExplanation, type RecallFusion, recallFusion } from '../domain/recall-explanation.js';
import type { FusionContext, RecallCandidate } from '../domain/recall-ranking.js';
import { FUSION_WEIGHTS, type FusionWeights, fusionContextOf, type RankedMemory, rankCandidates } from '../domain/recall-ranking.js';
import type { ContextEntry, OrderedEntry } from '../domain/replacement-order.js';
import { type TenantId, toTenantId } from '../domain/tenant.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { Clock } from '../ports/clock.js';
import type { Embedder } from '../ports/embedder.js';
import type { MemoryStore, RecallFilters } from '../ports/memory-store.js';
import { NO_TRACING, type Tracer, type TraceSpan } from '../ports/tracer.js';
import { type AsOfGaps, recallAsOf } from './as-of-reads.js';
import { inReadingOrder, namesReplacement, type ReadSource } from './reading-order.js';
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
  /**
   * A long memory's hit carries the passage that matched the query (matching-passage.ts), which
   * is what a reader should be shown; default true. False: memories whole.
   */
  readonly passages?: boolean | undefined;
  /** Each hit with why it was recalled (recall-explanation.ts), and the result with the fusion it was ranked by; default false. */
  readonly explain?: boolean | undefined;
}

/**
 * A recall hit as an agent reads it: the memory, its score, when it was said and how long ago,
 * what replaced what, the passage that matched, and whose space it comes from; with how it ranked
 * (a replacement the query did not find has no ranks and a matchScore of 0).
 */
export interface RecallHit extends ContextEntry, Omit<RankedMemory, 'memory' | 'fused' | 'adjustments'> {
  /** What the hits are ordered by, in [0, 1]; a replacement has at least the score of what it replaced. */
  readonly score: number;
  /** When the memory was said, to the minute in UTC (`2026-11-27T14:05Z`). */
  readonly said: string;
  /** How long before the server's now (`3 days ago`). */
  readonly ago: string;
  /** Another owner's memory, from a space shared with the caller: whose, and which space. */
  readonly shared?: { readonly owner: string; readonly space: string | null } | undefined;
  /** With `explain`: its list places, fused match and every adjustment to its score. */
  readonly explanation?: RecallExplanation | undefined;
}

export interface RecallResult {
  /** The hits in the order to read them (R-TIME-CURRENT-FIRST), at most `limit`. */
  readonly results: readonly RecallHit[];
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
  /** With `explain`: the list weights and best BM25 every hit's explanation is measured against. */
  readonly fusion?: RecallFusion;
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
 * Recall (spec §3.3), in one pass: both tiers unless one is asked for, expired rows never,
 * superseded rows only on request, contradicted rows with their marker. Candidates from vector
 * and full-text search in one round trip per tenant read, ranked by core's fusion formula, put in
 * the one reading order (reading-order.ts: what replaced a hit right before it, the follow-up reads
 * batched), each hit dated and cut to its matching passage. The hits' access counts are recorded
 * after the answer is ready, in one statement. A tool only maps the answer to JSON.
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
  if (input.explain !== undefined && typeof input.explain !== 'boolean') {
    throw new MemsvcError('INVALID_INPUT', 'explain must be true or false', { field: 'explain' });
  }
  const filters = checkFilters(input);
  const rankingText = rankingQueryText(query);
  const { tracer } = deps;
  // A memory can be far down one list and first in the other; three times the limit (at least
  // 30) gives fusion room without paying for long lists.
  const perList = Math.min(150, Math.max(30, limit * 3));
  // As of a moment: the versions of then, ranked in core (as-of-reads.ts); no access is counted.
  // What replaced a hit later is the future then: the hits stay as ranked.
  if (input.asOf !== undefined) {
    const { results, context, ...asOf } = await databaseStage(tracer, 'recall-as-of', () =>
      recallAsOf(deps, tenant, { asOf: input.asOf as Date, query, rankingText, limit, perList, filters }),
    );
    span.setAttributes({ 'memsvc.recall.results': results.length, 'memsvc.recall.vector': false, 'memsvc.recall.semantic': false });
    const explained = explaining(input, FUSION_WEIGHTS.disabled, context);
    const hits = results.map((result) => recallHit(tenant, result, result, deps.clock.now(), passageQuery(input, query), explained));
    return { results: hits, vector: false, semantic: false, asOf, ...fusionOf(explained) };
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
  const sources: ReadSource[] = [{ tenant, filters }, ...sharedSources(shared, filters)];
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
  // The one reading order (R-TIME-CURRENT-FIRST): what replaced a hit — by a write's marker, a
  // link, or a fact change detected among the candidates — right before it, and a newer related
  // statement that answers the query as well read before it, unmarked (R-FACT-NEWER-FIRST); then
  // cut to the limit.
  const order = () => inReadingOrder(deps.store, tenant, sources, ranked, now, detectChangedFacts(ranked), newerSaidFirst(ranked, query));
  // Most recalls name no replacement and read nothing more: only a read gets its stage.
  const ordered = ranked.some((result) => namesReplacement(result.memory))
    ? await databaseStage(tracer, 'replacements', order)
    : await order();
  const rankedById = new Map(ranked.map((result) => [result.memory.id, result]));
  const explained = explaining(input, weights, fusionContextOf(candidates));
  const results = ordered
    .slice(0, limit)
    .map((entry) => recallHit(tenant, entry, rankedById.get(entry.memory.id), now, passageQuery(input, query), explained));
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
  return { results, vector: byVector, semantic, ...fusionOf(explained) };
}

/** What an explained recall measures its hits against; undefined unless the caller asked. */
interface Explaining {
  readonly weights: FusionWeights;
  readonly context: FusionContext;
}

function explaining(input: RecallInput, weights: FusionWeights, context: FusionContext): Explaining | undefined {
  return input.explain === true ? { weights, context } : undefined;
}

function fusionOf(explained: Explaining | undefined): { fusion?: RecallFusion } {
  return explained ? { fusion: recallFusion(explained.weights, explained.context) } : {};
}

/** The query a hit's passage is chosen for, unless the caller wants memories whole. */
function passageQuery(input: RecallInput, query: string): string | undefined {
  return input.passages === false ? undefined : query;
}

/** A hit as the reader gets it: how it ranked, when it was said, the passage that matched, and whose it is. */
function recallHit(
  reader: TenantId,
  entry: OrderedEntry,
  ranked: RankedMemory | undefined,
  now: Date,
  query: string | undefined,
  explained: Explaining | undefined,
): RecallHit {
  const { memory } = entry;
  const passage = query === undefined ? undefined : matchingPassage(memory.content, query);
  return {
    memory,
    score: entry.score,
    matchScore: ranked?.matchScore ?? 0,
    vectorRank: ranked?.vectorRank,
    lexicalRank: ranked?.lexicalRank,
    lexicalScore: ranked?.lexicalScore,
    similarity: ranked?.similarity,
    said: formatInstant(memory.createdAt),
    ago: describeAge(memory.createdAt, now),
    ...(entry.replacedBy !== undefined ? { replacedBy: entry.replacedBy } : {}),
    ...(entry.replaces !== undefined ? { replaces: entry.replaces } : {}),
    ...(passage !== undefined ? { passage } : {}),
    ...(memory.userId !== reader ? { shared: { owner: memory.userId, space: memory.scope } } : {}),
    ...(explained ? { explanation: explainHit(ranked, entry.score, explained.weights, explained.context) } : {}),
  };
}

/**
 * The shared spaces a recall reads, each bounded to its space (its scope in its owner's tenant).
 * A space outside an asked-for scope is not read at all.
 */
function sharedSources(spaces: readonly SharedSpace[], filters: RecallFilters): ReadSource[] {
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
