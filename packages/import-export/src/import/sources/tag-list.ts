import { MEMORY_LIMITS } from '@memsvc/core';
import { directoryOf } from './relative-path.js';

/**
 * A file's tags, made to pass the memory tag rules (checkTags) so that one odd glob or
 * frontmatter tag cannot make the whole file fail at write time: repeats and blanks go, a tag
 * past 100 characters or past the 50th is left out with a warning.
 */
export function tagList(candidates: readonly string[], warnings: string[]): string[] {
  const tags = [...new Set(candidates.map((tag) => tag.trim()).filter((tag) => tag !== ''))];
  const fitting = tags.filter((tag) => tag.length <= MEMORY_LIMITS.tagMaxChars);
  if (fitting.length < tags.length)
    warnings.push(`${tags.length - fitting.length} tag(s) longer than ${MEMORY_LIMITS.tagMaxChars} characters left out`);
  if (fitting.length > MEMORY_LIMITS.tagsMax)
    warnings.push(`${fitting.length - MEMORY_LIMITS.tagsMax} tag(s) past the ${MEMORY_LIMITS.tagsMax}th left out`);
  return fitting.slice(0, MEMORY_LIMITS.tagsMax);
}

/** `path:<dir>` for a file below the imported folder's root, nothing at the root. */
export function pathTags(directory: string): string[] {
  return directory === '' ? [] : [`path:${directory}`];
}

/** The folder a nested instruction file applies to: its own folder, or the one holding `marker` (`.claude`, `.cursor`). */
export function appliesToDirectory(path: string, marker?: string): string {
  const segments = directoryOf(path)
    .split('/')
    .filter((segment) => segment !== '');
  const at = marker === undefined ? -1 : segments.indexOf(marker);
  return (at === -1 ? segments : segments.slice(0, at)).join('/');
}

/** Frontmatter tags: a YAML list or a comma-separated string; Obsidian's leading `#` dropped. */
export function frontmatterTags(value: unknown): string[] {
  const list = Array.isArray(value) ? value : typeof value === 'string' ? value.split(',') : [];
  return list.filter((tag): tag is string => typeof tag === 'string').map((tag) => tag.trim().replace(/^#/, ''));
}
