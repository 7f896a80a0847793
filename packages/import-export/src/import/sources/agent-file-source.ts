import { MemsvcError } from '@memsvc/core';

/** The agents whose native memory files memsvc reads (issue 17); `memsvc` JSONL has its own parser (../import-sources.ts lists what the tool accepts). */
export const AGENT_FILE_SOURCES = ['claude-code', 'codex', 'cursor', 'copilot', 'gemini', 'markdown'] as const;

/** One of AGENT_FILE_SOURCES. */
export type AgentFileSource = (typeof AGENT_FILE_SOURCES)[number];

/** Narrows a string to a source name. */
export function isAgentFileSource(value: string): value is AgentFileSource {
  return (AGENT_FILE_SOURCES as readonly string[]).includes(value);
}

/** Checks a caller's `source`; an unknown one is INVALID_INPUT naming the field and the allowed values. */
export function parseAgentFileSource(value: string, field = 'source'): AgentFileSource {
  if (isAgentFileSource(value)) return value;
  throw new MemsvcError('INVALID_INPUT', `${field} must be one of ${AGENT_FILE_SOURCES.join(', ')}`, {
    field,
    allowed: [...AGENT_FILE_SOURCES],
  });
}
