export type { ServerIdentity, ToolDependencies } from './create-mcp-server.js';
export { createMcpServer } from './create-mcp-server.js';
export type { MemoryJson } from './memory-json.js';
export { memoryJson } from './memory-json.js';
export type { ToolName } from './tool-names.js';
export { ADMIN_TOOLS, TOOL_GROUPS, TOOL_NAMES } from './tool-names.js';
export type { ToolErrorBody } from './tool-result.js';
export { toolError, toolSuccess } from './tool-result.js';
export type { MemoryToolDependencies, ToolObservation } from './tool-runner.js';
