import type { ImportFileFailure } from './import-section.js';

/**
 * Largest file a source parses, in characters. Agents' memory files are a few kilobytes; a file
 * past a mebibyte is not one, and refusing it keeps one bad file from dominating an import.
 */
export const AGENT_FILE_MAX_CHARS = 1_048_576;

/** A file's text made ready to split, or why the file is refused. */
export type FileText = { readonly text: string } | { readonly failure: ImportFileFailure };

/**
 * Refuses binary and oversized files; strips a byte-order mark and normalizes line ends to `\n`
 * (which keeps line numbers, since `\r\n` and `\r` each end one line).
 */
export function prepareFileText(content: string): FileText {
  if (content.length > AGENT_FILE_MAX_CHARS) {
    return { failure: { reason: 'too-large', message: `file is ${content.length} characters; the limit is ${AGENT_FILE_MAX_CHARS}` } };
  }
  // A NUL byte never appears in text a person or an agent wrote: the file is binary.
  if (content.includes('\u0000')) return { failure: { reason: 'binary', message: 'file holds NUL bytes: binary content, not text' } };
  const text = (content.startsWith('\uFEFF') ? content.slice(1) : content).replace(/\r\n?/g, '\n');
  return { text };
}
