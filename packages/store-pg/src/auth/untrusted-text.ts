// C0 and C1 control characters: this text is shown in session and account lists, where an escape
// sequence could rewrite what a person sees, and PostgreSQL cannot store NUL in text at all.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Text that a client or an identity provider sent and that is only ever displayed (a User-Agent, a
 * display name): kept rather than refused, since refusing would fail a login over a label. Control
 * characters are dropped, surrounding whitespace trimmed, and the rest cut to `maxLength` without
 * splitting a surrogate pair; nothing left, or nothing given, is null.
 */
export function untrustedText(value: string | undefined, maxLength: number): string | null {
  if (value === undefined) return null;
  let text = value.replace(CONTROL_CHARACTERS, '').trim();
  if (text.length > maxLength) {
    text = text.slice(0, maxLength);
    // A high surrogate at the end lost its pair to the cut.
    const last = text.charCodeAt(text.length - 1);
    if (last >= 0xd800 && last <= 0xdbff) text = text.slice(0, -1);
    text = text.trimEnd();
  }
  return text.length > 0 ? text : null;
}
