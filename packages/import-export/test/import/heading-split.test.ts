import { MEMORY_LIMITS } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { verifies } from '../../../core/test/requirements.js';
import { boundContent, parseSourceFiles } from '../../src/index.js';

const FENCE = '```';
const sectionsOf = (content: string, options = {}) => parseSourceFiles('gemini', [{ path: 'GEMINI.md', content }], options)[0];

describe('heading split', () => {
  it(
    verifies('IMPORT-SPLIT', 'splits at # and ##, keeps ### inside, keeps the preamble, drops empty sections, trails nest under #'),
    () => {
      const text = [
        'Intro line.',
        '',
        '# Project',
        '',
        '## Setup',
        'Install.',
        '### Detail',
        'Deep.',
        '## Empty',
        '',
        '# Other',
        'Body.',
        '## Setup',
        'Again.',
      ].join('\n');
      const parsed = sectionsOf(text);
      expect(
        parsed?.sections.map((section) => [section.sectionPath, section.title, section.provenance.section, section.provenance.line]),
      ).toEqual([
        [[], 'Project', 'preamble', 1],
        [['Project', 'Setup'], 'Setup', 'project-setup', 5],
        [['Other'], 'Other', 'other', 11],
        [['Other', 'Setup'], 'Setup', 'other-setup', 13],
      ]);
      expect(parsed?.sections[1]?.content).toBe('## Setup\nInstall.\n### Detail\nDeep.');
    },
  );

  it(verifies('IMPORT-SPLIT', 'a # inside a fenced code block is code, not a heading; an unclosed fence is reported'), () => {
    const text = [
      '## Shell',
      `${FENCE}sh`,
      '# not a heading',
      'echo hi',
      FENCE,
      '~~~',
      '## nor this',
      '~~~',
      '#hashtag is text',
      '## Next',
      'x',
    ].join('\n');
    const parsed = sectionsOf(text);
    expect(parsed?.sections.map((section) => section.title)).toEqual(['Shell', 'Next']);
    expect(parsed?.sections[0]?.content).toContain('# not a heading');
    const open = sectionsOf(['## A', FENCE, '## inside', 'code'].join('\n'));
    expect(open?.sections).toHaveLength(1);
    expect(open?.warnings[0]).toMatch(/line 2 is never closed/);
  });

  it(verifies('IMPORT-SPLIT', 'repeated headings get -2 anchors; splitHeadings false keeps one document section'), () => {
    expect(sectionsOf('## A\nx\n## A\ny')?.sections.map((section) => section.provenance.section)).toEqual(['a', 'a-2']);
    const whole = sectionsOf('Intro\n## A\nx\n## B\ny', { splitHeadings: false });
    expect(whole?.sections).toHaveLength(1);
    expect(whole?.sections[0]).toMatchObject({ title: 'A', sectionPath: [], provenance: { section: 'document', line: 1 } });
  });

  it(verifies('IMPORT-SPLIT', 'frontmatter lines count in provenance lines'), () => {
    const parsed = parseSourceFiles('markdown', [{ path: 'n.md', content: '---\ntitle: T\n---\n\n## A\nx' }])[0];
    expect(parsed?.sections[0]?.provenance.line).toBe(5);
  });
});

describe('section bounds', () => {
  const paragraph = (n: number) => `Paragraph ${n} ${'word '.repeat(30).trim()}.`;

  it(verifies('IMPORT-SPLIT', 'an over-long section is cut at paragraphs into parts within the limit, anchored -part-N'), () => {
    const body = Array.from({ length: 12 }, (_, index) => paragraph(index)).join('\n\n');
    const parsed = sectionsOf(`## Long\n${body}`, { maxSectionChars: 500 });
    const sections = parsed?.sections ?? [];
    expect(sections.length).toBeGreaterThan(1);
    for (const section of sections) expect(section.content.length).toBeLessThanOrEqual(500);
    expect(sections.map((section) => section.provenance.section)).toEqual(
      sections.map((_, index) => (index === 0 ? 'long' : `long-part-${index + 1}`)),
    );
    expect(sections[1]?.title).toBe(`Long (part 2 of ${sections.length})`);
    // Every paragraph survives whole, in order.
    const joined = sections.map((section) => section.content).join('\n\n');
    expect(joined).toBe(`## Long\n${body}`);
    expect(sections[1]?.provenance.line).toBeGreaterThan(sections[0]?.provenance.line ?? 0);
  });

  it(verifies('IMPORT-SPLIT', 'a code block that fits stays whole; one that does not is cut between lines and each part re-fenced'), () => {
    const smallCode = [`${FENCE}ts`, ...Array.from({ length: 8 }, (_, index) => `const v${index} = ${index};`), FENCE].join('\n');
    const text = `${'intro '.repeat(60)}\n\n${smallCode}\n\n${'outro '.repeat(60)}`;
    const parts = boundContent(text, 400);
    expect(parts).toContain(smallCode);
    const bigCode = [`${FENCE}ts`, ...Array.from({ length: 200 }, (_, index) => `const value${index} = ${index};`), FENCE].join('\n');
    const cut = boundContent(bigCode, 500);
    expect(cut.length).toBeGreaterThan(1);
    for (const part of cut) {
      expect(part.length).toBeLessThanOrEqual(500);
      expect(part.startsWith(`${FENCE}ts\n`) && part.endsWith(`\n${FENCE}`)).toBe(true);
    }
  });

  it(
    verifies(
      'IMPORT-SPLIT',
      'a single line past the limit is cut at a space, else anywhere; the default limit is the memory content limit',
    ),
    () => {
      const parts = boundContent(`${'abc '.repeat(100)}${'z'.repeat(300)}`, 150);
      for (const part of parts) expect(part.length).toBeLessThanOrEqual(150);
      expect(parts.join('').replaceAll(' ', '')).toBe(`${'abc'.repeat(100)}${'z'.repeat(300)}`);
      const long = sectionsOf(`## Big\n${'x'.repeat(25_000)}`);
      for (const section of long?.sections ?? []) expect(section.content.length).toBeLessThanOrEqual(MEMORY_LIMITS.contentMaxChars);
      expect(long?.sections).toHaveLength(3);
    },
  );
});
