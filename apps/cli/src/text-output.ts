import type { CliContext } from './cli-context.js';

// C0 and C1 control characters, ESC among them.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * Text from files or memories (a file name, a section heading) as the terminal may show it: a
 * control character is written as its `\xNN` escape, so no escape sequence in the data can move
 * the cursor, retitle the window or hide what follows.
 */
export function terminalText(text: string): string {
  return text.replace(CONTROL_CHARACTERS, (character) => `\\x${character.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** An instant as operators read it in a list: ISO 8601 to the second, UTC; `-` for none. */
export function formatInstant(instant: Date | null | undefined): string {
  return instant ? `${instant.toISOString().slice(0, 19)}Z` : '-';
}

/** Rows under a header, each column as wide as its widest cell, two spaces apart. */
export function formatTable(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const widths = header.map((title, column) => Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  return [line(header), ...rows.map(line)].join('\n');
}

/** Writes one JSON value as the last line of stdout, on one line, for scripts. */
export function writeJsonLine(cli: CliContext, value: unknown): void {
  cli.stdout.write(`${JSON.stringify(value)}\n`);
}
