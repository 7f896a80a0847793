/**
 * What `/access?notice=<code>` says after an action: a fixed text per code, so a link can never
 * make the page show words of its own choosing.
 */
export const ACCESS_NOTICES = {
  'key-revoked': { text: 'The key is revoked: every call presenting it is refused from now on.', kind: 'ok' },
  'key-already-revoked': {
    text: 'That key was already revoked (perhaps in another tab or by an operator); nothing changed.',
    kind: 'ok',
  },
  'grant-created': { text: 'The space is shared: the grantee reads it from its next call.', kind: 'ok' },
  'grant-revoked': { text: 'The grant is revoked: the grantee no longer reads the space, from its next call on.', kind: 'ok' },
  'grant-already-ended': {
    text: 'That grant had already ended (revoked elsewhere, or expired); nothing changed.',
    kind: 'ok',
  },
  'shared-default-on': { text: 'Your reads now include that shared space without naming it.', kind: 'ok' },
  'shared-default-off': { text: 'Your reads no longer include that shared space unless they name it.', kind: 'ok' },
} as const satisfies Record<string, { text: string; kind: 'ok' | 'error' }>;

export type AccessNoticeCode = keyof typeof ACCESS_NOTICES;

/** The notice a query parameter names, or undefined for none or an unknown code. */
export function accessNotice(code: string | undefined): { text: string; kind: 'ok' | 'error' } | undefined {
  return code !== undefined && Object.hasOwn(ACCESS_NOTICES, code) ? ACCESS_NOTICES[code as AccessNoticeCode] : undefined;
}
