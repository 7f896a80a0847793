import { baseName, inIgnoredFolder } from './relative-path.js';
import type { SourceAdapter } from './source-adapter.js';
import { appliesToDirectory, pathTags } from './tag-list.js';

/**
 * `gemini`: every GEMINI.md (nested ones tagged with their folder, one in `.gemini/` with the
 * folder holding it). `@file.md` imports are left as written: the file they name is not read here
 * (no I/O in core), and inlining it would import its text twice.
 */
export const geminiSource: SourceAdapter = {
  name: 'gemini',
  selects(path) {
    return !inIgnoredFolder(path) && baseName(path) === 'GEMINI.md';
  },
  describe(path, frontmatter) {
    return { tags: ['gemini', 'instructions', ...pathTags(appliesToDirectory(path, '.gemini'))], metadata: frontmatter };
  },
};
