import type { ImportedAuditRow, ImportedMemory, JsonObject } from '@memsvc/core';
import { MemsvcError } from '@memsvc/core';
import { EXPORT_FORMAT, EXPORT_FORMAT_VERSION } from '../../export/export-format.js';
import { headerLineSchema, type MemoryLine, memoryLineSchema } from './memory-line-schema.js';

/** The versions of `memsvc-export` this reader understands. */
export const READABLE_EXPORT_VERSIONS: readonly number[] = [EXPORT_FORMAT_VERSION];

/** A parsed export: whose it was, and its memories in file order. */
export interface ParsedMemsvcExport {
  /** The header's `userId`: informative only, the import writes into the tenant it is given. */
  readonly exportedUserId: string;
  readonly memories: readonly ImportedMemory[];
}

/**
 * Parses and checks a whole `memsvc-export` file (docs/export-format.md) before anything is
 * written: a file is imported whole or not at all (issue 17), so its first bad line fails it.
 * Every error is INVALID_INPUT with the 1-based `line` and, for a bad value, its `field`.
 */
export function parseMemsvcExport(content: string): ParsedMemsvcExport {
  const lines = content.split('\n');
  // Every line ends with `\n`, so a complete file splits into one empty string at the end.
  if (lines.at(-1) === '') lines.pop();
  if (lines.length === 0) throw lineError(1, 'the file is empty: expected a memsvc-export header line');

  const header = headerLineSchema.safeParse(parseJson(lines[0] ?? '', 1));
  if (!header.success) {
    throw fieldError(1, header.error.issues[0], `not a ${EXPORT_FORMAT} header`);
  }
  if (!READABLE_EXPORT_VERSIONS.includes(header.data.version)) {
    throw new MemsvcError(
      'INVALID_INPUT',
      `line 1: ${EXPORT_FORMAT} version ${header.data.version} is not known to this server (it reads ${READABLE_EXPORT_VERSIONS.join(', ')})`,
      { line: 1, field: 'version' },
    );
  }

  const memories: ImportedMemory[] = [];
  const seen = new Set<string>();
  for (let index = 1; index < lines.length; index += 1) {
    const number = index + 1;
    const parsed = memoryLineSchema.safeParse(parseJson(lines[index] ?? '', number));
    if (!parsed.success) throw fieldError(number, parsed.error.issues[0], 'not a memory line');
    const id = parsed.data.id.toLowerCase();
    if (seen.has(id))
      throw new MemsvcError('INVALID_INPUT', `line ${number}: memory ${id} appears twice in the file`, { line: number, field: 'id' });
    seen.add(id);
    memories.push(toImportedMemory(parsed.data));
  }
  return { exportedUserId: header.data.userId, memories };
}

function parseJson(text: string, line: number): unknown {
  if (text.trim() === '') throw lineError(line, 'the line is empty: expected one JSON object');
  try {
    return JSON.parse(text);
  } catch {
    throw lineError(line, 'the line is not JSON');
  }
}

function lineError(line: number, message: string): MemsvcError {
  return new MemsvcError('INVALID_INPUT', `line ${line}: ${message}`, { line });
}

function fieldError(line: number, issue: { path: PropertyKey[]; message: string } | undefined, fallback: string): MemsvcError {
  const field = issue?.path.map(String).join('.') ?? '';
  const message = field === '' ? `${fallback}: ${issue?.message ?? 'invalid'}` : `${field} ${issue?.message ?? 'is invalid'}`;
  return new MemsvcError('INVALID_INPUT', `line ${line}: ${message}`, { line, ...(field === '' ? {} : { field }) });
}

function toImportedMemory(line: MemoryLine): ImportedMemory {
  return {
    id: line.id.toLowerCase(),
    tier: line.tier,
    scope: line.scope,
    content: line.content,
    tags: line.tags,
    metadata: line.metadata as JsonObject,
    importance: line.importance,
    importanceScore: line.importanceScore,
    pinned: line.pinned,
    stale: line.stale,
    contradicted: line.contradicted,
    supersededBy: line.supersededBy?.toLowerCase() ?? null,
    replacedBy: line.replacedBy?.toLowerCase() ?? null,
    accessCount: line.accessCount,
    lastAccessedAt: line.lastAccessedAt,
    expiresAt: line.expiresAt,
    deletedAt: line.deletedAt,
    version: line.version,
    embeddingModel: line.embeddingModel,
    searchContext: line.searchContext,
    createdAt: line.createdAt,
    updatedAt: line.updatedAt,
    links: line.links.map((link) => ({ ...link, metadata: link.metadata as JsonObject })),
    audit: auditOf(line),
    embedding: line.embedding ? { vector: line.embedding.vector, embeddedAt: line.embedding.embeddedAt } : null,
  };
}

/**
 * The audit rows to store. The audit array when the file has it; otherwise one row per version
 * of the history (the snapshots restore_memory and a later export read), so a file exported
 * with history alone keeps it; neither gives none.
 */
function auditOf(line: MemoryLine): ImportedAuditRow[] {
  if (line.audit) {
    return line.audit.map((row) => ({ ...row, before: row.before as JsonObject | null, after: row.after as JsonObject | null }));
  }
  return (line.history ?? []).map((version) => ({
    action: version.action,
    actor: 'import',
    version: version.version,
    before: null,
    after: {
      version: version.version,
      content: version.content,
      tags: version.tags,
      metadata: version.metadata as JsonObject,
      importance: version.importance,
      pinned: version.pinned,
      supersededBy: version.supersededBy,
    },
    createdAt: version.recordedAt,
  }));
}
