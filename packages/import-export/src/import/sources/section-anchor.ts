/**
 * Anchors name a section within its file for the import ledger, so they are built from the
 * heading text (stable when sections are added or moved) rather than from a position.
 */

/** Lower-case ASCII words joined by `-`; at most 80 characters; `section` when nothing is left. */
export function slug(text: string): string {
  const words = text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return words.slice(0, 80).replace(/-+$/, '') || 'section';
}

/** Hands out anchors for one file, adding `-2`, `-3`… when a heading repeats. */
export function anchorAllocator(): (base: string) => string {
  const seen = new Map<string, number>();
  return (base) => {
    const count = (seen.get(base) ?? 0) + 1;
    seen.set(base, count);
    return count === 1 ? base : `${base}-${count}`;
  };
}
