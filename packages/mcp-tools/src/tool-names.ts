import { TOOL_GROUPS, type ToolName } from '@memsvc/config';

export { TOOL_GROUPS, TOOL_NAMES, type ToolName } from '@memsvc/config';

/**
 * Tools that require `adminToken` (spec §5.6): maintenance that reads or changes every tenant,
 * and the import, which writes into any tenant it is told to.
 */
export const ADMIN_TOOLS: ReadonlySet<ToolName> = new Set([...TOOL_GROUPS.reindex, ...TOOL_GROUPS.consolidation, 'import_agent_memory']);
