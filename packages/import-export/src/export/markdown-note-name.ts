import type { MemoryTier } from '@memsvc/core';

/** Characters a note name keeps as they are: safe in a file name on every system, and in a wikilink. */
const KEPT = /[a-z0-9-]/;
/** Device names Windows refuses as a file name, whatever the extension (`con.md` included). */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com[0-9]|lpt[0-9])$/;

/**
 * The name (without `.md`) of a memory's note in a markdown export: its id. A link knows only
 * its target's id, and Obsidian resolves `[[name]]` by file name (never by alias), so a name
 * any link can point at has to come from the id alone; ids are unique, so names are too.
 *
 * Ids are UUIDs, which pass through unchanged. Anything else is escaped injectively — every
 * character outside `[a-z0-9-]`, `_` included, becomes `_` and four hex digits of its UTF-16
 * unit — so no character Windows or Obsidian refuses (`/ \ : * ? " < > | # ^ [ ]`, a trailing
 * dot) and no upper case (two names differing only in case are one file on macOS and Windows)
 * ever reaches a file name, and two ids never share one.
 */
export function markdownNoteName(id: string): string {
  let name = '';
  for (const char of id) {
    if (KEPT.test(char)) name += char;
    else for (let i = 0; i < char.length; i += 1) name += `_${char.charCodeAt(i).toString(16).padStart(4, '0')}`;
  }
  // `_` followed by a letter outside a-f is never an escape, so the prefix cannot collide either.
  return WINDOWS_DEVICE.test(name) || name === '' ? `_${name}` : name;
}

/** Where a memory's note goes, relative to the export's root: `<tier>/<name>.md`. */
export function markdownNotePath(tier: MemoryTier, id: string): string {
  return `${tier}/${markdownNoteName(id)}.md`;
}
