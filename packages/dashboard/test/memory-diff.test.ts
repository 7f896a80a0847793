import { describe, expect, it } from 'vitest';
import { textDiff, textExcerpt } from '../src/pages/memory/memory-diff.js';

const shown = (parts: { kind: string; text: string }[]) => parts.map((part) => `${part.kind}:${part.text}`);

describe('the memory page’s diffs', () => {
  it('is empty for equal texts, and marks changed words with the glue between them as one change', () => {
    expect(textDiff('same text', 'same text', 'words')).toEqual([]);
    expect(shown(textDiff('The deploy target is eu-west-1.', 'The deploy target is us-east-1.', 'words'))).toEqual([
      'same:The deploy target is ',
      'removed:eu-west',
      'added:us-east',
      'same:-1.',
    ]);
  });

  it('diffs metadata by lines', () => {
    const before = '{\n  "a": 1,\n  "b": 2\n}';
    const after = '{\n  "a": 1,\n  "b": 3\n}';
    expect(shown(textDiff(before, after, 'lines'))).toEqual(['same:{\n  "a": 1,\n', 'removed:  "b": 2\n', 'added:  "b": 3\n', 'same:}']);
  });

  it('keeps only the edges of long unchanged stretches and the start of long changes, within a budget', () => {
    const long = 'word '.repeat(2000);
    const parts = textDiff(`${long}old ending`, `${long}new ending`, 'words');
    expect(parts[0]?.kind).toBe('elided');
    expect(parts[0]?.text).toContain('unchanged characters');
    expect(parts.filter((part) => part.kind === 'same').reduce((sum, part) => sum + part.text.length, 0)).toBeLessThan(200);
    const rewritten = textDiff('a'.repeat(10_240), 'b'.repeat(10_240), 'words');
    expect(rewritten.map((part) => part.kind)).toEqual(['removed', 'elided', 'added', 'elided']);
    expect(rewritten.reduce((sum, part) => sum + (part.kind === 'elided' ? 0 : part.text.length), 0)).toBeLessThanOrEqual(1200);
    // 120 small changes with unchanged words between them: more to show than one diff's budget.
    const scattered = Array.from({ length: 600 }, (_, i) => `alpha${i}beta`).join(' ');
    const everyFifth = scattered.replace(/alpha(\d*[05])beta/g, 'gamma$1delta');
    const budgeted = textDiff(scattered, everyFifth, 'words');
    expect(budgeted.at(-1)?.text).toContain('more characters of this comparison');
    expect(budgeted.reduce((sum, part) => sum + (part.kind === 'elided' ? 0 : part.text.length), 0)).toBeLessThan(5000);
  });

  it('never cuts an emoji in half', () => {
    const text = `${'🙂'.repeat(3000)}`;
    for (const part of [...textExcerpt(text), ...textDiff(text, `${text}!`, 'words')]) {
      expect(part.text).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
    }
  });
});
