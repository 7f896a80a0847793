import { MEMORY_ID_PATTERN } from '../memory/memory-paths.js';

/** An erasure id: the stores issue it as they issue memory ids (UUIDv7), so the route matches no other path segment. */
export const ERASURE_ID_PATTERN = MEMORY_ID_PATTERN;

/** The page that checks an erasure against the database now (`MemoryEngine.verifyErasure`). */
export function erasurePath(basePath: string, erasureId: string): string {
  return `${basePath}/erasures/${encodeURIComponent(erasureId)}`;
}
