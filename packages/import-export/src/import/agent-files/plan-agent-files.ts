import { isMemsvcError } from '@memsvc/core';
import type { ImportFileError, SecretsReport } from '../import-summary.js';
import type { ImportFile } from '../memsvc-jsonl/import-memsvc-file.js';
import { applySecretsPolicy, type SecretsPolicy, type SectionSecrets } from '../secrets/secrets-policy.js';
import type { AgentFileSource } from '../sources/agent-file-source.js';
import { parseSourceFiles } from '../sources/parse-source-files.js';
import { type SectionMemory, sectionMemory } from './section-memory.js';

/** A file the caller could not read (outside the root, not a regular file, …): it fails alone. */
export interface UnreadableFile {
  readonly path: string;
  readonly error: ImportFileError;
}

/** How to turn files into sections. */
export interface AgentFileParsing {
  readonly source: AgentFileSource;
  readonly scope: string | null;
  readonly secretsPolicy: SecretsPolicy;
  readonly splitHeadings: boolean;
  /** Every path of the folder the files were selected from (ParseOptions.folderPaths). */
  readonly folderPaths?: readonly string[];
}

/** One file, ready to write: its memories by anchor, or why it is refused. */
export interface FilePlan {
  readonly path: string;
  /** Sections the file gave, before the secrets policy and the checks. */
  readonly parsed: number;
  /** Sections to write, in file order, keyed by their anchor. */
  readonly sections: readonly (SectionMemory & { readonly anchor: string })[];
  /** Anchors of sections the `skip` policy dropped: still in the file, so not "removed". */
  readonly secretSkipped: readonly string[];
  readonly secrets: readonly SecretsReport[];
  readonly warnings: readonly string[];
  readonly error?: ImportFileError;
}

/** The plan of a whole call; `abortedBySecrets` means the `fail` policy found a secret and nothing is written. */
export interface AgentImportPlan {
  readonly files: readonly FilePlan[];
  readonly abortedBySecrets: boolean;
}

/**
 * Parses, scans and checks every file before anything is written: a file that fails at any step
 * (unreadable, unparsable, a section no memory may hold) is refused whole, the others go on.
 */
export function planAgentFiles(
  files: readonly ImportFile[],
  unreadable: readonly UnreadableFile[],
  parsing: AgentFileParsing,
): AgentImportPlan {
  const parsed = parseSourceFiles(parsing.source, files, {
    splitHeadings: parsing.splitHeadings,
    ...(parsing.folderPaths ? { folderPaths: parsing.folderPaths } : {}),
  });
  const outcome = applySecretsPolicy(
    parsed.flatMap((file) => file.sections),
    parsing.secretsPolicy,
  );
  const plans = parsed.map((file): FilePlan => {
    const secrets = outcome.findings.filter((found) => found.sourceFile === file.file).map(secretsReport);
    const base = { path: file.file, parsed: file.sections.length, sections: [], secretSkipped: [], secrets, warnings: file.warnings };
    if (file.failure)
      return { ...base, error: { code: 'INVALID_INPUT', message: file.failure.message, data: { reason: file.failure.reason } } };
    const kept = outcome.sections.filter((section) => section.sourceFile === file.file);
    const keptAnchors = new Set(kept.map((section) => section.provenance.section));
    const secretSkipped =
      parsing.secretsPolicy === 'skip' ? secrets.map((found) => found.section).filter((anchor) => !keptAnchors.has(anchor)) : [];
    try {
      const sections = kept.map((section) => ({ ...sectionMemory(section, parsing.scope), anchor: section.provenance.section }));
      return { ...base, sections, secretSkipped };
    } catch (error) {
      if (!isMemsvcError(error, 'INVALID_INPUT')) throw error;
      return { ...base, error: { code: error.code, message: `a section cannot be stored: ${error.message}`, data: error.data } };
    }
  });
  const refused = unreadable.map(
    (file): FilePlan => ({ path: file.path, parsed: 0, sections: [], secretSkipped: [], secrets: [], warnings: [], error: file.error }),
  );
  return { files: [...plans, ...refused], abortedBySecrets: outcome.fail === true };
}

function secretsReport(found: SectionSecrets): SecretsReport {
  return { section: found.section, patterns: [...new Set(found.findings.map((finding) => finding.pattern))].sort() };
}
