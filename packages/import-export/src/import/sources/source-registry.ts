import type { AgentFileSource } from './agent-file-source.js';
import { claudeCodeSource } from './claude-code-source.js';
import { codexSource } from './codex-source.js';
import { copilotSource } from './copilot-source.js';
import { cursorSource } from './cursor-source.js';
import { geminiSource } from './gemini-source.js';
import { markdownSource } from './markdown-source.js';
import { normalizeRelativePath } from './relative-path.js';
import type { SourceAdapter } from './source-adapter.js';

const ADAPTERS: Record<AgentFileSource, SourceAdapter> = {
  'claude-code': claudeCodeSource,
  codex: codexSource,
  cursor: cursorSource,
  copilot: copilotSource,
  gemini: geminiSource,
  markdown: markdownSource,
};

/** The adapter of a source. */
export function sourceAdapter(source: AgentFileSource): SourceAdapter {
  return ADAPTERS[source];
}

/**
 * Which of a folder's relative paths belong to the source, normalized and sorted, so the caller
 * reads only those. Paths that are absolute or climb out with `..` are never selected.
 */
export function selectFiles(source: AgentFileSource, paths: readonly string[]): string[] {
  const normalized = paths.map(normalizeRelativePath).filter((path): path is string => path !== null);
  const all = new Set(normalized);
  const adapter = sourceAdapter(source);
  return [...all].filter((path) => adapter.selects(path, all)).sort();
}
