export type { ServerIdentity, ToolDependencies } from './create-mcp-server.js';
export { createMcpServer } from './create-mcp-server.js';
export type { MemoryJson } from './memory-json.js';
export { memoryJson } from './memory-json.js';
export type {
  AnonymousPrincipal,
  ApiKeyPrincipal,
  CredentialPrincipal,
  PreSharedKeyPrincipal,
  Principal,
  SessionPrincipal,
} from './principal.js';
export {
  ANONYMOUS_PRINCIPAL,
  agentOf,
  auditActorOf,
  authInfoOf,
  clientAddressOf,
  holdsScope,
  isCredential,
  PRE_SHARED_KEY_PRINCIPAL,
  principalOf,
} from './principal.js';
export type {
  AdminAuthEvent,
  AdminToolCall,
  DelegationEvent,
  MemoryToolCall,
  ObservedCall,
  OpenToolCall,
  ToolBodyResult,
  ToolCall,
  ToolHooks,
  ToolOutcome,
  ToolPipeline,
  ToolRequest,
} from './run-tool.js';
export { runTool } from './run-tool.js';
export type { ToolName } from './tool-names.js';
export { ADMIN_TOOLS, TOOL_GROUPS, TOOL_NAMES } from './tool-names.js';
export type { ToolErrorBody } from './tool-result.js';
export { toolError, toolSuccess } from './tool-result.js';
export { TOOL_SCOPES } from './tool-scopes.js';
export type { ImportFolderFiles, ImportToolDependencies } from './tools/import-tools.js';
