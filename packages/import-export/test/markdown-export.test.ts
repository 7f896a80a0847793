import { type ExportedLink, type ExportedMemory, type ExportPage, type ExportQuery, type ExportStore, toTenantId } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { verifies } from '../../core/test/requirements.js';
import {
  isFrontmatterError,
  type MarkdownNote,
  markdownNote,
  markdownNoteName,
  markdownNotePath,
  planMarkdownExport,
  readMarkdownExportPage,
  splitFrontmatter,
  utf8Length,
} from '../src/index.js';

const alice = toTenantId('alice');
const ID = '0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b';
const TARGET = '0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5c';

const memory = (overrides: Partial<ExportedMemory> = {}): ExportedMemory => ({
  id: ID,
  userId: alice,
  tier: 'ltm',
  scope: 'project:x',
  content: 'Alice prefers tabs over spaces in every repository',
  tags: ['prefs', 'style'],
  metadata: { z: 1, a: { d: 2, c: [3, { f: 1, e: 0 }] } },
  importance: 0.5,
  importanceScore: 0.625,
  accessCount: 3,
  lastAccessedAt: new Date('2026-04-02T00:00:00.000Z'),
  expiresAt: null,
  pinned: true,
  stale: false,
  contradicted: true,
  supersededBy: null,
  deletedAt: null,
  version: 2,
  embeddingModel: 'static-test',
  hasEmbedding: true,
  createdAt: new Date('2026-04-01T00:00:00.000Z'),
  updatedAt: new Date('2026-04-01T01:00:00.000Z'),
  searchContext: 'more words',
  embeddedAt: null,
  ...overrides,
});

const link = (id: string, targetMemoryId: string | null, rel = 'supersedes'): ExportedLink => ({
  id,
  sourceMemoryId: ID,
  targetMemoryId,
  targetLocator: `id:${targetMemoryId ?? TARGET}`,
  rel,
  origin: 'derived',
  score: null,
  note: null,
  metadata: {},
  createdAt: new Date('2026-04-01T00:00:00.000Z'),
});

/** A note split as a frontmatter reader splits it: the first `---` line opens, the next one closes. */
function splitNote(note: MarkdownNote): { frontmatter: Record<string, unknown>; yamlLines: string[]; body: string } {
  const lines = note.content.split('\n');
  expect(lines[0]).toBe('---');
  const close = lines.findIndex((line, index) => index > 0 && /^(---|\.\.\.)\s*$/.test(line));
  const yamlLines = lines.slice(1, close);
  return { frontmatter: parse(yamlLines.join('\n')), yamlLines, body: lines.slice(close + 1).join('\n') };
}

const HOSTILE = [
  '---',
  '...',
  'a\n---\nid: forged\n---\n',
  'no',
  'on',
  'null',
  '#not a comment',
  'key: value',
  '- item',
  '[[wiki|link]]',
  '"quoted" \\ back',
  '\u0000\u0007\u2028',
  'émoji 🧠 ✓',
  'x'.repeat(300),
];

describe('a markdown note', () => {
  it('has YAML frontmatter that parses back to the memory’s fields, in a fixed order', () => {
    const note = markdownNote({ memory: memory(), links: [link('l1', TARGET), link('l2', null, 'contradicts')] });
    const { frontmatter, body } = splitNote(note);
    expect(Object.keys(frontmatter)).toEqual([
      'id',
      'tier',
      'scope',
      'aliases',
      'tags',
      'importance',
      'importanceScore',
      'pinned',
      'stale',
      'contradicted',
      'supersededBy',
      'replacedBy',
      'createdAt',
      'updatedAt',
      'expiresAt',
      'deletedAt',
      'version',
      'metadata',
      'links',
    ]);
    expect(frontmatter).toEqual({
      id: ID,
      tier: 'ltm',
      scope: 'project:x',
      aliases: ['Alice prefers tabs over spaces in every repository'],
      tags: ['prefs', 'style'],
      importance: 0.5,
      importanceScore: 0.625,
      pinned: true,
      stale: false,
      contradicted: true,
      supersededBy: null,
      replacedBy: null,
      createdAt: '2026-04-01T00:00:00.000Z',
      updatedAt: '2026-04-01T01:00:00.000Z',
      expiresAt: null,
      deletedAt: null,
      version: 2,
      metadata: { a: { c: [3, { e: 0, f: 1 }], d: 2 }, z: 1 },
      links: [
        { rel: 'supersedes', target: TARGET },
        { rel: 'contradicts', target: null },
      ],
    });
    expect(Object.keys(frontmatter.metadata as object)).toEqual(['a', 'z']);
    expect(body).toBe(
      `Alice prefers tabs over spaces in every repository\n\n## Links\n\n- supersedes [[${TARGET}]]\n- contradicts (deleted memory)\n`,
    );
  });

  it('reads back through memsvc’s own frontmatter reader too', () => {
    const content = '---\ntitle: not the frontmatter\n---\nbody';
    const note = markdownNote({ memory: memory({ content, tier: 'stm', expiresAt: new Date('2026-05-01T00:00:00.000Z') }), links: [] });
    const split = splitFrontmatter(note.content);
    if (isFrontmatterError(split)) throw new Error(split.error);
    expect(split.data).toMatchObject({ id: ID, tier: 'stm', expiresAt: '2026-05-01T00:00:00.000Z' });
    expect(split.body).toBe(`${content}\n`);
  });

  it('keeps the content exactly as stored, after the frontmatter, whatever it holds', () => {
    const contents = [
      '---\nid: forged\ntier: stm\n---\n',
      '...\n---',
      '<script>alert("x")</script>',
      'emoji 🧠🎉 and 日本語 and RTL \u202e',
      '  leading spaces and a trailing newline\n',
      `${'long words '.repeat(931)}x`.slice(0, 10_240),
    ];
    expect(contents.at(-1)).toHaveLength(10_240);
    for (const content of contents) {
      const note = markdownNote({ memory: memory({ content }), links: [] });
      const { frontmatter, body } = splitNote(note);
      expect(frontmatter.id).toBe(ID);
      expect(frontmatter.tier).toBe('ltm');
      expect(body).toBe(`${content}\n`);
      expect(note.path).toBe(`ltm/${ID}.md`);
    }
  });

  it('serialises untrusted tags, scope and metadata so they cannot close the frontmatter or change a field', () => {
    const metadata = Object.fromEntries(HOSTILE.map((text, index) => [text, { [`k${index}`]: text }]));
    const note = markdownNote({ memory: memory({ scope: HOSTILE[2] ?? '', tags: HOSTILE, metadata }), links: [] });
    const { frontmatter, yamlLines } = splitNote(note);
    expect(frontmatter).toMatchObject({ id: ID, tier: 'ltm', scope: HOSTILE[2], tags: HOSTILE, version: 2 });
    expect(frontmatter.metadata).toEqual(metadata);
    // Only the top-level fields start a line unindented; every value stays on its field's lines.
    const topLevel = yamlLines.filter((line) => /^\S/.test(line)).map((line) => line.split(':')[0]);
    expect(topLevel).toEqual(Object.keys(frontmatter));
    expect(yamlLines.every((line) => line.length < 1000)).toBe(true);
  });

  it('names the first words of the content as its alias, bounded and without wikilink syntax', () => {
    const aliasOf = (content: string) => splitNote(markdownNote({ memory: memory({ content }), links: [] })).frontmatter.aliases;
    expect(aliasOf('one two three four five six seven eight nine ten')).toEqual(['one two three four five six seven eight']);
    expect(aliasOf('# Heading [[x|y]]\n\tsecond^line')).toEqual(['Heading x y second line']);
    expect(aliasOf('#[]|^')).toEqual([]);
    const long = aliasOf('🧠'.repeat(200)) as string[];
    expect(Array.from(long[0] ?? '')).toHaveLength(80);
    expect(long[0]).not.toContain('\ufffd');
  });

  it('is the same bytes for the same memory, whatever order its metadata keys come in', () => {
    const first = markdownNote({ memory: memory({ metadata: { b: 1, a: { y: 2, x: 1 } } }), links: [link('l1', TARGET)] });
    const second = markdownNote({ memory: memory({ metadata: { a: { x: 1, y: 2 }, b: 1 } }), links: [link('l1', TARGET)] });
    expect(second).toEqual(first);
    expect(markdownNote({ memory: memory(), links: [] })).toEqual(markdownNote({ memory: memory(), links: [] }));
  });

  it('links to the target’s note by the name its file has, so the graph view connects them', () => {
    const source = markdownNote({ memory: memory(), links: [link('l1', TARGET, 'relates-to')] });
    const target = markdownNote({ memory: memory({ id: TARGET, tier: 'stm', content: 'something else entirely' }), links: [] });
    const wikilink = /\[\[([^\]]+)\]\]/.exec(source.content)?.[1];
    expect(target.path).toBe(`stm/${wikilink}.md`);
    expect(markdownNote({ memory: memory(), links: [] }).content).not.toContain('## Links');
  });
});

describe('a markdown note’s file name', () => {
  const SAFE = /^(stm|ltm)\/[a-z0-9_-]+\.md$/;
  const WINDOWS_DEVICES = /^(con|prn|aux|nul|com\d|lpt\d)$/i;

  it('is `<tier>/<id>.md`, whatever the content says', () => {
    for (const content of ['../../etc/passwd', 'a/b\\c:d*e?f"g<h>i|j', 'CON', '.hidden.', 'ünïcödé 🧠', '']) {
      expect(markdownNote({ memory: memory({ content }), links: [] }).path).toBe(`ltm/${ID}.md`);
    }
    expect(markdownNotePath('stm', ID)).toBe(`stm/${ID}.md`);
  });

  it('never carries an unsafe character, and two ids never share one, even on a case-insensitive disk', () => {
    const ids = [
      ID,
      ID.toUpperCase(),
      'a/b',
      'a\\b',
      'a_b',
      'a_002fb',
      '../..',
      '.',
      '..',
      '',
      'con',
      'CON',
      'nul',
      'com1',
      'lpt9',
      '_con',
      'ünïcödé',
      '🧠',
      'a:b*c?d"e<f>g|h#i^j[k]l',
      'trailing.',
      'trailing ',
      'tab\there',
    ];
    const names = ids.map(markdownNoteName);
    for (const name of names) {
      expect(`ltm/${name}.md`).toMatch(SAFE);
      expect(name).not.toMatch(WINDOWS_DEVICES);
    }
    expect(new Set(names.map((name) => name.toLowerCase())).size).toBe(ids.length);
    expect(markdownNoteName(ID)).toBe(ID);
  });
});

/** An ExportStore over a fixed list, with a link from every memory to the one before it. */
function fixedStore(memories: ExportedMemory[]): ExportStore & { queries: ExportQuery[] } {
  const queries: ExportQuery[] = [];
  return {
    queries,
    async exportPage(_tenant, query): Promise<ExportPage> {
      queries.push(query);
      const after = memories.filter((item) => query.after === undefined || item.id > query.after);
      const page = after.slice(0, query.limit);
      const links = page.flatMap((item, index) =>
        index === 0 ? [] : [{ ...link(`l${item.id}`, page[index - 1]?.id ?? null), sourceMemoryId: item.id }],
      );
      return { memories: page, links, audit: [], nextCursor: after.length > query.limit ? page.at(-1)?.id : undefined };
    },
  };
}

describe('markdown export pages', () => {
  const memories = Array.from({ length: 7 }, (_, i) => memory({ id: `0196a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5${i}`, content: `fact ${i}` }));

  it(verifies('R-EXPORT-BOUNDED', 'a markdown page holds at most `limit` notes, and the cursor resumes after the last'), async () => {
    const store = fixedStore(memories);
    const first = await readMarkdownExportPage(store, alice, { limit: 3 });
    expect(first.count).toBe(3);
    expect(first.notes.map((note) => note.path)).toEqual(memories.slice(0, 3).map((item) => `ltm/${item.id}.md`));
    expect(first.nextCursor).toBe(memories[2]?.id);
    expect(first.notes[1]?.content).toContain(`[[${memories[0]?.id}]]`);
    const rest = await readMarkdownExportPage(store, alice, { limit: 10, cursor: first.nextCursor });
    expect(rest).toMatchObject({ count: 4, nextCursor: undefined });
  });

  it(verifies('R-EXPORT-BOUNDED', 'a markdown page ends early at its byte budget, never empty'), async () => {
    const store = fixedStore(memories);
    const whole = await readMarkdownExportPage(store, alice, { cursor: memories[0]?.id });
    const [first, second, third] = whole.notes.map((note) => utf8Length(note.path) + utf8Length(note.content));
    const page = await readMarkdownExportPage(store, alice, {
      cursor: memories[0]?.id,
      maxBytes: (first ?? 0) + (second ?? 0) + (third ?? 0) - 1,
    });
    expect(page).toMatchObject({ count: 2, nextCursor: memories[2]?.id });
    expect(await readMarkdownExportPage(store, alice, { maxBytes: 1 })).toMatchObject({ count: 1, nextCursor: memories[0]?.id });
  });

  it('refuses history, audit and vectors — the interchange’s options — naming the field', async () => {
    const fieldOf = (request: Parameters<typeof planMarkdownExport>[0]) => {
      try {
        planMarkdownExport(request);
        return undefined;
      } catch (error) {
        return [(error as { code: string }).code, (error as { data: { field: string } }).data.field];
      }
    };
    expect(fieldOf({ includeHistory: true })).toEqual(['INVALID_INPUT', 'includeHistory']);
    expect(fieldOf({ includeAudit: true })).toEqual(['INVALID_INPUT', 'includeAudit']);
    expect(fieldOf({ includeVectors: true })).toEqual(['INVALID_INPUT', 'includeVectors']);
    expect(fieldOf({ includeVectors: false, limit: 0 })).toEqual(['INVALID_INPUT', 'limit']);
    expect(fieldOf({ includeDeleted: true, includeSuperseded: true })).toBeUndefined();
    await expect(readMarkdownExportPage(fixedStore(memories), alice, { includeVectors: true })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    });
  });
});
