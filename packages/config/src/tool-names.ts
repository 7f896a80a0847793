/**
 * Names of every MCP tool the server serves, by group: spec §4.3's 28, the connectors' two, and sharing's four and verify_erasure (issue 43). The server, the docs, the tests and the configuration (RATE_LIMIT_TOOL_OVERRIDES) agree on
 * this one list.
 */
export const TOOL_GROUPS = {
  crud: [
    'create_memory',
    'get_memory',
    'list_memories',
    'update_memory',
    'delete_memory',
    'bulk_delete_memories',
    'promote_memory',
    'restore_memory',
    'reembed_memory',
    'get_memory_audit',
  ],
  /** Checking an erasure's receipt (delete_memory, bulk_delete_memories and forget take `erase`). */
  erasure: ['verify_erasure'],
  retrieval: ['recall', 'load_context', 'prompt_context', 'compress_context'],
  agentContract: ['remember', 'forget', 'reflect', 'ingest_conversation'],
  consolidation: ['consolidate_memories', 'consolidate_corpus'],
  reindex: ['reindex_memories', 'queue_reindex_memories', 'get_reindex_status', 'cancel_reindex_job', 'retry_reindex_job'],
  portability: ['export_memories', 'import_agent_memory'],
  connectivity: ['ping'],
  /** What a ChatGPT connector (deep research) calls: search, then fetch each result. */
  connectors: ['search', 'fetch'],
  /** Spaces of one's memories shared by grant with other users, organizations or API keys. */
  sharing: ['grant_access', 'revoke_access', 'list_grants', 'use_shared_space'],
} as const satisfies Record<string, readonly string[]>;

export type ToolName = (typeof TOOL_GROUPS)[keyof typeof TOOL_GROUPS][number];

/** Every tool name, in group order. */
export const TOOL_NAMES: readonly ToolName[] = Object.values(TOOL_GROUPS).flat();
