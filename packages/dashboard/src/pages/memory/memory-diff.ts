import { type ChangeObject, diffLines, diffWordsWithSpace } from 'diff';

/** A piece of a diff as the page shows it: kept, added, removed, or left out (with how much). */
export interface DiffPart {
  readonly kind: 'same' | 'added' | 'removed' | 'elided';
  readonly text: string;
}

/** Unchanged characters shown on each side of a change. */
const CONTEXT_CHARS = 80;
/** Characters of one added or removed run shown. */
const RUN_CHARS = 600;
/** Characters a diff shows in all by default: a page of ten versions of a 10,240-character memory stays small. */
const DIFF_BUDGET_CHARS = 3000;
/** A diff that takes longer than this is shown as "all removed, all added" (jsdiff gives up and returns undefined). */
const DIFF_TIMEOUT_MS = 150;

/**
 * The difference between two texts by words (with the spaces and line breaks between them) or
 * by lines, cut to a bounded size: long unchanged stretches keep only their edges, long changed
 * runs their start. Parts are plain text; the view renders them inside <ins>/<del> as text.
 */
export function textDiff(before: string, after: string, by: 'words' | 'lines', budget = DIFF_BUDGET_CHARS): DiffPart[] {
  if (before === after) return [];
  const options = { timeout: DIFF_TIMEOUT_MS };
  const found: ChangeObject<string>[] = (by === 'words'
    ? diffWordsWithSpace(before, after, options)
    : diffLines(before, after, options)) ?? [
    { value: before, added: false, removed: true, count: 1 },
    { value: after, added: true, removed: false, count: 1 },
  ];
  const changes = by === 'words' ? coalesced(found) : found;
  const parts: DiffPart[] = [];
  let shown = 0;
  const last = changes.length - 1;
  for (const [index, change] of changes.entries()) {
    if (shown >= budget) {
      const rest = changes.slice(index).reduce((sum, left) => sum + left.value.length, 0);
      parts.push(elided(rest, 'more characters of this comparison'));
      break;
    }
    const pieces = change.added || change.removed ? changedRun(change) : unchangedRun(change.value, index === 0, index === last);
    for (const piece of pieces) {
      parts.push(piece);
      if (piece.kind !== 'elided') shown += piece.text.length;
    }
  }
  return parts;
}

/** A text on its own (a first version), cut like an unchanged stretch of a diff: its start, and how much more there is. */
export function textExcerpt(text: string): DiffPart[] {
  const limit = DIFF_BUDGET_CHARS / 2;
  if (text.length <= limit) return [{ kind: 'same', text }];
  const head = cut(text, 0, limit);
  return [{ kind: 'same', text: head }, elided(text.length - head.length, 'more characters')];
}

/** Spaces or a little punctuation between two changes: read as part of the change, not as kept text. */
const GLUE = /^[\s\p{P}]{1,3}$/u;

/**
 * Joins a run of changes interleaved with glue ("~~go~~ ++changed++ ~~through~~ ++by++") into one
 * removed and one added phrase, as a person compares two sentences.
 */
function coalesced(changes: readonly ChangeObject<string>[]): ChangeObject<string>[] {
  const out: ChangeObject<string>[] = [];
  let removed = '';
  let added = '';
  const flush = () => {
    if (removed) out.push({ value: removed, added: false, removed: true, count: 1 });
    if (added) out.push({ value: added, added: true, removed: false, count: 1 });
    removed = '';
    added = '';
  };
  for (const [index, change] of changes.entries()) {
    const next = changes[index + 1];
    if (change.removed) removed += change.value;
    else if (change.added) added += change.value;
    else if ((removed || added) && next && (next.added || next.removed) && GLUE.test(change.value)) {
      removed += change.value;
      added += change.value;
    } else {
      flush();
      out.push(change);
    }
  }
  flush();
  return out;
}

function changedRun(change: ChangeObject<string>): DiffPart[] {
  const kind = change.added ? 'added' : 'removed';
  const text = change.value;
  if (text.length <= RUN_CHARS) return [{ kind, text }];
  const head = cut(text, 0, RUN_CHARS);
  return [{ kind, text: head }, elided(text.length - head.length, `more ${kind} characters`)];
}

function unchangedRun(text: string, first: boolean, last: boolean): DiffPart[] {
  const keep = (first ? 0 : CONTEXT_CHARS) + (last ? 0 : CONTEXT_CHARS);
  if (text.length <= keep + CONTEXT_CHARS) return [{ kind: 'same', text }];
  const head = first ? '' : cut(text, 0, CONTEXT_CHARS);
  const tail = last ? '' : cut(text, text.length - CONTEXT_CHARS, text.length);
  const parts: DiffPart[] = [];
  if (head) parts.push({ kind: 'same', text: head });
  parts.push(elided(text.length - head.length - tail.length, 'unchanged characters'));
  if (tail) parts.push({ kind: 'same', text: tail });
  return parts;
}

function elided(count: number, what: string): DiffPart {
  return { kind: 'elided', text: ` … ${count.toLocaleString('en-US')} ${what} … ` };
}

/** `text.slice(start, end)` that never splits a surrogate pair (an emoji cut in half shows as �). */
function cut(text: string, start: number, end: number): string {
  const isLow = (at: number) => at > 0 && at < text.length && /[\uDC00-\uDFFF]/.test(text.charAt(at));
  const from = isLow(start) ? start + 1 : start;
  const to = isLow(end) ? end - 1 : end;
  return text.slice(from, Math.max(from, to));
}
