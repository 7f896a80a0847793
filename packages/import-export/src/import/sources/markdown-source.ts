import type { JsonObject } from '@memsvc/core';
import { baseName, directoryOf } from './relative-path.js';
import { type SourceAdapter, text } from './source-adapter.js';
import { frontmatterTags, pathTags } from './tag-list.js';

/**
 * Agents' instruction files: another source owns them, so `markdown` leaves them out and a
 * folder imported with both sources does not get them twice (an earlier implementation did).
 */
const AGENT_FILES = new Set(['CLAUDE.md', 'CLAUDE.local.md', 'AGENTS.md', 'AGENTS.override.md', 'GEMINI.md']);

/** Fields lifted out of the frontmatter into the section itself. */
const LIFTED = new Set(['title', 'tags', 'scope']);

/**
 * `markdown`: a folder of notes (`.md`, `.markdown`), dot-folders and node_modules skipped.
 * Frontmatter `title`, `tags` and `scope` become the section's own; the rest is metadata. Index
 * notes — a root `MEMORY.md` or `index.md`, frontmatter `moc: true` or `node_type: index|moc` —
 * only link to other notes and are not imported.
 */
export const markdownSource: SourceAdapter = {
  name: 'markdown',
  selects(path) {
    if (!/\.(?:md|markdown)$/i.test(path) || AGENT_FILES.has(baseName(path))) return false;
    return !path.split('/').some((segment) => segment.startsWith('.') || segment === 'node_modules');
  },
  describe(path, frontmatter) {
    const nodeType = text(frontmatter.node_type)?.toLowerCase();
    const rootIndex = directoryOf(path) === '' && ['MEMORY.md', 'index.md'].includes(baseName(path));
    const skip =
      rootIndex || frontmatter.moc === true || nodeType === 'index' || nodeType === 'moc'
        ? 'an index note that only links to other notes'
        : undefined;
    const metadata: JsonObject = Object.fromEntries(Object.entries(frontmatter).filter(([key]) => !LIFTED.has(key)));
    const title = text(frontmatter.title);
    return {
      tags: ['markdown', ...frontmatterTags(frontmatter.tags), ...pathTags(directoryOf(path))],
      metadata,
      ...(title ? { title } : {}),
      ...(skip ? { skip } : {}),
    };
  },
};
