import type { ExportedLink, ExportedMemory, JsonValue } from '@memsvc/core';
import { stringify } from 'yaml';
import { canonicalJson } from './canonical-json.js';
import { markdownNoteName, markdownNotePath } from './markdown-note-name.js';

/** One memory as a markdown note: a file to write at `path` (relative, `/`-separated). */
export interface MarkdownNote {
  readonly path: string;
  readonly content: string;
}

/** What goes into one memory's note. */
export interface MarkdownNoteParts {
  readonly memory: ExportedMemory;
  /** Its outgoing links, in id order. */
  readonly links: readonly ExportedLink[];
}

/** How many words of the content name the note in Obsidian (its alias), and at most how many characters. */
const ALIAS_WORDS = 8;
const ALIAS_MAX_CHARS = 80;

/**
 * Every string double-quoted on one line: a value can then never span lines, so no value —
 * tags, scope and metadata are agents' text like the content — can write a `---` line that
 * closes the frontmatter early, and a YAML 1.1 reader (Obsidian's plugins) never takes `no` or
 * `on` for a boolean. Keys stay plain where YAML allows it, for readable property names.
 */
const YAML_OPTIONS = { lineWidth: 0, defaultStringType: 'QUOTE_DOUBLE', defaultKeyType: 'PLAIN' } as const;

/**
 * One memory as a note for reading in Obsidian (docs/export-format.md, "markdown"): YAML
 * frontmatter with the memory's fields in a fixed order, then the content exactly as stored,
 * then a `## Links` section of wikilinks so Obsidian's graph shows the links. The content is
 * never put into the frontmatter and no value is interpolated into YAML, so untrusted text
 * cannot change the note's properties. The same memory always gives the same bytes.
 */
export function markdownNote(parts: MarkdownNoteParts): MarkdownNote {
  const { memory } = parts;
  const frontmatter: Record<string, JsonValue> = {
    id: memory.id,
    tier: memory.tier,
    scope: memory.scope,
    aliases: noteAliases(memory.content),
    tags: [...memory.tags],
    importance: memory.importance,
    importanceScore: memory.importanceScore,
    pinned: memory.pinned,
    stale: memory.stale,
    contradicted: memory.contradicted,
    supersededBy: memory.supersededBy,
    replacedBy: memory.replacedBy ?? null,
    createdAt: memory.createdAt.toISOString(),
    updatedAt: memory.updatedAt.toISOString(),
    expiresAt: memory.expiresAt?.toISOString() ?? null,
    deletedAt: memory.deletedAt?.toISOString() ?? null,
    version: memory.version,
    metadata: canonicalJson(memory.metadata),
    links: parts.links.map((link) => ({ rel: link.rel, target: link.targetMemoryId })),
  };
  const yaml = stringify(frontmatter, YAML_OPTIONS);
  return {
    path: markdownNotePath(memory.tier, memory.id),
    content: `---\n${yaml}---\n${memory.content}\n${linksSection(parts.links)}`,
  };
}

/**
 * The note's `## Links` section, or nothing when it has no links: one wikilink per link, so the
 * graph view draws it. A link whose target was hard-deleted has no note to point at.
 */
function linksSection(links: readonly ExportedLink[]): string {
  if (links.length === 0) return '';
  const items = links.map((link) => {
    const target = link.targetMemoryId === null ? '(deleted memory)' : `[[${markdownNoteName(link.targetMemoryId)}]]`;
    return `- ${oneLine(link.rel)} ${target}\n`;
  });
  return `\n## Links\n\n${items.join('')}`;
}

/**
 * The content's first words, as the note's alias: the name Obsidian's quick switcher and link
 * suggestions find it by (its file name is its id). Without the characters that would break a
 * wikilink Obsidian writes with it (`[[name|alias]]`).
 */
function noteAliases(content: string): string[] {
  const words = oneLine(content.replace(/[[\]|#^]/g, ' '))
    .split(' ')
    .filter((word) => word.length > 0)
    .slice(0, ALIAS_WORDS);
  const alias = Array.from(words.join(' ')).slice(0, ALIAS_MAX_CHARS).join('').trim();
  return alias === '' ? [] : [alias];
}

/** Text on one line: control characters and line breaks become spaces, runs of spaces one. */
function oneLine(text: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  return text.replace(/[\u0000-\u001f\u007f-\u009f\u2028\u2029\s]+/g, ' ').trim();
}
