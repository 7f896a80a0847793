import { fencedLines } from './code-fence.js';
import type { RawSection } from './heading-split.js';

/** A file kept whole (`splitHeadings: false`, or an atomic note): one section, no heading trail. */
export function placeSections(body: string, firstLine: number): { sections: RawSection[]; unclosedFenceLine: number | null } {
  const lines = body.split('\n');
  const { unclosedAt } = fencedLines(lines);
  const lead = lines.findIndex((line) => line.trim() !== '');
  return {
    sections: [{ trail: [], heading: null, content: body.trim(), line: firstLine + Math.max(lead, 0) }],
    unclosedFenceLine: unclosedAt === null ? null : firstLine + unclosedAt,
  };
}
