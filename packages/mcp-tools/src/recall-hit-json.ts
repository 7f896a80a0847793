import type { RecallExplanation, RecallFusion, RecallHit } from '@memsvc/core';

/**
 * A recall hit as the tool returns it: what an agent reads to answer, nothing null and nothing
 * internal (docs/tools.md#a-recall-hit). Every hit is sent twice (text and structured content) and
 * read on every recall, so a field earns its place by changing what an agent does; the whole
 * record (importance, metadata, version, dates, access counts) is one `get_memory` away.
 *
 * | field | when |
 * | --- | --- |
 * | `id`, `text`, `said`, `ago`, `score` | always; `text` is the passage that matched when `excerpt` is present |
 * | `excerpt` | a long memory cut to its passage: `{start, end, length}` of the whole content |
 * | `replacedBy`, `replaces` | what replaced this memory (it is outdated), what it replaced |
 * | `shared` | another owner's memory: `{owner, space?}` |
 * | `type` | only `short-term` (it will expire); a hit without `type` is long-term |
 * | `scope`, `tags` | when set (a shared hit's scope is its space, under `shared`) |
 * | `contradicted`, `supersededBy` | the markers a reader must heed, when set |
 * | `explain` | with `explain: true`: why it was recalled (explanationJson) |
 */
export function recallHitJson(hit: RecallHit) {
  const { memory, passage, shared } = hit;
  return {
    id: memory.id,
    text: passage ? passage.text : memory.content,
    ...(passage ? { excerpt: { start: passage.start, end: passage.end, length: passage.length } } : {}),
    said: hit.said,
    ago: hit.ago,
    score: rounded(hit.score, 3),
    ...(hit.replacedBy !== undefined ? { replacedBy: hit.replacedBy } : {}),
    ...(hit.replaces !== undefined && hit.replaces.length > 0 ? { replaces: [...hit.replaces] } : {}),
    ...(shared ? { shared: { owner: shared.owner, ...(shared.space !== null ? { space: shared.space } : {}) } } : {}),
    ...(memory.tier === 'stm' ? { type: 'short-term' as const } : {}),
    ...(memory.scope !== null && !shared ? { scope: memory.scope } : {}),
    ...(memory.tags.length > 0 ? { tags: [...memory.tags] } : {}),
    ...(memory.contradicted ? { contradicted: true } : {}),
    ...(memory.supersededBy !== null ? { supersededBy: memory.supersededBy } : {}),
    ...(hit.explanation ? { explain: explanationJson(hit.explanation) } : {}),
  };
}

/** The digits explain's numbers keep: enough to replay the adjustments to the hit's score, few enough to read. */
const EXPLAIN_DIGITS = 6;

/** A hit's explanation (recall-explanation.ts in core), its numbers rounded for reading. */
export function explanationJson(explanation: RecallExplanation) {
  const { lexical, vector } = explanation;
  return {
    ...(lexical
      ? {
          lexical: {
            rank: lexical.rank,
            ...(lexical.bm25 !== undefined ? { bm25: rounded(lexical.bm25, EXPLAIN_DIGITS) } : {}),
            strength: rounded(lexical.strength, EXPLAIN_DIGITS),
          },
        }
      : {}),
    ...(vector
      ? {
          vector: {
            rank: vector.rank,
            ...(vector.similarity !== undefined ? { similarity: rounded(vector.similarity, EXPLAIN_DIGITS) } : {}),
            confidence: rounded(vector.confidence, EXPLAIN_DIGITS),
          },
        }
      : {}),
    fused: rounded(explanation.fused, EXPLAIN_DIGITS),
    adjustments: explanation.adjustments.map((step) => ({
      name: step.name,
      before: rounded(step.before, EXPLAIN_DIGITS),
      after: rounded(step.after, EXPLAIN_DIGITS),
    })),
  };
}

/** What an explained recall's hits were fused with: the list weights and the query's best BM25. */
export function fusionJson(fusion: RecallFusion) {
  return { lexicalWeight: fusion.lexicalWeight, vectorWeight: fusion.vectorWeight, bestBm25: rounded(fusion.bestBm25, EXPLAIN_DIGITS) };
}

function rounded(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
