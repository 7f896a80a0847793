export { AUDIT_LIMITS, changedFieldsBefore } from './domain/audit-change.js';
export { contentFingerprintText } from './domain/content-fingerprint.js';
export type { ContextBlock } from './domain/context-block.js';
export { packContext, UNTRUSTED_CLOSE, UNTRUSTED_OPEN } from './domain/context-block.js';
export type { ContradictionPolicy } from './domain/contradiction-policy.js';
export type { SimilarPair } from './domain/corpus-merge.js';
export { counted, memoriesCounted } from './domain/counted.js';
export type { EmbeddingProviderName } from './domain/embedding-models.js';
export { DEFAULT_EMBEDDING_MODEL, EMBEDDING_PROVIDERS, knownModelDimensions } from './domain/embedding-models.js';
export type { ErasureCheck, ErasureCounts, ErasurePlace, ErasureReceipt } from './domain/erasure.js';
export { ERASURE_PLACES, erasedIdsText, quotedText, quotesOfVersions, searchContextWithout } from './domain/erasure.js';
export { ACCESS_SATURATION, PINNED_FLOOR } from './domain/importance.js';
export { type ImportanceParts, importanceParts } from './domain/importance-parts.js';
export { bm25Score, bm25TermScore, LEXICAL_RANKING } from './domain/lexical-ranking.js';
export type { DecayRules } from './domain/lifecycle-rules.js';
export { PASSAGES } from './domain/matching-passage.js';
export type {
  AuditEntry,
  JsonObject,
  JsonValue,
  MemoryEmbedding,
  MemoryMarker,
  MemoryPatch,
  MemoryRecord,
  MemoryTier,
  NewMemory,
} from './domain/memory.js';
export { MEMORY_MARKERS, MEMORY_TIERS } from './domain/memory.js';
export type { GrantAccess, Grantee, GranteeKind, GrantRequest, MemoryGrant, SharedSpace } from './domain/memory-grants.js';
export { GRANT_ACCESS, GRANTEE_KINDS, MAX_GRANT_DAYS } from './domain/memory-grants.js';
export { checkContent, checkMetadata, checkScope, checkTags, MEMORY_LIMITS, nestingExceeds } from './domain/memory-limits.js';
export { rankingQueryText } from './domain/query-terms.js';
export type { RecallExplanation, RecallFusion } from './domain/recall-explanation.js';
export type { RankedMemory, RankingOptions, RecallCandidate } from './domain/recall-ranking.js';
export { FUSION_WEIGHTS, fusionContextOf, rankCandidates, recallScore } from './domain/recall-ranking.js';
export type { ReindexJobJson } from './domain/reindex-job-json.js';
export { reindexJobJson } from './domain/reindex-job-json.js';
export type { ReindexJob, ReindexOptions, ReindexRequest, ReindexSummary } from './domain/reindex-rules.js';
export { checkReindexRequest, EMPTY_REINDEX_SUMMARY, REINDEX_BATCH_SIZE, REINDEX_MAX_MEMORIES } from './domain/reindex-rules.js';
export type { RelatedReason } from './domain/related-memories.js';
export type { ScoreAdjustment } from './domain/score-adjustments.js';
export type { WriteCandidates } from './domain/similarity-rules.js';
export { writeRules } from './domain/similarity-rules.js';
export { fnv1a64Hex } from './domain/stable-hash.js';
export { unstorableTextAt } from './domain/storable-text.js';
export type { SupersessionEffect } from './domain/supersession-plan.js';
export { MAX_SUPERSEDES } from './domain/supersession-plan.js';
export type { TenantId } from './domain/tenant.js';
export { isValidTenantId, TENANT_ID_MAX_LENGTH, toTenantId } from './domain/tenant.js';
export { HNSW_MAX_DIMENSIONS } from './domain/vector-limits.js';
export { type StoredVectors, vectorSpaceMismatch } from './domain/vector-space-mismatch.js';
export type { Neighbour } from './domain/write-decision.js';
export type { ContradictionEffect, PlannedLink, ReplacementEffect } from './domain/write-plan.js';
export type { SeenCluster } from './engine/approve-consolidation.js';
export { CHAR_BUDGET, TOKEN_BUDGET } from './engine/context-builders.js';
export type { CreateMemoryInput, CreateResult, RelatedMemory } from './engine/create-memory.js';
export type { CallContext, EngineSettings, MemoryEngineOptions } from './engine/engine-parts.js';
export { DEFAULT_ENGINE_SETTINGS } from './engine/engine-parts.js';
export type { FadingMemory } from './engine/fading-memories.js';
export { MAX_GRANTS_LISTED } from './engine/grant-access.js';
export { chunkTurn, MAX_TURNS } from './engine/ingest-conversation.js';
export type { CorpusConsolidationResult, LifecycleSettings } from './engine/lifecycle-jobs.js';
export { CORPUS_SEEDS, DECAY_JOB } from './engine/lifecycle-jobs.js';
export type { MaintenanceEvents } from './engine/maintenance.js';
export { Maintenance } from './engine/maintenance.js';
export { createMemoryEngine, MemoryEngine } from './engine/memory-engine.js';
export type { RecallHit, RecallInput, RecallResult } from './engine/recall.js';
export { MAX_QUERY_LENGTH, MAX_RECALL_LIMIT } from './engine/recall.js';
export type { ReindexControl, ReindexRunResult } from './engine/reindex.js';
export type { ContradictionOutcome, SeenMemory } from './engine/resolve-contradiction.js';
export { CONTRADICTION_OUTCOMES, CONTRADICTION_RESOLVE_ACTION } from './engine/resolve-contradiction.js';
export type { UpdateMemoryInput } from './engine/revise-memory.js';
export { MAX_NAMED_SPACES } from './engine/shared-spaces.js';
export type { MemsvcErrorCode } from './errors/memsvc-error.js';
export { isMemsvcError, MemsvcError } from './errors/memsvc-error.js';
export type { Clock } from './ports/clock.js';
export { systemClock } from './ports/clock.js';
export type { Embedder } from './ports/embedder.js';
export type { ErasureOfMemory, ErasureStore } from './ports/erasure-store.js';
export type { ExportedLink, ExportedMemory, ExportPage, ExportQuery, ExportStore } from './ports/export-store.js';
export type { GranteeIdentity, GrantStore } from './ports/grant-store.js';
export type { IdGenerator } from './ports/id-generator.js';
export type { ImportLedgerEntry, ImportLedgerStore } from './ports/import-ledger-store.js';
export type { ImportedAuditRow, ImportedLink, ImportedMemory, ImportStore, ImportWriteResult } from './ports/import-store.js';
export type { AuthSweepCounts, DecayChange, LifecycleStore, MergeOutcome } from './ports/lifecycle-store.js';
export type {
  Actor,
  ListMemoriesQuery,
  MemoryLinkRecord,
  MemoryPage,
  MemoryStore,
  NearestMemory,
  PrecedingMemoryQuery,
  RecallCandidateQuery,
  RecallFilters,
  VersionsAsOf,
  VersionsAsOfQuery,
  WriteOutcome,
} from './ports/memory-store.js';
export { checkFinite, checkLimit, checkNewMemory } from './ports/memory-store-checks.js';
export type { Progress, ProgressListener } from './ports/progress.js';
export type { JobCheckpoint, ReindexJobQueue, ReindexRow, ReindexStore, VectorWrite } from './ports/reindex-store.js';
export { CheckpointOutOfOrder, JobOwnershipLost } from './ports/reindex-store.js';
export type {
  ClearanceOptions,
  ContradictedPair,
  ContradictedPairPage,
  ContradictionClearance,
  ReviewStore,
} from './ports/review-store.js';
export type { TimerHandle, Timers } from './ports/timers.js';
export type { SpanAttributes, TraceIds, Tracer, TraceSpan } from './ports/tracer.js';
export { NO_TRACING, spanErrorCode } from './ports/tracer.js';
export type { VectorSpace, VectorSpaceInfo } from './ports/vector-space.js';
export type {
  InsertUnlessRelevantResult,
  NewMemoryUnit,
  PromotionUnit,
  SupersessionInputs,
  UpdateUnit,
  WriteCandidateQuery,
} from './ports/write-unit.js';
