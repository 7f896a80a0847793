import { globList, type SourceAdapter } from './source-adapter.js';

const REPOSITORY_FILE = '.github/copilot-instructions.md';
const INSTRUCTIONS_FOLDER = '.github/instructions/';

/**
 * `copilot`: the repository's `.github/copilot-instructions.md` and the path-specific
 * `.github/instructions/**\/*.instructions.md`, whose frontmatter `applyTo` globs become
 * `applies:<glob>` tags and metadata. Copilot reads `.github` at the repository root only.
 */
export const copilotSource: SourceAdapter = {
  name: 'copilot',
  plainKeys: ['applyTo'],
  selects(path) {
    return path === REPOSITORY_FILE || (path.startsWith(INSTRUCTIONS_FOLDER) && path.endsWith('.instructions.md'));
  },
  describe(path, frontmatter) {
    if (path === REPOSITORY_FILE) return { tags: ['copilot', 'instructions'], metadata: frontmatter };
    const applyTo = globList(frontmatter.applyTo);
    return {
      tags: ['copilot', 'instructions', 'path-specific', ...applyTo.map((glob) => `applies:${glob}`)],
      metadata: { ...frontmatter, applyTo },
    };
  },
};
