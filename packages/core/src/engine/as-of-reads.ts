import { bm25Score, LEXICAL_RANKING, type LexicalPosting } from '../domain/lexical-ranking.js';
import type { MemoryRecord } from '../domain/memory.js';
import { lexicalTerms } from '../domain/plain-terms.js';
import {
  FUSION_WEIGHTS,
  type FusionContext,
  fusionContextOf,
  type RankedMemory,
  type RecallCandidate,
  rankCandidates,
} from '../domain/recall-ranking.js';
import type { TenantId } from '../domain/tenant.js';
import {
  AS_OF_MAX_MEMORIES,
  beforeFirstMemory,
  checkAsOf,
  type MemoriesAsOf,
  memoriesFromEntries,
  visibleAt,
} from '../domain/versions-as-of.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { Clock } from '../ports/clock.js';
import type { MemoryPage, MemoryStore, RecallFilters } from '../ports/memory-store.js';

/** What an `asOf` read needs. */
export interface AsOfDependencies {
  readonly store: MemoryStore;
  readonly clock: Clock;
}

/** What an `asOf` answer adds to the live one: what it could not rebuild. */
export interface AsOfGaps {
  /** The moment answered for. */
  readonly asOf: Date;
  /** Memories that existed then but whose version of then is no longer kept (AUDIT_LIMITS); left out. */
  readonly unavailable: number;
  /** The tenant had more than AS_OF_MAX_MEMORIES memories then; the oldest were not considered. */
  readonly truncated: boolean;
}

/** The tenant's memories at `asOf` (or only `ids`), in one store read; typed errors naming `asOf`. */
export async function memoriesAsOf(
  deps: AsOfDependencies,
  tenant: TenantId,
  asOf: Date,
  ids?: readonly string[],
): Promise<MemoriesAsOf & { at: Date }> {
  const at = checkAsOf(asOf, deps.clock.now());
  const read = await deps.store.versionsAsOf(tenant, { at, ids, limit: AS_OF_MAX_MEMORIES });
  if (!read.tenantHadMemories) throw beforeFirstMemory(at);
  return { ...memoriesFromEntries(tenant, read.entries, read.truncated), at };
}

/**
 * R-ASOF-GET: one memory as it was at `asOf`, superseded or not (as get_memory reads a live
 * one). NOT_FOUND when it did not exist then, was deleted or expired by then, or is another
 * tenant's; also when its version of then is no longer kept (the message says so).
 */
export async function getAsOf(deps: AsOfDependencies, tenant: TenantId, id: string, asOf: Date): Promise<MemoryRecord> {
  const found = await memoriesAsOf(deps, tenant, asOf, [id]);
  const memory = found.memories[0];
  if (memory && visibleAt(memory, found.at, { includeSuperseded: true })) return memory;
  const trimmed = found.unavailable > 0 ? ' (its version of then is no longer kept: the audit keeps the newest 100 changes)' : '';
  throw new MemsvcError('NOT_FOUND', `memory ${id} was not found as of ${found.at.toISOString()}${trimmed}`, { memoryId: id });
}

/** R-ASOF-LIST: a page of the memories as they were at `asOf`, newest first, with the live list's filters and cursor. */
export async function listAsOf(
  deps: AsOfDependencies,
  tenant: TenantId,
  input: { asOf: Date; limit: number; cursor?: string | undefined; filters: RecallFilters },
): Promise<MemoryPage & { readonly asOf: AsOfGaps }> {
  const found = await memoriesAsOf(deps, tenant, input.asOf);
  const { cursor } = input;
  const visible = found.memories.filter(
    (memory) => visibleAt(memory, found.at, input.filters) && (cursor === undefined || memory.id < cursor),
  );
  const items = visible.slice(0, input.limit);
  return {
    items,
    nextCursor: visible.length > input.limit ? items.at(-1)?.id : undefined,
    asOf: { asOf: found.at, unavailable: found.unavailable, truncated: found.truncated },
  };
}

/**
 * R-ASOF-RECALL: recall over the memories as they were at `asOf`. The versions of then have no
 * stored vectors (a vector belongs to a memory's current content), so an `asOf` recall ranks by
 * full text alone: core's BM25 (the LEXICAL_RANKING parameters, statistics over the memories not
 * deleted then, content only) and core's fusion formula without a vector list
 * (FUSION_WEIGHTS.disabled), recency measured from `asOf`. It reads every version of then and
 * tokenizes it in process, so it is slower than a live recall and its words are not stemmed.
 */
export async function recallAsOf(
  deps: AsOfDependencies,
  tenant: TenantId,
  input: { asOf: Date; query: string; rankingText: string; limit: number; perList: number; filters: RecallFilters },
): Promise<{ results: RankedMemory[]; context: FusionContext } & AsOfGaps> {
  const found = await memoriesAsOf(deps, tenant, input.asOf);
  const indexed = found.memories.filter((memory) => memory.deletedAt === null);
  const candidates = lexicalCandidates(indexed, input.rankingText, input.perList, (memory) => visibleAt(memory, found.at, input.filters));
  const results = rankCandidates(candidates, FUSION_WEIGHTS.disabled, { now: found.at, limit: input.limit, query: input.query });
  return { results, context: fusionContextOf(candidates), asOf: found.at, unavailable: found.unavailable, truncated: found.truncated };
}

/** The full-text list over `indexed`: BM25 of every visible memory containing a query term, best `perList` first. */
function lexicalCandidates(
  indexed: readonly MemoryRecord[],
  text: string,
  perList: number,
  visible: (memory: MemoryRecord) => boolean,
): RecallCandidate[] {
  const ranking = LEXICAL_RANKING;
  const documents = indexed.map((memory) => {
    const terms = lexicalTerms(memory.content);
    return { memory, terms, length: [...terms.values()].reduce((sum, n) => sum + n, 0) };
  });
  const withTerms = documents.filter((doc) => doc.length > 0);
  if (withTerms.length === 0) return [];
  const frequency = new Map<string, number>();
  for (const doc of withTerms) for (const term of doc.terms.keys()) frequency.set(term, (frequency.get(term) ?? 0) + 1);
  const corpus = { documents: withTerms.length, averageLength: withTerms.reduce((sum, doc) => sum + doc.length, 0) / withTerms.length };
  const queryTerms = [...lexicalTerms(text).keys()]
    .filter((term) => frequency.has(term))
    .sort((a, b) => (frequency.get(a) ?? 0) - (frequency.get(b) ?? 0) || (a < b ? -1 : a > b ? 1 : 0))
    .slice(0, ranking.maxQueryTerms);
  const scored = withTerms
    .filter((doc) => visible(doc.memory))
    .map((doc) => {
      const postings: LexicalPosting[] = queryTerms
        .filter((term) => doc.terms.has(term))
        .map((term) => ({
          contentFrequency: doc.terms.get(term) ?? 0,
          contextFrequency: 0,
          contentLength: doc.length,
          contextLength: 0,
          documentFrequency: frequency.get(term) ?? 0,
        }));
      return { memory: doc.memory, score: bm25Score(postings, queryTerms.length, corpus, ranking) };
    })
    .filter((hit) => hit.score > 0)
    .sort((a, b) => b.score - a.score || (a.memory.id < b.memory.id ? 1 : -1))
    .slice(0, perList);
  return scored.map((hit, i) => ({
    memory: hit.memory,
    vectorRank: undefined,
    lexicalRank: i + 1,
    lexicalScore: hit.score,
    similarity: undefined,
  }));
}
