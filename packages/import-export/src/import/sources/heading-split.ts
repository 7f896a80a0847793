import { fencedLines } from './code-fence.js';

/** A piece of a markdown body before bounding: its heading trail, its text and where it starts. */
export interface RawSection {
  /** Heading texts, outermost first; empty for the preamble. */
  readonly trail: readonly string[];
  /** The section's own heading, or null for the preamble. */
  readonly heading: string | null;
  /** The section's markdown, its heading line included, trimmed. */
  readonly content: string;
  /** 1-based line in the file of the section's first line. */
  readonly line: number;
}

/** The heading levels that start a section. */
export const SPLIT_LEVELS = 2;

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;

/**
 * Splits a markdown body at `#` and `##` headings. `#` is usually the document's title and `##`
 * its topics; `###` and deeper are points of a topic that read wrongly alone, so they stay in
 * their section. A `#` line inside a fenced code block is code, not a heading. The text before
 * the first heading is a section of its own (the preamble); a section with nothing under its
 * heading is dropped (its heading still appears in the trail of the sections below it).
 */
export function splitAtHeadings(body: string, firstLine: number): { sections: RawSection[]; unclosedFenceLine: number | null } {
  const lines = body.split('\n');
  const { inside, unclosedAt } = fencedLines(lines);
  const sections: RawSection[] = [];
  let trail: string[] = [];
  let heading: string | null = null;
  let h1: string | null = null;
  let start = 0;
  const close = (end: number) => {
    const bodyLines = lines.slice(heading === null ? start : start + 1, end);
    if (bodyLines.join('\n').trim() === '') return;
    const chunk = lines.slice(start, end);
    const lead = chunk.findIndex((line) => line.trim() !== '');
    sections.push({ trail, heading, content: chunk.join('\n').trim(), line: firstLine + start + Math.max(lead, 0) });
  };
  for (const [index, line] of lines.entries()) {
    const match = inside[index] ? null : ATX.exec(line);
    const level = match?.[1]?.length ?? 0;
    if (!match || level > SPLIT_LEVELS) continue;
    close(index);
    const text = (match[2] ?? '').trim();
    if (level === 1) h1 = text;
    trail = level === 1 || h1 === null ? [text] : [h1, text];
    heading = text;
    start = index;
  }
  close(lines.length);
  return { sections, unclosedFenceLine: unclosedAt === null ? null : firstLine + unclosedAt };
}
