export { canonicalJson, utf8Length } from './export/canonical-json.js';
export type { ExportHeader, MemoryLineParts } from './export/export-format.js';
export { EXPORT_FORMAT, EXPORT_FORMAT_VERSION, exportHeader, memoryLine, versionHistory } from './export/export-format.js';
export type { ExportLines } from './export/export-page.js';
export { readExportPage } from './export/export-page.js';
export type { ExportPlan, ExportRequest } from './export/export-request.js';
export { EXPORT_DEFAULT_LIMIT, EXPORT_MAX_LIMIT, EXPORT_MAX_PAGE_BYTES, planExport } from './export/export-request.js';
export type { MarkdownExportPage } from './export/markdown-export-page.js';
export { planMarkdownExport, readMarkdownExportPage } from './export/markdown-export-page.js';
export type { MarkdownNote, MarkdownNoteParts } from './export/markdown-note.js';
export { markdownNote } from './export/markdown-note.js';
export { markdownNoteName, markdownNotePath } from './export/markdown-note-name.js';
export type { AgentImportDependencies, AgentImportRequest } from './import/agent-files/import-agent-files.js';
export { importAgentFiles } from './import/agent-files/import-agent-files.js';
export type { UnreadableFile } from './import/agent-files/plan-agent-files.js';
export { SECRET_FLAG_TAG } from './import/agent-files/section-memory.js';
export { IMPORT_MAX_FILE_BYTES } from './import/import-limits.js';
export type { ImportSource } from './import/import-sources.js';
export { checkImportSource, IMPORT_SOURCES } from './import/import-sources.js';
export type {
  ImportFileError,
  ImportFileSummary,
  ImportSummary,
  SecretsReport,
  SectionOutcome,
  SectionReport,
} from './import/import-summary.js';
export { EMPTY_FILE_COUNTS, summarizeImport } from './import/import-summary.js';
export type { ImportFile } from './import/memsvc-jsonl/import-memsvc-file.js';
export { importMemsvcFile } from './import/memsvc-jsonl/import-memsvc-file.js';
export type { ParsedMemsvcExport } from './import/memsvc-jsonl/parse-memsvc-export.js';
export { parseMemsvcExport, READABLE_EXPORT_VERSIONS } from './import/memsvc-jsonl/parse-memsvc-export.js';
export type { SecretFinding } from './import/secrets/scan-secrets.js';
export { redactSecrets, scanSecrets } from './import/secrets/scan-secrets.js';
export type { SecretPattern } from './import/secrets/secret-patterns.js';
export { SECRET_PATTERNS } from './import/secrets/secret-patterns.js';
export type { SecretsOutcome, SecretsPolicy, SectionFinding, SectionSecrets } from './import/secrets/secrets-policy.js';
export { applySecretsPolicy, parseSecretsPolicy, SECRETS_POLICIES } from './import/secrets/secrets-policy.js';
export type { AgentFileSource } from './import/sources/agent-file-source.js';
export { AGENT_FILE_SOURCES, isAgentFileSource, parseAgentFileSource } from './import/sources/agent-file-source.js';
export type { FileText } from './import/sources/file-text.js';
export { AGENT_FILE_MAX_CHARS } from './import/sources/file-text.js';
export type { FrontmatterError, FrontmatterOptions, FrontmatterResult } from './import/sources/frontmatter.js';
export { isFrontmatterError, splitFrontmatter } from './import/sources/frontmatter.js';
export { SPLIT_LEVELS } from './import/sources/heading-split.js';
export type {
  ImportFileFailure,
  ImportProvenance,
  ImportSection,
  ParsedFile,
  ParseOptions,
  SourceFileInput,
} from './import/sources/import-section.js';
export { parseSourceFiles } from './import/sources/parse-source-files.js';
export { normalizeRelativePath } from './import/sources/relative-path.js';
export { boundContent } from './import/sources/section-bounds.js';
export { selectFiles } from './import/sources/source-registry.js';
