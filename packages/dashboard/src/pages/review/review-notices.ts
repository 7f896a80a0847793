/** What a review action reports after its redirect: a fixed code and, for some, counts. Nothing else from the URL reaches the page. */
export const REVIEW_NOTICES = {
  'kept-both': { kind: 'ok', text: () => 'Kept both memories; neither is marked contradicted any more.' },
  'kept-newer': { kind: 'ok', text: () => 'Kept the newer memory and deleted the older one (it can be restored from its page).' },
  'kept-older': { kind: 'ok', text: () => 'Kept the older memory and deleted the newer one (it can be restored from its page).' },
  'pair-changed': {
    kind: 'error',
    text: () => 'One of those memories changed after the page was shown, so nothing was done. Look at the pair again.',
  },
  'not-a-pair': { kind: 'error', text: () => 'That form was incomplete, so nothing was done.' },
  deleted: { kind: 'ok', text: (n: number) => `${n} deleted. Deleted memories can be restored from their page.` },
  merged: {
    kind: 'ok',
    text: (n: number, changed: number) =>
      `${n} ${n === 1 ? 'cluster' : 'clusters'} merged.` +
      (changed > 0 ? ` ${changed} changed after the dry run and were left alone: the dry run below shows them as they are now.` : ''),
  },
  'nothing-approved': { kind: 'error', text: () => 'No cluster was selected, so nothing was merged.' },
} as const;

export type ReviewNoticeCode = keyof typeof REVIEW_NOTICES;

/** The notice of a redirect's `notice`, `n` and `changed` parameters, or undefined for anything unknown. */
export function reviewNotice(query: (name: string) => string | undefined): { kind: 'ok' | 'error'; text: string } | undefined {
  const code = query('notice') ?? '';
  if (!Object.hasOwn(REVIEW_NOTICES, code)) return undefined;
  const notice = REVIEW_NOTICES[code as ReviewNoticeCode];
  return { kind: notice.kind, text: notice.text(count(query('n')), count(query('changed'))) };
}

function count(text: string | undefined): number {
  return text !== undefined && /^\d{1,6}$/.test(text) ? Number(text) : 0;
}
