import { MemsvcError } from '@memsvc/core';
import { AGENT_FILE_SOURCES } from './sources/agent-file-source.js';

/**
 * The `source` values `import_agent_memory` and `memsvc import` accept (issue 17): memsvc's own
 * JSONL export, restored losslessly, and the agents' memory files, parsed into sections.
 */
export const IMPORT_SOURCES = ['memsvc', ...AGENT_FILE_SOURCES] as const;

/** One of IMPORT_SOURCES. */
export type ImportSource = (typeof IMPORT_SOURCES)[number];

/** Checks a `source` argument; INVALID_INPUT names the field and lists what is supported. */
export function checkImportSource(source: string, field = 'source'): ImportSource {
  if ((IMPORT_SOURCES as readonly string[]).includes(source)) return source as ImportSource;
  throw new MemsvcError('INVALID_INPUT', `${field} "${source}" is not supported; supported sources: ${IMPORT_SOURCES.join(', ')}`, {
    field,
    supported: [...IMPORT_SOURCES],
  });
}
