import { isMemsvcError } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { verifies } from '../../../core/test/requirements.js';
import { type AgentFileSource, parseAgentFileSource, parseSourceFiles, selectFiles } from '../../src/index.js';

const folder = [
  'CLAUDE.md',
  'CLAUDE.local.md',
  'packages/api/CLAUDE.md',
  '.claude/CLAUDE.md',
  'memory/MEMORY.md',
  'memory/prefers-pnpm.md',
  'docs/memory/not-auto-memory.md',
  'AGENTS.md',
  'AGENTS.override.md',
  'packages/api/AGENTS.md',
  'node_modules/lib/AGENTS.md',
  '.cursor/rules/style.mdc',
  '.cursor/rules/backend/db.mdc',
  'packages/web/.cursor/rules/ui.mdc',
  '.cursorrules',
  '.github/copilot-instructions.md',
  '.github/instructions/tests.instructions.md',
  '.github/instructions/readme.md',
  'packages/api/.github/copilot-instructions.md',
  'GEMINI.md',
  'packages/api/GEMINI.md',
  'notes/idea.md',
  'notes/.obsidian/workspace.md',
  'index.md',
  '../outside/AGENTS.md',
  '/etc/AGENTS.md',
  './notes/second.markdown',
];

const parseOne = (source: AgentFileSource, path: string, content: string, splitHeadings = true) => {
  const [parsed] = parseSourceFiles(source, [{ path, content }], { splitHeadings });
  if (!parsed) throw new Error('no result');
  return parsed;
};

describe('file selection', () => {
  it(verifies('IMPORT-SOURCES', 'each source selects only its own files; paths outside the folder never'), () => {
    expect(selectFiles('claude-code', folder)).toEqual([
      '.claude/CLAUDE.md',
      'CLAUDE.local.md',
      'CLAUDE.md',
      'memory/prefers-pnpm.md',
      'packages/api/CLAUDE.md',
    ]);
    expect(selectFiles('codex', folder)).toEqual(['AGENTS.md', 'AGENTS.override.md', 'packages/api/AGENTS.md']);
    expect(selectFiles('cursor', folder)).toEqual([
      '.cursor/rules/backend/db.mdc',
      '.cursor/rules/style.mdc',
      '.cursorrules',
      'packages/web/.cursor/rules/ui.mdc',
    ]);
    expect(selectFiles('copilot', folder)).toEqual(['.github/copilot-instructions.md', '.github/instructions/tests.instructions.md']);
    expect(selectFiles('gemini', folder)).toEqual(['GEMINI.md', 'packages/api/GEMINI.md']);
    // Agents' instruction files belong to their own source, so a folder imported twice does not double them.
    expect(selectFiles('markdown', folder)).toEqual([
      'docs/memory/not-auto-memory.md',
      'index.md',
      'memory/MEMORY.md',
      'memory/prefers-pnpm.md',
      'notes/idea.md',
      'notes/second.markdown',
    ]);
  });

  it(verifies('IMPORT-SOURCES', 'an unknown source is INVALID_INPUT naming the field'), () => {
    expect(parseAgentFileSource('cursor')).toBe('cursor');
    try {
      parseAgentFileSource('windsurf');
      expect.fail('accepted');
    } catch (error) {
      expect(isMemsvcError(error, 'INVALID_INPUT') && error.data.field).toBe('source');
    }
  });
});

describe('sources', () => {
  it(
    verifies(
      'IMPORT-SOURCES',
      'claude-code: CLAUDE.local.md is tagged local, nested files with their folder, provenance names file, anchor and line',
    ),
    () => {
      const local = parseOne('claude-code', 'CLAUDE.local.md', '# Me\n\nI use vim.\n');
      expect(local.sections).toEqual([
        {
          sourceFile: 'CLAUDE.local.md',
          sectionPath: ['Me'],
          title: 'Me',
          content: '# Me\n\nI use vim.',
          tags: ['claude-code', 'instructions', 'local'],
          metadata: {},
          provenance: { source: 'claude-code', file: 'CLAUDE.local.md', section: 'me', line: 1 },
        },
      ]);
      const nested = parseOne('claude-code', 'packages/api/CLAUDE.md', 'Run the api tests.');
      expect(nested.sections[0]?.tags).toEqual(['claude-code', 'instructions', 'path:packages/api']);
      expect(parseOne('claude-code', '.claude/CLAUDE.md', 'x').sections[0]?.tags).toEqual(['claude-code', 'instructions']);
    },
  );

  it(
    verifies(
      'IMPORT-SOURCES',
      'claude-code auto-memory: one note is one fact, titled and typed from its frontmatter; the index is not read',
    ),
    () => {
      const files = [
        { path: 'memory/MEMORY.md', content: '- [pnpm](prefers-pnpm.md)' },
        {
          path: 'memory/prefers-pnpm.md',
          content: '---\nname: Prefers pnpm\ndescription: package manager\ntype: feedback\n---\nUse pnpm.\n\n## Why\nLockfile.\n',
        },
      ];
      const [index, note] = parseSourceFiles('claude-code', files);
      expect(index?.failure?.reason).toBe('not-selected');
      expect(note?.sections).toHaveLength(1);
      expect(note?.sections[0]).toMatchObject({
        title: 'Prefers pnpm',
        content: 'Use pnpm.\n\n## Why\nLockfile.',
        tags: ['claude-code', 'auto-memory', 'type:feedback'],
        metadata: { name: 'Prefers pnpm', description: 'package manager', type: 'feedback' },
        provenance: { section: 'document', line: 6 },
      });
    },
  );

  it(verifies('IMPORT-SOURCES', 'codex: root and nested AGENTS.md, the folder as a path tag, the override tagged'), () => {
    const parsed = parseSourceFiles('codex', [
      { path: 'AGENTS.md', content: '## Build\npnpm build' },
      { path: 'packages/api/AGENTS.md', content: '## Test\npnpm test' },
      { path: 'AGENTS.override.md', content: 'Temporary rule.' },
    ]);
    expect(parsed.map((file) => file.sections[0]?.tags)).toEqual([
      ['codex', 'agents-md', 'instructions'],
      ['codex', 'agents-md', 'instructions', 'path:packages/api'],
      ['codex', 'agents-md', 'instructions', 'override'],
    ]);
  });

  it(
    verifies(
      'IMPORT-SOURCES',
      'cursor: frontmatter globs (unquoted, as Cursor writes them), alwaysApply and description become tags and metadata',
    ),
    () => {
      const auto = parseOne(
        'cursor',
        '.cursor/rules/ts.mdc',
        '---\ndescription: TypeScript style\nglobs: *.ts,*.tsx\nalwaysApply: false\n---\nUse strict mode.\n',
      );
      expect(auto.failure).toBeUndefined();
      expect(auto.sections[0]?.tags).toEqual(['cursor', 'rules', 'rule-type:auto-attached', 'glob:*.ts', 'glob:*.tsx']);
      expect(auto.sections[0]?.metadata).toEqual({ description: 'TypeScript style', globs: ['*.ts', '*.tsx'], alwaysApply: false });
      expect(auto.sections[0]?.title).toBe('ts');
      const always = parseOne('cursor', 'packages/web/.cursor/rules/ui.mdc', '---\nalwaysApply: true\n---\nUse the design tokens.');
      expect(always.sections[0]?.tags).toEqual(['cursor', 'rules', 'always-apply', 'rule-type:always', 'path:packages/web']);
      expect(parseOne('cursor', '.cursor/rules/ask.mdc', '---\ndescription: when asked\n---\nx').sections[0]?.tags).toContain(
        'rule-type:agent-requested',
      );
      expect(parseOne('cursor', '.cursor/rules/manual.mdc', 'x').sections[0]?.tags).toContain('rule-type:manual');
      expect(parseOne('cursor', '.cursorrules', 'Be terse.').sections[0]?.tags).toEqual(['cursor', 'rules', 'legacy']);
    },
  );

  it(verifies('IMPORT-SOURCES', 'copilot: repository instructions, and path-specific ones with applyTo globs as tags'), () => {
    const repo = parseOne('copilot', '.github/copilot-instructions.md', 'Prefer small PRs.');
    expect(repo.sections[0]?.tags).toEqual(['copilot', 'instructions']);
    const specific = parseOne(
      'copilot',
      '.github/instructions/tests.instructions.md',
      '---\napplyTo: **/*.test.ts, e2e/**\n---\nUse vitest.',
    );
    expect(specific.sections[0]?.tags).toEqual(['copilot', 'instructions', 'path-specific', 'applies:**/*.test.ts', 'applies:e2e/**']);
    expect(specific.sections[0]?.metadata).toEqual({ applyTo: ['**/*.test.ts', 'e2e/**'] });
  });

  it(verifies('IMPORT-SOURCES', 'gemini: GEMINI.md files, nested ones tagged with their folder; @imports left as written'), () => {
    const parsed = parseOne('gemini', 'packages/api/GEMINI.md', '# API\n@./docs/style.md\nKeep handlers thin.');
    expect(parsed.sections[0]).toMatchObject({
      tags: ['gemini', 'instructions', 'path:packages/api'],
      content: '# API\n@./docs/style.md\nKeep handlers thin.',
    });
  });

  it(
    verifies(
      'IMPORT-SOURCES',
      'markdown: frontmatter title, tags and scope lifted; the rest is metadata; index notes skipped with a warning',
    ),
    () => {
      const note = parseOne(
        'markdown',
        'notes/idea.md',
        '---\ntitle: Big idea\ntags: [ideas, "#later"]\nscope: project:x\nstatus: draft\n---\nBody text.',
        false,
      );
      expect(note.sections).toEqual([
        {
          sourceFile: 'notes/idea.md',
          sectionPath: [],
          title: 'Big idea',
          content: 'Body text.',
          tags: ['markdown', 'ideas', 'later', 'path:notes'],
          scope: 'project:x',
          metadata: { status: 'draft' },
          provenance: { source: 'markdown', file: 'notes/idea.md', section: 'document', line: 7 },
        },
      ]);
      const moc = parseOne('markdown', 'notes/map.md', '---\nmoc: true\n---\n- [[idea]]');
      expect(moc.sections).toEqual([]);
      expect(moc.warnings[0]).toMatch(/index note/);
      expect(parseOne('markdown', 'index.md', '- [[idea]]').sections).toEqual([]);
    },
  );
});

describe('per-file failures', () => {
  it(
    verifies(
      'IMPORT-FILE-FAILURE',
      'broken frontmatter fails that file with the YAML line and gives no sections; the next file still parses',
    ),
    () => {
      const [broken, unclosed, list, good] = parseSourceFiles('markdown', [
        { path: 'a.md', content: '---\ntitle: ok\ntags: [unclosed\n---\n# Body\ntext' },
        { path: 'b.md', content: '---\ntitle: never closed\n# Body' },
        { path: 'c.md', content: '---\n- a list\n---\nbody' },
        { path: 'd.md', content: '---\ntitle: fine\n---\nbody' },
      ]);
      expect(broken?.failure?.reason).toBe('frontmatter');
      expect(broken?.failure?.message).toMatch(/not valid YAML \(line \d+\)/);
      expect(broken?.sections).toEqual([]);
      expect(unclosed?.failure?.message).toMatch(/never closed/);
      expect(list?.failure?.message).toMatch(/mapping/);
      expect(good?.failure).toBeUndefined();
      expect(good?.sections).toHaveLength(1);
    },
  );

  it(
    verifies('IMPORT-FILE-FAILURE', 'binary, oversized, outside-the-folder and foreign files fail alone; an empty file is a warning'),
    () => {
      const [binary, huge, outside, foreign, empty] = parseSourceFiles('codex', [
        { path: 'AGENTS.md', content: 'text\u0000more' },
        { path: 'x/AGENTS.md', content: 'a'.repeat(1_048_577) },
        { path: '../AGENTS.md', content: 'text' },
        { path: 'README.md', content: 'text' },
        { path: 'y/AGENTS.md', content: ' \n\n' },
      ]);
      expect([binary, huge, outside, foreign].map((file) => file?.failure?.reason)).toEqual([
        'binary',
        'too-large',
        'path',
        'not-selected',
      ]);
      expect([binary, huge, outside, foreign].every((file) => file?.sections.length === 0)).toBe(true);
      expect(empty?.failure).toBeUndefined();
      expect(empty?.warnings).toEqual(['file is empty: nothing to import']);
    },
  );

  it(verifies('IMPORT-FILE-FAILURE', 'a section bound outside 100..10,240 is INVALID_INPUT naming maxSectionChars'), () => {
    try {
      parseSourceFiles('codex', [], { maxSectionChars: 20_000 });
      expect.fail('accepted');
    } catch (error) {
      expect(isMemsvcError(error, 'INVALID_INPUT') && error.data.field).toBe('maxSectionChars');
    }
  });
});
