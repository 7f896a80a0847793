import { baseName, inIgnoredFolder } from './relative-path.js';
import type { SourceAdapter } from './source-adapter.js';
import { appliesToDirectory, pathTags } from './tag-list.js';

/**
 * `codex`: every AGENTS.md, and AGENTS.override.md (which Codex reads in its place). A nested one
 * applies to its folder, so its sections are tagged `path:<folder>`; the files are not merged.
 */
export const codexSource: SourceAdapter = {
  name: 'codex',
  selects(path) {
    const name = baseName(path);
    return !inIgnoredFolder(path) && (name === 'AGENTS.md' || name === 'AGENTS.override.md');
  },
  describe(path, frontmatter) {
    const override = baseName(path) === 'AGENTS.override.md';
    return {
      tags: ['codex', 'agents-md', 'instructions', ...(override ? ['override'] : []), ...pathTags(appliesToDirectory(path))],
      metadata: frontmatter,
    };
  },
};
