import { MemsvcError } from '../errors/memsvc-error.js';

/**
 * The `source` values `import_agent_memory` and `memsvc import` accept today (issue 17): those
 * wired from parser to store. The agent-file sources (IMPORT_SOURCES: claude-code, codex, …)
 * have parsers and join this list when their write path does.
 */
export const WIRED_IMPORT_SOURCES = ['memsvc'] as const;

/** A source the import can read and write today. */
export type WiredImportSource = (typeof WIRED_IMPORT_SOURCES)[number];

/** Checks a `source` argument; INVALID_INPUT names the field and lists what is supported. */
export function checkWiredImportSource(source: string, field = 'source'): WiredImportSource {
  if ((WIRED_IMPORT_SOURCES as readonly string[]).includes(source)) return source as WiredImportSource;
  throw new MemsvcError('INVALID_INPUT', `${field} "${source}" is not supported; supported sources: ${WIRED_IMPORT_SOURCES.join(', ')}`, {
    field,
    supported: [...WIRED_IMPORT_SOURCES],
  });
}
