import type { JsonObject, JsonValue } from '@memsvc/core';
import { parseDocument } from 'yaml';

/** A file split into its YAML frontmatter and its markdown body. */
export interface FrontmatterResult {
  readonly data: JsonObject;
  readonly body: string;
  /** 1-based line of the body's first line in the file. */
  readonly bodyLine: number;
}

/** Frontmatter that is not a YAML mapping: the whole file is refused. */
export interface FrontmatterError {
  readonly error: string;
}

/** Options for keys that tools write as unquoted globs. */
export interface FrontmatterOptions {
  /**
   * Keys whose unquoted value is taken as a plain string. Cursor writes `globs: *.ts` and Copilot
   * users write `applyTo: **\/*.ts`; in YAML a leading `*` is an alias, so a strict parse would
   * refuse files those tools themselves accept.
   */
  readonly plainKeys?: readonly string[];
}

const OPEN = /^---[ \t]*$/;
const CLOSE = /^(?:---|\.\.\.)[ \t]*$/;

/**
 * Splits off a frontmatter block (`---` on the first line, closed by `---` or `...`). A file
 * without one has empty data. Broken YAML, a block that never closes, or a block that is not a
 * mapping is an error naming the line, never a crash.
 */
export function splitFrontmatter(text: string, options: FrontmatterOptions = {}): FrontmatterResult | FrontmatterError {
  const lines = text.split('\n');
  if (!OPEN.test(lines[0] ?? '')) return { data: {}, body: text, bodyLine: 1 };
  const close = lines.findIndex((line, index) => index > 0 && CLOSE.test(line));
  if (close === -1) return { error: 'frontmatter opened on line 1 is never closed by a `---` line' };
  const yamlLines = lines.slice(1, close).map((line) => quotePlainKey(line, options.plainKeys ?? []));
  const document = parseDocument(yamlLines.join('\n'), { prettyErrors: false, uniqueKeys: true });
  const problem = document.errors[0];
  if (problem) {
    // The YAML line is one past the opening `---` in the file.
    const line = (problem.linePos?.[0]?.line ?? 0) + 1;
    return { error: `frontmatter is not valid YAML (line ${line}): ${firstLine(problem.message)}` };
  }
  const value: unknown = document.toJS({ maxAliasCount: 50 });
  const data = value === null || value === undefined ? {} : value;
  if (typeof data !== 'object' || Array.isArray(data)) return { error: 'frontmatter must be a YAML mapping of keys to values' };
  return { data: toJson(data) as JsonObject, body: lines.slice(close + 1).join('\n'), bodyLine: close + 2 };
}

/** True when splitFrontmatter refused the file. */
export function isFrontmatterError(result: FrontmatterResult | FrontmatterError): result is FrontmatterError {
  return 'error' in result;
}

function quotePlainKey(line: string, keys: readonly string[]): string {
  const match = /^([A-Za-z_][\w-]*):[ \t]+(\S.*?)[ \t]*$/.exec(line);
  if (!match || !keys.includes(match[1] ?? '')) return line;
  const value = match[2] ?? '';
  if (/^["'[{|>]/.test(value)) return line;
  return `${match[1]}: ${JSON.stringify(value)}`;
}

function firstLine(message: string): string {
  return message.split('\n')[0] ?? message;
}

/** YAML gives numbers JSON cannot hold (`.inf`, `.nan`) and Dates with a custom schema: keep them as text. */
function toJson(value: unknown): JsonValue {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return value;
  if (typeof value === 'number') return Number.isFinite(value) ? value : String(value);
  if (Array.isArray(value)) return value.map(toJson);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, entry]) => [key, toJson(entry)]));
  }
  return String(value);
}
