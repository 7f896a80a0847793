import type { JsonObject, JsonValue } from '@memsvc/core';
import { MemsvcError } from '@memsvc/core';
import type { ImportSection } from '../sources/import-section.js';
import { slug } from '../sources/section-anchor.js';
import { redactSecrets, type SecretFinding, scanSecrets } from './scan-secrets.js';

/** What an import does with a section that holds a secret (issue 17). */
export const SECRETS_POLICIES = ['redact', 'flag', 'skip', 'fail'] as const;

/** One of SECRETS_POLICIES; `redact` when not given. */
export type SecretsPolicy = (typeof SECRETS_POLICIES)[number];

/** Checks a caller's `secretsPolicy`; an unknown one is INVALID_INPUT naming the field. */
export function parseSecretsPolicy(value: string | undefined, field = 'secretsPolicy'): SecretsPolicy {
  if (value === undefined) return 'redact';
  if ((SECRETS_POLICIES as readonly string[]).includes(value)) return value as SecretsPolicy;
  throw new MemsvcError('INVALID_INPUT', `${field} must be one of ${SECRETS_POLICIES.join(', ')}`, {
    field,
    allowed: [...SECRETS_POLICIES],
  });
}

/** A finding in one field of a section: which field, which pattern and where, never the value. */
export interface SectionFinding extends SecretFinding {
  /** `content`, `title`, `sectionPath.<i>`, `tags.<i>`, `scope` or `metadata.<key…>`. */
  readonly field: string;
}

/** The secrets found in one section, keyed as the import ledger keys it. */
export interface SectionSecrets {
  readonly sourceFile: string;
  readonly section: string;
  readonly findings: readonly SectionFinding[];
}

/** The sections to write and what was found; `fail: true` means the caller writes nothing at all. */
export interface SecretsOutcome {
  readonly sections: readonly ImportSection[];
  readonly findings: readonly SectionSecrets[];
  readonly fail?: boolean;
}

/**
 * Applies a secrets policy. Every text a section carries is scanned — content, title, heading
 * trail, tags, scope and frontmatter metadata — because an earlier implementation derived tags
 * and link slugs before its scan and leaked secrets through them.
 *  - `redact` (default): each finding becomes `[REDACTED:<pattern>]` in every field; a redacted
 *    heading also renames the section's anchor, so the secret does not live on in the ledger.
 *  - `flag`: the text is kept; the section gets `secretsFound` (the pattern names).
 *  - `skip`: sections with a finding are dropped.
 *  - `fail`: when anything is found, no section is returned and `fail` is set; the caller must
 *    write nothing, in any file (`dryRun` reports the same).
 */
export function applySecretsPolicy(sections: readonly ImportSection[], policy: SecretsPolicy = 'redact'): SecretsOutcome {
  const findings: SectionSecrets[] = [];
  const kept: ImportSection[] = [];
  for (const section of sections) {
    const found = scanSection(section);
    if (found.length === 0) {
      kept.push(section);
      continue;
    }
    const redacted = redactSection(section);
    // Reported under the redacted anchor: a heading holding a secret must not echo it in the summary.
    findings.push({ sourceFile: section.sourceFile, section: redacted.provenance.section, findings: found });
    if (policy === 'redact') kept.push(redacted);
    else if (policy === 'flag') kept.push({ ...section, secretsFound: [...new Set(found.map((finding) => finding.pattern))].sort() });
  }
  if (policy === 'fail' && findings.length > 0) return { sections: [], findings, fail: true };
  return { sections: kept, findings };
}

function scanSection(section: ImportSection): SectionFinding[] {
  const fields: [string, string][] = [
    ['content', section.content],
    ['title', section.title],
    ...section.sectionPath.map((part, index): [string, string] => [`sectionPath.${index}`, part]),
    ...section.tags.map((tag, index): [string, string] => [`tags.${index}`, tag]),
    ...(section.scope === undefined ? [] : [['scope', section.scope] as [string, string]]),
    ...metadataStrings(section.metadata, 'metadata'),
  ];
  return fields.flatMap(([field, text]) => scanSecrets(text).map((finding) => ({ field, ...finding })));
}

function metadataStrings(value: JsonValue, path: string): [string, string][] {
  if (typeof value === 'string') return [[path, value]];
  if (Array.isArray(value)) return value.flatMap((entry: JsonValue, index: number) => metadataStrings(entry, `${path}.${index}`));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, entry]) => [
      ...metadataStrings(key, `${path}.${key}#key`),
      ...metadataStrings(entry, `${path}.${key}`),
    ]);
  }
  return [];
}

const redact = (text: string) => redactSecrets(text, scanSecrets(text));

function redactJson(value: JsonValue): JsonValue {
  if (typeof value === 'string') return redact(value);
  if (Array.isArray(value)) return value.map((entry: JsonValue) => redactJson(entry));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, entry]) => [redact(key), redactJson(entry)]));
  return value;
}

function redactSection(section: ImportSection): ImportSection {
  const sectionPath = section.sectionPath.map(redact);
  const anchor = section.provenance.section;
  // Anchors of headed sections are slug(trail) plus a `-2` / `-part-N` suffix (parse-source-files).
  const oldBase = slug(section.sectionPath.join('/'));
  const renamed =
    section.sectionPath.length > 0 && sectionPath.join('/') !== section.sectionPath.join('/') && anchor.startsWith(oldBase)
      ? slug(sectionPath.join('/')) + anchor.slice(oldBase.length)
      : anchor;
  return {
    ...section,
    content: redact(section.content),
    title: redact(section.title),
    sectionPath,
    tags: section.tags.map(redact),
    ...(section.scope === undefined ? {} : { scope: redact(section.scope) }),
    metadata: redactJson(section.metadata) as JsonObject,
    provenance: { ...section.provenance, section: renamed },
  };
}
