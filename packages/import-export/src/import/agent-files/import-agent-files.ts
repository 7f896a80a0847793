import type { CallContext, Clock, ImportLedgerEntry, ImportLedgerStore, MemoryEngine, MemoryRecord, ProgressListener } from '@memsvc/core';
import { isMemsvcError } from '@memsvc/core';
import { EMPTY_FILE_COUNTS, type ImportFileSummary, type ImportSummary, type SectionReport, summarizeImport } from '../import-summary.js';
import type { ImportFile } from '../memsvc-jsonl/import-memsvc-file.js';
import { type AgentFileParsing, type FilePlan, planAgentFiles, type UnreadableFile } from './plan-agent-files.js';
import type { SectionMemory } from './section-memory.js';

/** One call's files and what to do with them. */
export interface AgentImportRequest extends AgentFileParsing {
  /** Names the imported folder in the ledger: its real path on the server, or the caller's label for inline files. */
  readonly root: string;
  /** Paths relative to the root. */
  readonly files: readonly ImportFile[];
  /** Files the caller found but could not read; each fails alone. */
  readonly unreadable?: readonly UnreadableFile[];
  /**
   * True when `files` is the whole folder (a server-side import): a file the ledger knows that
   * is no longer there is reported removed. Inline files are only what the caller sent.
   */
  readonly wholeFolder: boolean;
  readonly dryRun: boolean;
  /** Told after each file. */
  readonly onProgress?: ProgressListener | undefined;
}

/** What the import needs: the engine (every write goes through its rules), the ledger and a clock. */
export interface AgentImportDependencies {
  readonly engine: Pick<MemoryEngine, 'create' | 'update' | 'getUncounted'>;
  readonly ledger: ImportLedgerStore;
  readonly clock: Clock;
}

/**
 * Imports an agent's memory files into a tenant (issue 17). Every file is parsed, scanned and
 * checked first; then, per section, the ledger decides: a new section is created through the
 * engine (so the duplicate and contradiction rules hold, and it is embedded and audited like any
 * write); an unchanged one is skipped; a changed one updates its memory with the version the
 * import last wrote, so a memory edited or deleted in memsvc since is reported as a conflict,
 * never overwritten; a section gone from its file is reported and its memory kept.
 *
 * Sections are written one by one, each recorded in the ledger right after its write: a run
 * interrupted midway leaves the sections it wrote recorded, and running it again completes it
 * without duplicates. A file refused while planning writes nothing.
 */
export async function importAgentFiles(
  dependencies: AgentImportDependencies,
  context: CallContext,
  request: AgentImportRequest,
): Promise<ImportSummary> {
  const plan = planAgentFiles(request.files, request.unreadable ?? [], request);
  if (plan.abortedBySecrets) {
    const files = plan.files.map((file) => ({ ...fileCounts(file), failed: file.parsed }));
    return summarizeImport(request.source, request.dryRun, files, { abortedBySecrets: true });
  }
  const ledger = await dependencies.ledger.entries(context.tenant, request.source, request.root);
  const known = groupByFile(ledger);
  const summaries: ImportFileSummary[] = [];
  for (const file of plan.files) {
    summaries.push(
      file.error ? fileCounts(file) : await importFile(dependencies, context, request, file, known.get(file.path) ?? new Map()),
    );
    request.onProgress?.({ done: summaries.length, total: plan.files.length, message: 'files imported' });
  }
  if (request.wholeFolder) {
    const present = new Set(plan.files.map((file) => file.path));
    for (const [path, entries] of known) if (!present.has(path)) summaries.push(removedFile(path, entries));
  }
  return summarizeImport(request.source, request.dryRun, summaries);
}

async function importFile(
  dependencies: AgentImportDependencies,
  context: CallContext,
  request: AgentImportRequest,
  file: FilePlan,
  known: ReadonlyMap<string, ImportLedgerEntry>,
): Promise<ImportFileSummary> {
  const reports: SectionReport[] = [];
  for (const section of file.sections) {
    reports.push(await importSection(dependencies, context, request, file.path, section, known.get(section.anchor)));
  }
  const written = new Set([...file.sections.map((section) => section.anchor), ...file.secretSkipped]);
  for (const anchor of file.secretSkipped) reports.push({ section: anchor, outcome: 'secret-skipped' });
  for (const [anchor, entry] of known) {
    if (!written.has(anchor)) reports.push({ section: anchor, outcome: 'removed', memoryId: entry.memoryId });
  }
  const count = (...outcomes: SectionReport['outcome'][]) => reports.filter((report) => outcomes.includes(report.outcome)).length;
  return {
    ...fileCounts(file),
    created: count('created'),
    updated: count('updated'),
    skipped: count('unchanged', 'duplicate', 'secret-skipped'),
    conflicts: count('conflict'),
    removed: count('removed'),
    sections: reports,
  };
}

async function importSection(
  dependencies: AgentImportDependencies,
  context: CallContext,
  request: AgentImportRequest,
  path: string,
  section: SectionMemory & { readonly anchor: string },
  entry: ImportLedgerEntry | undefined,
): Promise<SectionReport> {
  const key = { source: request.source, root: request.root, file: path, section: section.anchor };
  const record = (memoryId: string, memoryVersion: number) =>
    dependencies.ledger.record(context.tenant, {
      ...key,
      memoryId,
      memoryVersion,
      fingerprint: section.fingerprint,
      importedAt: dependencies.clock.now(),
    });

  if (!entry) {
    if (request.dryRun) return { section: section.anchor, outcome: 'created' };
    const result = await dependencies.engine.create(context, {
      content: section.content,
      tier: 'ltm',
      scope: section.scope,
      tags: section.tags,
      metadata: section.metadata,
    });
    await record(result.memory.id, result.memory.version);
    return { section: section.anchor, outcome: result.outcome === 'created' ? 'created' : 'duplicate', memoryId: result.memory.id };
  }
  if (entry.fingerprint === section.fingerprint) return { section: section.anchor, outcome: 'unchanged', memoryId: entry.memoryId };

  const conflict = (reason: string): SectionReport => ({ section: section.anchor, outcome: 'conflict', memoryId: entry.memoryId, reason });
  const current = await dependencies.engine.getUncounted(context, entry.memoryId).catch((error: unknown) => {
    if (isMemsvcError(error, 'NOT_FOUND')) return undefined;
    throw error;
  });
  if (!current) return conflict('the memory was deleted in memsvc since the last import');
  if (current.version !== entry.memoryVersion) {
    // A run that updated the memory and stopped before its ledger entry (the two are separate
    // writes) left the memory saying what the section says: finish that run, no conflict.
    if (holdsSection(current, section)) {
      if (!request.dryRun) await record(current.id, current.version);
      return { section: section.anchor, outcome: 'updated', memoryId: current.id };
    }
    return conflict(`the memory was edited in memsvc since the last import (version ${current.version}, imported ${entry.memoryVersion})`);
  }
  if (request.dryRun) return { section: section.anchor, outcome: 'updated', memoryId: entry.memoryId };
  try {
    const updated = await dependencies.engine.update(
      context,
      entry.memoryId,
      // A frontmatter the file no longer has is removed (null), not left behind by the merge.
      { content: section.content, tags: section.tags, metadata: { frontmatter: null, secretsFound: null, ...section.metadata } },
      entry.memoryVersion,
    );
    await record(updated.id, updated.version);
    return { section: section.anchor, outcome: 'updated', memoryId: updated.id };
  } catch (error) {
    if (isMemsvcError(error, 'CONFLICT')) return conflict('the memory was edited in memsvc while this import ran');
    if (isMemsvcError(error, 'NOT_FOUND')) return conflict('the memory was deleted in memsvc while this import ran');
    throw error;
  }
}

/** Whether a memory already holds what a section writes: its text and its tags. */
function holdsSection(memory: Pick<MemoryRecord, 'content' | 'tags'>, section: SectionMemory): boolean {
  const tagSet = (tags: readonly string[]) => JSON.stringify([...tags].sort());
  return memory.content === section.content && tagSet(memory.tags) === tagSet(section.tags);
}

function fileCounts(file: FilePlan): ImportFileSummary {
  return {
    ...EMPTY_FILE_COUNTS,
    path: file.path,
    parsed: file.parsed,
    secretsFound: file.secrets.length,
    ...(file.error ? { error: file.error, failed: file.parsed } : {}),
    ...(file.warnings.length > 0 ? { warnings: file.warnings } : {}),
    ...(file.secrets.length > 0 ? { secrets: file.secrets } : {}),
  };
}

function removedFile(path: string, entries: ReadonlyMap<string, ImportLedgerEntry>): ImportFileSummary {
  const sections = [...entries.values()].map(
    (entry): SectionReport => ({ section: entry.section, outcome: 'removed', memoryId: entry.memoryId }),
  );
  return {
    ...EMPTY_FILE_COUNTS,
    path,
    removed: sections.length,
    sections,
    warnings: ['the file is no longer in the folder; its memories are kept'],
  };
}

function groupByFile(entries: readonly ImportLedgerEntry[]): Map<string, Map<string, ImportLedgerEntry>> {
  const byFile = new Map<string, Map<string, ImportLedgerEntry>>();
  for (const entry of entries) {
    const sections = byFile.get(entry.file) ?? new Map<string, ImportLedgerEntry>();
    sections.set(entry.section, entry);
    byFile.set(entry.file, sections);
  }
  return byFile;
}
