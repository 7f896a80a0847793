import type { JsonObject } from '@memsvc/core';
import type { AgentFileSource } from './agent-file-source.js';

/** What a source says about one file from its path and frontmatter. */
export interface FileTraits {
  readonly tags: readonly string[];
  readonly metadata: JsonObject;
  /** A title for the file's preamble and whole-file section; the file name when absent. */
  readonly title?: string;
  /** One fact per file: never split at headings (Claude Code's auto-memory notes). */
  readonly atomic?: boolean;
  /** Why the file is read but gives no sections (an index note); reported as a warning. */
  readonly skip?: string;
}

/** One agent's file layout: which files are its own and how their frontmatter maps to tags. */
export interface SourceAdapter {
  readonly name: AgentFileSource;
  /** Frontmatter keys the agent writes as unquoted globs (see splitFrontmatter). */
  readonly plainKeys?: readonly string[];
  /** Whether the normalized relative path is one of this source's files; `all` is the whole folder. */
  selects(path: string, all: ReadonlySet<string>): boolean;
  /** Tags, metadata and title of a selected file. */
  describe(path: string, frontmatter: JsonObject): FileTraits;
}

/** A frontmatter string, trimmed; undefined when absent, blank or not a string. */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

/** Comma-separated or listed globs, each trimmed. */
export function globList(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return list
    .filter((glob): glob is string => typeof glob === 'string')
    .map((glob) => glob.trim())
    .filter((glob) => glob !== '');
}
