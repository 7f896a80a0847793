/**
 * What the memory page says after an action: a fixed code in `?notice=`, mapped to fixed text
 * here, so nothing a URL carries is ever shown on the page.
 */
const NOTICES = {
  saved: { text: 'Saved as a new version.', kind: 'ok' },
  unchanged: { text: 'Nothing to save: the content and tags are as they were.', kind: 'ok' },
  pinned: { text: 'Pinned: it keeps a high importance and is never pruned.', kind: 'ok' },
  unpinned: { text: 'Unpinned.', kind: 'ok' },
  promoted: { text: 'Moved to long-term memory.', kind: 'ok' },
  'already-long-term': { text: 'This memory is long-term already.', kind: 'ok' },
  'promoted-duplicate': {
    text: 'The short-term memory duplicated this long-term one, so it was folded into it (the short-term one is deleted and can be restored).',
    kind: 'ok',
  },
  deleted: { text: 'Deleted. Restore brings it back.', kind: 'ok' },
  restored: { text: 'Restored.', kind: 'ok' },
  'restored-version': { text: 'That version’s content is now the newest version.', kind: 'ok' },
  stale: {
    text: 'The memory changed after this page was loaded, so nothing was changed. Look at the newest version below and try again.',
    kind: 'error',
  },
  'bad-version': { text: 'There is no earlier version with that number to restore.', kind: 'error' },
  'not-deleted': { text: 'This memory is not deleted; pick a version to restore instead.', kind: 'error' },
} as const satisfies Record<string, { text: string; kind: 'ok' | 'error' }>;

/** A notice code an action redirects with. */
export type MemoryNoticeCode = keyof typeof NOTICES;

/** The text and kind of a notice code from the query string; undefined for any other value. */
export function memoryNotice(code: string | undefined): { text: string; kind: 'ok' | 'error' } | undefined {
  return code !== undefined && Object.hasOwn(NOTICES, code) ? NOTICES[code as MemoryNoticeCode] : undefined;
}
