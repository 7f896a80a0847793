import type { ErasurePlace } from '@memsvc/core';

/**
 * Each place an erasure counts (core's ERASURE_PLACES), as a person reads it on a receipt or a
 * check. The record that type-checks against ErasurePlace makes a new place a compile error here.
 */
export const ERASURE_PLACE_TEXT: Readonly<Record<ErasurePlace, string>> = {
  memories: 'Memories (their rows)',
  vectors: 'Vectors',
  versions: 'Versions (the audit’s copies of their words)',
  lexicalPostings: 'Word index entries',
  termStatistics: 'Term statistics no other memory needed',
  links: 'Links to or from them',
  importLedger: 'Import ledger entries',
  searchContexts: 'Other memories’ search contexts that quoted them',
  references: 'Other rows that named them',
  grants: 'Grants the user gave or received (whole-user erasure)',
};

/** "1 memory", "3 memories". */
export function memoriesText(count: number): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? 'memory' : 'memories'}`;
}
