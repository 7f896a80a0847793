/** A moment as people read it, in UTC so every viewer sees the same text: `2026-05-01 09:30`. */
export function shortTime(date: Date | null): string {
  return date ? date.toISOString().slice(0, 16).replace('T', ' ') : '—';
}

/** The first `length` characters of a text, on one line, with an ellipsis when cut. */
export function preview(text: string, length = 180): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
}

/** A score or similarity with three decimals. */
export function score(value: number): string {
  return value.toFixed(3);
}
