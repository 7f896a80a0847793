import { MEMORY_LIMITS, MemsvcError } from '@memsvc/core';
import type { AgentFileSource } from './agent-file-source.js';
import { prepareFileText } from './file-text.js';
import { isFrontmatterError, splitFrontmatter } from './frontmatter.js';
import { splitAtHeadings } from './heading-split.js';
import type { ImportSection, ParsedFile, ParseOptions, SourceFileInput } from './import-section.js';
import { normalizeRelativePath, stem } from './relative-path.js';
import { anchorAllocator, slug } from './section-anchor.js';
import { boundContent } from './section-bounds.js';
import type { FileTraits } from './source-adapter.js';
import { sourceAdapter } from './source-registry.js';
import { tagList } from './tag-list.js';
import { placeSections } from './whole-file.js';

/** Smallest section bound a caller may ask for: room for a fenced code line and its fences. */
const MIN_SECTION_CHARS = 100;

/**
 * Parses the files of one source into sections. Each file stands alone: a file that fails (a
 * path outside the folder, binary or oversized content, broken frontmatter, a file the source
 * does not own) gives a failure and no sections, and the others are still parsed.
 */
export function parseSourceFiles(source: AgentFileSource, files: readonly SourceFileInput[], options: ParseOptions = {}): ParsedFile[] {
  const maxChars = options.maxSectionChars ?? MEMORY_LIMITS.contentMaxChars;
  if (!Number.isInteger(maxChars) || maxChars < MIN_SECTION_CHARS || maxChars > MEMORY_LIMITS.contentMaxChars) {
    throw new MemsvcError(
      'INVALID_INPUT',
      `maxSectionChars must be a whole number from ${MIN_SECTION_CHARS} to ${MEMORY_LIMITS.contentMaxChars}`,
      {
        field: 'maxSectionChars',
      },
    );
  }
  const paths = [...files.map((file) => file.path), ...(options.folderPaths ?? [])];
  const all = new Set(paths.map(normalizeRelativePath).filter((path): path is string => path !== null));
  return files.map((file) => parseFile(source, file, all, options.splitHeadings ?? true, maxChars));
}

function parseFile(
  source: AgentFileSource,
  input: SourceFileInput,
  all: ReadonlySet<string>,
  split: boolean,
  maxChars: number,
): ParsedFile {
  const file = normalizeRelativePath(input.path);
  const fail = (reason: NonNullable<ParsedFile['failure']>['reason'], message: string): ParsedFile => ({
    file: file ?? input.path,
    sections: [],
    warnings: [],
    failure: { reason, message },
  });
  if (file === null) return fail('path', 'path must be relative to the imported folder and stay inside it');
  const adapter = sourceAdapter(source);
  if (!adapter.selects(file, all)) return fail('not-selected', `not a ${source} memory file`);
  const prepared = prepareFileText(input.content);
  if ('failure' in prepared) return { file, sections: [], warnings: [], failure: prepared.failure };
  const front = splitFrontmatter(prepared.text, adapter.plainKeys ? { plainKeys: adapter.plainKeys } : {});
  if (isFrontmatterError(front)) return fail('frontmatter', front.error);

  const warnings: string[] = [];
  const traits = adapter.describe(file, front.data);
  if (traits.skip) return { file, sections: [], warnings: [`skipped: ${traits.skip}`] };
  if (front.body.trim() === '') return { file, sections: [], warnings: ['file is empty: nothing to import'] };

  const whole = traits.atomic === true || !split;
  const raw = whole ? placeSections(front.body, front.bodyLine) : splitAtHeadings(front.body, front.bodyLine);
  if (raw.unclosedFenceLine !== null)
    warnings.push(`code fence opened on line ${raw.unclosedFenceLine} is never closed; it runs to the end of the file`);
  // The file's title: its frontmatter's, else its first heading, else its name.
  const firstHeading = (whole ? splitAtHeadings(front.body, front.bodyLine).sections : raw.sections).find((section) => section.heading)
    ?.trail[0];
  const sections = buildSections(
    source,
    file,
    raw.sections,
    { ...traits, ...(firstHeading && !traits.title ? { title: firstHeading } : {}) },
    front.data,
    whole,
    maxChars,
    warnings,
  );
  return { file, sections, warnings };
}

function buildSections(
  source: AgentFileSource,
  file: string,
  raw: ReturnType<typeof splitAtHeadings>['sections'],
  traits: FileTraits,
  frontmatter: Record<string, unknown>,
  whole: boolean,
  maxChars: number,
  warnings: string[],
): ImportSection[] {
  const tags = tagList(traits.tags, warnings);
  const scope = scopeOf(frontmatter.scope, warnings);
  const fileTitle = traits.title ?? stem(file);
  const anchor = anchorAllocator();
  return raw.flatMap((section) => {
    const base = anchor(section.heading === null ? (whole ? 'document' : 'preamble') : slug(section.trail.join('/')));
    const parts = boundContent(section.content, maxChars);
    const title = section.heading || fileTitle;
    let cursor = 0;
    return parts.map((content, index): ImportSection => {
      const firstText = content.split('\n').find((line) => !/^ {0,3}(?:`{3,}|~{3,})/.test(line)) ?? '';
      const at = section.content.indexOf(firstText, cursor);
      if (at !== -1) cursor = at;
      const line = section.line + (at === -1 ? 0 : countLines(section.content.slice(0, at)));
      return {
        sourceFile: file,
        sectionPath: section.trail,
        title: parts.length > 1 ? `${title} (part ${index + 1} of ${parts.length})` : title,
        content,
        tags,
        ...(scope ? { scope } : {}),
        metadata: traits.metadata,
        provenance: { source, file, section: index === 0 ? base : `${base}-part-${index + 1}`, line },
      };
    });
  });
}

function countLines(text: string): number {
  let count = 0;
  for (const char of text) if (char === '\n') count += 1;
  return count;
}

/** A frontmatter `scope` is kept when it passes the memory scope rule, else reported and ignored. */
function scopeOf(value: unknown, warnings: string[]): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string' && value.trim() !== '' && value.length <= MEMORY_LIMITS.scopeMaxChars) return value.trim();
  warnings.push(`frontmatter scope ignored: it must be text of 1 to ${MEMORY_LIMITS.scopeMaxChars} characters`);
  return undefined;
}
