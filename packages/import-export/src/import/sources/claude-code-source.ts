import { baseName, directoryOf, inIgnoredFolder } from './relative-path.js';
import { type SourceAdapter, text } from './source-adapter.js';
import { appliesToDirectory, pathTags } from './tag-list.js';

const INSTRUCTION_FILES = new Set(['CLAUDE.md', 'CLAUDE.local.md']);

/**
 * Claude Code's auto-memory: a `memory/` folder whose `MEMORY.md` indexes one note per fact.
 * The folder is recognized by its index, so an unrelated `memory/` folder of docs is not read;
 * the index itself only points at the notes and is not imported.
 */
function isAutoMemoryNote(path: string, all: ReadonlySet<string>): boolean {
  const directory = directoryOf(path);
  if (baseName(directory) !== 'memory' || !path.endsWith('.md') || baseName(path) === 'MEMORY.md') return false;
  return all.has(`${directory}/MEMORY.md`);
}

/**
 * `claude-code`: every CLAUDE.md and CLAUDE.local.md (nested ones tagged with their folder; one
 * in `.claude/` belongs to the folder holding it), and the auto-memory notes. Both are read when
 * both exist (an earlier implementation silently preferred auto-memory).
 */
export const claudeCodeSource: SourceAdapter = {
  name: 'claude-code',
  selects(path, all) {
    if (inIgnoredFolder(path)) return false;
    return INSTRUCTION_FILES.has(baseName(path)) || isAutoMemoryNote(path, all);
  },
  describe(path, frontmatter) {
    if (!INSTRUCTION_FILES.has(baseName(path))) {
      // Notes carry `name`, `description` and `type` (user, feedback, project, reference); some
      // writers nest them under `metadata`.
      const nested = typeof frontmatter.metadata === 'object' && frontmatter.metadata !== null ? frontmatter.metadata : {};
      const type = text(frontmatter.type) ?? text((nested as Record<string, unknown>).type);
      const title = text(frontmatter.name) ?? text(frontmatter.title);
      return {
        tags: ['claude-code', 'auto-memory', ...(type ? [`type:${type}`] : [])],
        metadata: frontmatter,
        atomic: true,
        ...(title ? { title } : {}),
      };
    }
    const local = baseName(path) === 'CLAUDE.local.md';
    return {
      tags: ['claude-code', 'instructions', ...(local ? ['local'] : []), ...pathTags(appliesToDirectory(path, '.claude'))],
      metadata: frontmatter,
    };
  },
};
