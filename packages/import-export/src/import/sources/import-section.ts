import type { JsonObject } from '@memsvc/core';
import type { AgentFileSource } from './agent-file-source.js';

/** One file the caller has read: a path relative to the imported folder, and its decoded text. */
export interface SourceFileInput {
  readonly path: string;
  readonly content: string;
}

/** Where a section came from; `section` is a stable anchor, the ledger's key within the file. */
export interface ImportProvenance {
  readonly source: AgentFileSource;
  readonly file: string;
  /** `preamble`, `document`, or the slugged heading trail (`setup/testing`, `-2` on a repeat, `-part-N` past the limit). */
  readonly section: string;
  /** 1-based line of the section's first line in the original file (frontmatter counted). */
  readonly line: number;
}

/** One memory-to-be: a section of an agent's memory file, bounded to the memory content limit. */
export interface ImportSection {
  readonly sourceFile: string;
  /** The heading trail, outermost first; empty for a preamble or a whole file. */
  readonly sectionPath: readonly string[];
  readonly title: string;
  readonly content: string;
  readonly tags: readonly string[];
  readonly scope?: string;
  /** What the file's frontmatter said (Cursor's globs, Copilot's applyTo, a note's own fields). */
  readonly metadata: JsonObject;
  readonly provenance: ImportProvenance;
  /** Set by the `flag` secrets policy: the names of the patterns found, never the values. */
  readonly secretsFound?: readonly string[];
}

/** Why a file gave nothing: the whole file is refused, so none of its sections is written. */
export interface ImportFileFailure {
  readonly reason: 'path' | 'binary' | 'too-large' | 'frontmatter' | 'not-selected';
  readonly message: string;
}

/** The outcome for one file: its sections, or a failure and no sections; warnings either way. */
export interface ParsedFile {
  readonly file: string;
  readonly sections: readonly ImportSection[];
  readonly warnings: readonly string[];
  readonly failure?: ImportFileFailure;
}

/** Options shared by every source. */
export interface ParseOptions {
  /** Split at `#` and `##` headings (default true); false keeps one section per file. */
  readonly splitHeadings?: boolean;
  /** Longest section content; defaults to MEMORY_LIMITS.contentMaxChars. */
  readonly maxSectionChars?: number;
  /**
   * Every path of the imported folder, when the caller read only the selected files: a source
   * may select a file by its neighbours (Claude Code's notes by their `MEMORY.md` index).
   * Defaults to the files given.
   */
  readonly folderPaths?: readonly string[];
}
