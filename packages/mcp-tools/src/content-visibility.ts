import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { holdsScope, type Principal } from './principal.js';
import type { ToolName } from './tool-names.js';
import { toolSuccess } from './tool-result.js';

/** A tool's structured result, as the projections below read it. */
type Structured = Readonly<Record<string, unknown>>;

/** What a caller without `memories:read` is shown of one tool's successful result. */
type Projection = (result: Structured) => Record<string, unknown>;

/** Only the named keys, when present: a field a tool adds later stays hidden until listed here. */
const only =
  (...keys: readonly string[]): Projection =>
  (result) =>
    Object.fromEntries(keys.filter((key) => key in result).map((key) => [key, result[key]]));

/** Nothing at all: the tool reads, and a caller that may not read never gets its result. */
const nothing: Projection = () => ({});

/**
 * A memory without what it says: which row, which version (for the next `update_memory`), which
 * tier. Content, tags, metadata and scope stay out — they are what `memories:read` guards.
 */
function memoryStub(memory: unknown): Record<string, unknown> | undefined {
  if (typeof memory !== 'object' || memory === null) return undefined;
  return only('id', 'version', 'type', 'tier')(memory as Structured);
}

/** The memory of a result, as a stub, under `memory`; nothing when the result has none. */
function withMemoryStub(result: Structured): Record<string, unknown> {
  const memory = memoryStub(result.memory);
  return memory ? { memory } : {};
}

/** A reindex job's state and progress: counts and times, no memory. */
const reindexJob = only(
  'jobId',
  'state',
  'progress',
  'cancelRequested',
  'error',
  'attempts',
  'options',
  'createdAt',
  'startedAt',
  'finishedAt',
  'heartbeatAt',
);

const lengthOf = (value: unknown): number => (Array.isArray(value) ? value.length : 0);

/**
 * What each tool shows a caller that does not hold `memories:read` (issue 37, finding #3). Such a
 * caller gets ids and counts: the id of a memory it named or wrote, never its content, tags or
 * metadata, and never the id of another memory found by similarity to its text — a write-only or
 * delete-only key would otherwise search by writing (a duplicate names the memory it matched) or
 * by previewing a `forget`. Every tool is listed, so a new tool must decide here what it shows.
 */
const WITHOUT_READ: Readonly<Record<ToolName, Projection>> = Object.freeze({
  ping: only('status', 'timestamp'),
  // A duplicate wrote nothing: its memory is the one the text matched, so it is left out.
  create_memory: (result) => ({
    ...only('outcome', 'wasDeduped', 'embedded')(result),
    ...(result.outcome === 'created' ? withMemoryStub(result) : {}),
  }),
  remember: (result) => ({
    ...only('resolvedType', 'wasDeduped', 'outcome')(result),
    ...(result.wasDeduped === false ? { ...only('memoryId')(result), ...withMemoryStub(result) } : {}),
  }),
  // Its memory ids mix the chunks it stored with the memories others collapsed into: counts only.
  ingest_conversation: only('conversationId', 'ingested', 'skipped', 'total'),
  update_memory: withMemoryStub,
  restore_memory: (result) => ({ ...only('restored')(result), ...withMemoryStub(result) }),
  reembed_memory: (result) => ({ ...only('embeddingModel')(result), ...withMemoryStub(result) }),
  // A promotion that collapsed returns the long-term memory it matched.
  promote_memory: (result) => ({
    ...only('promoted', 'outcome')(result),
    ...(result.outcome === 'duplicate' ? {} : withMemoryStub(result)),
  }),
  // A receipt holds ids, counts and a digest, never content.
  delete_memory: only('deleted', 'memoryId', 'erased', 'receipt'),
  bulk_delete_memories: only('deleted', 'failed', 'deletedCount', 'failedCount', 'receipt'),
  verify_erasure: only('erasureId', 'verified', 'digestMatches', 'remaining'),
  // The candidates of a query are what a search would return: counts only, even once deleted.
  forget: (result) => ({
    ...only('dryRun', 'message', 'receipt')(result),
    candidateCount: lengthOf(result.candidates),
    deletedCount: lengthOf(result.deleted),
  }),
  // A grant holds no memory content: who, which space, how long. Managing access needs keys:manage.
  grant_access: only('grant'),
  revoke_access: only('grant'),
  list_grants: nothing,
  use_shared_space: only('grantId', 'byDefault'),
  get_memory: nothing,
  list_memories: nothing,
  get_memory_audit: nothing,
  recall: nothing,
  load_context: nothing,
  prompt_context: nothing,
  compress_context: nothing,
  reflect: nothing,
  export_memories: nothing,
  search: nothing,
  fetch: nothing,
  // Admin tools pass the admin token; the credential beside it still decides what they show.
  import_agent_memory: only('source', 'dryRun', 'files', 'totals', 'abortedBySecrets'),
  consolidate_memories: only('scanned', 'promoted', 'collapsed', 'skipped', 'failed', 'promotedIds'),
  // Its clusters are memories grouped by similarity, with their tags.
  consolidate_corpus: only('dryRun', 'scanned', 'clusters', 'merged', 'skippedConcurrentEdit', 'cursor', 'perClusterTruncated'),
  reindex_memories: only('scope', 'processed', 'indexed', 'skipped', 'failed', 'cursor', 'stoppedBy'),
  queue_reindex_memories: only('jobId', 'state', 'createdAt'),
  get_reindex_status: reindexJob,
  cancel_reindex_job: reindexJob,
  retry_reindex_job: reindexJob,
});

/**
 * A tool's result as the caller may see it: unchanged for a caller holding `memories:read` (the
 * anonymous caller and the pre-shared key hold every scope), and for an error; otherwise only
 * what WITHOUT_READ lists for the tool.
 */
export function visibleResult(tool: ToolName, principal: Principal, result: CallToolResult): CallToolResult {
  if (result.isError || holdsScope(principal, 'memories:read')) return result;
  return toolSuccess(WITHOUT_READ[tool](result.structuredContent ?? {}));
}
