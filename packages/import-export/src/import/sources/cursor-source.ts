import type { JsonObject } from '@memsvc/core';
import { baseName, inIgnoredFolder } from './relative-path.js';
import { globList, type SourceAdapter, text } from './source-adapter.js';
import { appliesToDirectory, pathTags } from './tag-list.js';

/** Cursor's four rule types, from the frontmatter fields that decide when a rule is attached. */
function ruleType(alwaysApply: boolean, globs: readonly string[], description: string | undefined): string {
  if (alwaysApply) return 'always';
  if (globs.length > 0) return 'auto-attached';
  return description ? 'agent-requested' : 'manual';
}

/**
 * `cursor`: `.cursor/rules/**\/*.mdc` (nested `.cursor` folders too, tagged with the folder that
 * holds them) and the legacy `.cursorrules`. Frontmatter `description`, `globs` and
 * `alwaysApply` become tags (`always-apply`, `rule-type:*`, `glob:*`) and metadata.
 */
export const cursorSource: SourceAdapter = {
  name: 'cursor',
  plainKeys: ['globs'],
  selects(path) {
    if (inIgnoredFolder(path)) return false;
    if (baseName(path) === '.cursorrules') return true;
    const segments = path.split('/');
    const at = segments.indexOf('.cursor');
    return at !== -1 && segments[at + 1] === 'rules' && path.endsWith('.mdc');
  },
  describe(path, frontmatter) {
    const where = pathTags(appliesToDirectory(path, baseName(path) === '.cursorrules' ? undefined : '.cursor'));
    if (baseName(path) === '.cursorrules') return { tags: ['cursor', 'rules', 'legacy', ...where], metadata: frontmatter };
    const globs = globList(frontmatter.globs);
    const alwaysApply = frontmatter.alwaysApply === true;
    const description = text(frontmatter.description);
    const metadata: JsonObject = { ...frontmatter, globs, alwaysApply, ...(description ? { description } : {}) };
    return {
      tags: [
        'cursor',
        'rules',
        ...(alwaysApply ? ['always-apply'] : []),
        `rule-type:${ruleType(alwaysApply, globs, description)}`,
        ...globs.map((glob) => `glob:${glob}`),
        ...where,
      ],
      metadata,
    };
  },
};
