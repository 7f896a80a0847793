/**
 * What the memories page says after a bulk action. Only fixed codes and counts come from the URL;
 * the words are here, so nothing a link carries is shown as text.
 */
const PROBLEMS = {
  'none-selected': 'Nothing was selected. Tick the box of each memory first, then press the button again.',
  'too-many': 'That is more than 100 memories at once. Select at most 100 (two pages of rows) and try again.',
  'already-gone':
    'The selected memories are already deleted or no longer exist, so there was nothing to delete. The list below is current.',
} as const;

/** A problem code a bulk action redirects with. */
export type BulkProblem = keyof typeof PROBLEMS;

/** The words for a problem code from the query string; undefined for any other value. */
export function bulkProblem(code: string | undefined): string | undefined {
  return code !== undefined && Object.hasOwn(PROBLEMS, code) ? PROBLEMS[code as BulkProblem] : undefined;
}

/** "1 memory", "3 memories". */
export function memoriesCount(count: number): string {
  return `${count} ${count === 1 ? 'memory' : 'memories'}`;
}

/** A count from the query string: a whole number ≥ 0, or undefined. */
export function countOf(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d{1,4}$/.test(value)) return undefined;
  return Number(value);
}

/** What a restore did: how many came back, and why any did not. */
export function restoredNotice(restored: number, missed: number): { text: string; kind: 'ok' | 'error' } {
  const text = `${memoriesCount(restored)} restored.`;
  if (missed === 0) return { text, kind: 'ok' };
  const why = `${memoriesCount(missed)} could not be: ${missed === 1 ? 'it is' : 'they are'} no longer deleted (restored already) or gone for good (purged after the retention period, or an expired short-term memory).`;
  return { text: restored === 0 ? `Nothing was restored: ${why}` : `${text} ${why}`, kind: restored === 0 ? 'error' : 'ok' };
}
