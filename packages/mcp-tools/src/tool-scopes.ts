import type { Scope } from '@memsvc/access';
import type { ToolName } from './tool-names.js';

/**
 * The scope a credential needs for each memory tool (spec §5.5: least-privilege keys per agent).
 * A tool that only reads needs `memories:read`; one that stores or changes memories,
 * `memories:write`; one that can delete them — `forget` included, even when it only previews —
 * `memories:delete`. Admin tools are gated by `adminToken` (spec §5.6) and `ping` by nothing.
 */
export const TOOL_SCOPES: Readonly<Partial<Record<ToolName, Scope>>> = Object.freeze({
  get_memory: 'memories:read',
  list_memories: 'memories:read',
  get_memory_audit: 'memories:read',
  recall: 'memories:read',
  load_context: 'memories:read',
  prompt_context: 'memories:read',
  compress_context: 'memories:read',
  reflect: 'memories:read',
  export_memories: 'memories:read',
  search: 'memories:read',
  fetch: 'memories:read',
  create_memory: 'memories:write',
  update_memory: 'memories:write',
  promote_memory: 'memories:write',
  restore_memory: 'memories:write',
  reembed_memory: 'memories:write',
  remember: 'memories:write',
  ingest_conversation: 'memories:write',
  delete_memory: 'memories:delete',
  bulk_delete_memories: 'memories:delete',
  forget: 'memories:delete',
  // Sharing decides who else may read a user's memories: managing access, like minting keys.
  grant_access: 'keys:manage',
  revoke_access: 'keys:manage',
  list_grants: 'memories:read',
  verify_erasure: 'memories:read',
  use_shared_space: 'memories:read',
});
