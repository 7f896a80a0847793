import type { ToolName } from './tool-names.js';

/**
 * The tool sets an operator chooses from with MCP_TOOL_SETS; a server offers their union. Every tool an agent is shown costs
 * it tokens in every session, so a server offers the sets its agents use, not all 28 tools.
 * `ping` belongs to no set: every server offers it.
 */
export const TOOL_SETS = {
  /**
   * What an agent needs to keep and use its memory: store (a changed fact retires the old one
   * through `supersedes`), find, build context, read one memory, forget and undo.
   */
  agent: [
    'remember',
    'recall',
    'forget',
    'reflect',
    'ingest_conversation',
    'load_context',
    'prompt_context',
    'compress_context',
    'get_memory',
    'restore_memory',
  ],
  /** Every memory by id, as the earlier implementation offered it: tier chosen, versions checked, bulk deletes, audit. */
  memories: [
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
    'verify_erasure',
  ],
  /** A tenant's memories as files: JSONL or markdown pages. */
  export: ['export_memories'],
  /** Maintenance and import (they take adminToken); offered only when MCP_ADMIN_TOKEN is set. */
  admin: [
    'consolidate_memories',
    'consolidate_corpus',
    'reindex_memories',
    'queue_reindex_memories',
    'get_reindex_status',
    'cancel_reindex_job',
    'retry_reindex_job',
    'import_agent_memory',
  ],
  /** `search` and `fetch`, the two tools a ChatGPT connector expects: off unless chosen. */
  connectors: ['search', 'fetch'],
  /** Sharing spaces of one's memories by grant, and choosing which shared spaces reads include. */
  sharing: ['grant_access', 'revoke_access', 'list_grants', 'use_shared_space'],
} as const satisfies Record<string, readonly ToolName[]>;

/** A name MCP_TOOL_SETS may hold (besides `all`). */
export type ToolSetName = keyof typeof TOOL_SETS;

/** Every set name, in a stable order (for messages and docs). */
export const TOOL_SET_NAMES = Object.keys(TOOL_SETS) as readonly ToolSetName[];

/** MCP_TOOL_SETS when unset: what a typical agent needs (admin tools still need MCP_ADMIN_TOKEN). */
export const DEFAULT_TOOL_SETS: readonly ToolSetName[] = Object.freeze(['agent', 'admin']);

/**
 * The sets a server runs when MCP_TOOL_SETS is unset: every tool of spec §4.3 stays callable by
 * name (the spec makes every tool available in both profiles), while only DEFAULT_TOOL_SETS are
 * listed — an agent pays for what it is shown, not for what it may call. Naming sets in
 * MCP_TOOL_SETS is an operator's choice to offer those alone: then the others are not run either.
 */
export const CALLABLE_BY_DEFAULT: readonly ToolSetName[] = Object.freeze(['agent', 'memories', 'export', 'admin', 'sharing']);

/** The word in MCP_TOOL_SETS that stands for every set. */
export const ALL_TOOL_SETS = 'all';

/** The tools the chosen sets hold, `ping` included. */
export function toolsOfSets(sets: readonly ToolSetName[]): ReadonlySet<ToolName> {
  return new Set<ToolName>(['ping', ...sets.flatMap((set) => TOOL_SETS[set])]);
}

/** Whether a word names a tool set. */
export function isToolSetName(word: string): word is ToolSetName {
  return Object.hasOwn(TOOL_SETS, word);
}
