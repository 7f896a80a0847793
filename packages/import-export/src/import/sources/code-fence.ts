/** A fenced code block's opening: its character and length, which its closing line must match. */
export interface FenceOpening {
  readonly marker: '`' | '~';
  readonly length: number;
}

/** A CommonMark fence opening (up to 3 spaces, then ≥3 backticks or tildes), or null. */
export function fenceOpening(line: string): FenceOpening | null {
  const match = /^ {0,3}(`{3,}|~{3,})(.*)$/.exec(line);
  if (!match) return null;
  const fence = match[1] ?? '';
  // A backtick fence's info string cannot hold a backtick (CommonMark 4.5).
  if (fence.startsWith('`') && (match[2] ?? '').includes('`')) return null;
  return { marker: fence.startsWith('`') ? '`' : '~', length: fence.length };
}

/** True when the line closes the fence: the same character, at least as long, nothing after. */
export function closesFence(line: string, opening: FenceOpening): boolean {
  const match = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(line);
  const fence = match?.[1] ?? '';
  return fence.startsWith(opening.marker) && fence.length >= opening.length;
}

/**
 * Marks each line as inside a fenced block (fence lines included) or not. An unclosed fence runs
 * to the end of the text, as in CommonMark; its opening line is returned so it can be reported.
 */
export function fencedLines(lines: readonly string[]): { readonly inside: boolean[]; readonly unclosedAt: number | null } {
  const inside: boolean[] = [];
  let open: FenceOpening | null = null;
  let openedAt = -1;
  for (const [index, line] of lines.entries()) {
    if (open) {
      inside.push(true);
      if (closesFence(line, open)) open = null;
      continue;
    }
    open = fenceOpening(line);
    if (open) openedAt = index;
    inside.push(open !== null);
  }
  return { inside, unclosedAt: open ? openedAt : null };
}
