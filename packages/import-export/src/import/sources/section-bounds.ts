import { closesFence, fencedLines, fenceOpening } from './code-fence.js';

/**
 * Cuts a section's content into parts of at most `max` characters. Cuts fall, in order of
 * preference, between paragraphs (blank lines outside code), then between lines, then at the last
 * space of an over-long line, then anywhere. A fenced code block is kept whole when it fits; one
 * that does not is cut between its lines, and every part is re-wrapped in the block's opening
 * and closing fence so each part is still a valid code block in the same language.
 */
export function boundContent(content: string, max: number): string[] {
  if (content.length <= max) return [content];
  const pieces = paragraphs(content).flatMap((block) => (block.length <= max ? [block] : splitBlock(block, max)));
  return pack(pieces, '\n\n', max);
}

/** Blocks separated by blank lines; a blank line inside a code fence does not separate. */
function paragraphs(content: string): string[] {
  const lines = content.split('\n');
  const { inside } = fencedLines(lines);
  const blocks: string[][] = [[]];
  for (const [index, line] of lines.entries()) {
    if (!inside[index] && line.trim() === '') blocks.push([]);
    else blocks.at(-1)?.push(line);
  }
  return blocks.filter((block) => block.length > 0).map((block) => block.join('\n'));
}

/** An over-long block: its runs of text lines and its code fences, each cut to fit. */
function splitBlock(block: string, max: number): string[] {
  const lines = block.split('\n');
  const pieces: string[] = [];
  let index = 0;
  while (index < lines.length) {
    const line = lines[index] ?? '';
    const opening = fenceOpening(line);
    if (!opening) {
      // A long line after a short one (a heading) starts in the short one's chunk, so no part is a lone heading.
      const previous = pieces.at(-1);
      const room = previous !== undefined && line.length > max && previous.length < max / 4 ? max - previous.length - 1 : max;
      pieces.push(...hardSplit(line, max, room));
      index += 1;
      continue;
    }
    let end = index + 1;
    while (end < lines.length && !closesFence(lines[end] ?? '', opening)) end += 1;
    const fence = lines.slice(index, end + 1);
    const text = fence.join('\n');
    pieces.push(...(text.length <= max ? [text] : splitFence(fence, opening.marker.repeat(opening.length), max)));
    index = end + 1;
  }
  return pack(pieces, '\n', max);
}

function splitFence(fence: readonly string[], closing: string, max: number): string[] {
  const open = fence[0] ?? '';
  const hasClose = fence.length > 1 && closesFence(fence.at(-1) ?? '', fenceOpening(open) ?? { marker: '`', length: 3 });
  const close = hasClose ? (fence.at(-1) ?? closing) : closing;
  const inner = fence.slice(1, hasClose ? -1 : undefined);
  const budget = max - open.length - close.length - 2;
  const lines = inner.flatMap((line) => hardSplit(line, budget));
  return pack(lines, '\n', budget).map((chunk) => `${open}\n${chunk}\n${close}`);
}

/** A line longer than `max`: cut at its last space past half the budget, else at the budget; the first part may be shorter. */
function hardSplit(line: string, max: number, firstMax = max): string[] {
  const parts: string[] = [];
  let rest = line;
  let width = firstMax;
  while (rest.length > width) {
    let cut = rest.lastIndexOf(' ', width);
    if (cut < width / 2) cut = width;
    // Never cut a surrogate pair in two.
    if (/[\uD800-\uDBFF]/.test(rest.charAt(cut - 1))) cut -= 1;
    parts.push(rest.slice(0, cut));
    rest = rest.slice(cut).replace(/^ /, '');
    width = max;
  }
  parts.push(rest);
  return parts;
}

/** Joins pieces greedily with `separator` into chunks of at most `max` characters. */
function pack(pieces: readonly string[], separator: string, max: number): string[] {
  const chunks: string[] = [];
  let current = '';
  for (const piece of pieces) {
    if (current === '') current = piece;
    else if (current.length + separator.length + piece.length <= max) current += separator + piece;
    else {
      chunks.push(current);
      current = piece;
    }
  }
  if (current !== '') chunks.push(current);
  return chunks;
}
