import type { JsonObject } from '@memsvc/core';
import { checkContent, checkMetadata, checkScope, checkTags, fnv1a64Hex } from '@memsvc/core';
import { canonicalJson } from '../../export/canonical-json.js';
import type { ImportSection } from '../sources/import-section.js';

/** The tag a section kept under the `flag` secrets policy carries, so such memories can be found. */
export const SECRET_FLAG_TAG = 'has-secret';

/** What one section becomes: a long-term memory's fields and the fingerprint the ledger compares. */
export interface SectionMemory {
  readonly content: string;
  readonly tags: readonly string[];
  readonly scope: string | null;
  readonly metadata: JsonObject;
  /** Of content, tags, scope and metadata minus the line number: a moved section is not a changed one. */
  readonly fingerprint: string;
}

/**
 * A section as a memory. Its own frontmatter scope wins over the import's `scope`; provenance,
 * title and the file's frontmatter go into metadata, where recall filters and the dashboard see
 * them. The memory rules are checked here, so a file with one unwritable section is refused
 * before any of its sections is written (INVALID_INPUT naming the field).
 */
export function sectionMemory(section: ImportSection, defaultScope: string | null): SectionMemory {
  const { source, file, section: anchor, line } = section.provenance;
  const tags = checkTags(section.secretsFound ? [...section.tags, SECRET_FLAG_TAG] : section.tags);
  const scope = checkScope(section.scope ?? defaultScope);
  const stable: JsonObject = {
    title: section.title,
    ...(Object.keys(section.metadata).length > 0 ? { frontmatter: section.metadata } : {}),
    ...(section.secretsFound ? { secretsFound: [...section.secretsFound] } : {}),
  };
  const content = checkContent(section.content);
  const fingerprint = fnv1a64Hex(JSON.stringify(canonicalJson({ content, tags, scope, stable, source, file, anchor })));
  const metadata = checkMetadata({ ...stable, provenance: { source, file, section: anchor, line } });
  return { content, tags, scope, metadata, fingerprint };
}
