import { MemsvcError } from '../errors/memsvc-error.js';

/**
 * Relative time in a conversation turn ("yesterday", "3 weeks ago", "last summer") means nothing
 * to full-text search once the turn is stored. These helpers write the absolute date each
 * expression points to, so a later "when did X happen?" can find it by day, month or year.
 *
 * All arithmetic is on UTC calendar days: the anchor is the turn's date, not an instant.
 * The text is split into words once and matched against a table of word patterns, so the work is
 * linear in the text's length and no regular expression can backtrack.
 *
 * Choices: weeks start on Monday; "N months/years ago" resolve to a month/year, not a false exact
 * day; "this/on <weekday>" are skipped, since they point to the past as often as the future and a
 * wrong date is worse than none; seasons are northern-hemisphere meteorological (spring Mar–May,
 * summer Jun–Aug, autumn Sep–Nov, winter Dec–Feb, written across its two years).
 */

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];
const NUMBER_WORDS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];
// Maps, not object literals: a word like "constructor" must not find Object.prototype's.
/** First month (0-based) of each season. */
const SEASONS: ReadonlyMap<string, number> = new Map([
  ['spring', 2],
  ['summer', 5],
  ['autumn', 8],
  ['fall', 8],
  ['winter', 11],
]);
const DAY_MS = 86_400_000;

type Unit = 'day' | 'week' | 'month' | 'year';
const UNITS: ReadonlyMap<string, Unit> = new Map(
  (['day', 'week', 'month', 'year'] as const).flatMap((unit) => [[unit, unit] as const, [`${unit}s`, unit] as const]),
);

/** The values a pattern's slots captured. */
interface Captured {
  n: number;
  unit: Unit;
  weekday: number;
  season: string;
}

/** A pattern word: a literal, or a slot — `#` a quantity, `@unit`, `@weekday`, `@season`. */
type Slot = string;
type Resolve = (day: Date, c: Captured) => string;

/** Each row: the words of an expression and what it resolves to. First match at a word wins. */
const EXPRESSIONS: ReadonlyArray<readonly [readonly Slot[], Resolve]> = [
  [['the', 'day', 'before', 'yesterday'], (d) => formatSearchDate(addDays(d, -2))],
  [['day', 'before', 'yesterday'], (d) => formatSearchDate(addDays(d, -2))],
  [['the', 'day', 'after', 'tomorrow'], (d) => formatSearchDate(addDays(d, 2))],
  [['day', 'after', 'tomorrow'], (d) => formatSearchDate(addDays(d, 2))],
  [['today'], (d) => formatSearchDate(d)],
  [['tonight'], (d) => formatSearchDate(d)],
  [['this', 'morning'], (d) => formatSearchDate(d)],
  [['this', 'afternoon'], (d) => formatSearchDate(d)],
  [['this', 'evening'], (d) => formatSearchDate(d)],
  [['yesterday'], (d) => formatSearchDate(addDays(d, -1))],
  [['last', 'night'], (d) => formatSearchDate(addDays(d, -1))],
  [['tomorrow'], (d) => formatSearchDate(addDays(d, 1))],
  [['#', '@unit', 'ago'], (d, c) => shift(d, c.unit, -c.n)],
  [['in', '#', '@unit'], (d, c) => shift(d, c.unit, c.n)],
  [['last', 'week'], (d) => weekOf(addDays(d, -7))],
  [['this', 'week'], (d) => weekOf(d)],
  [['next', 'week'], (d) => weekOf(addDays(d, 7))],
  [['last', 'weekend'], (d) => formatSearchDate(addDays(monday(d), -2))],
  [['this', 'weekend'], (d) => formatSearchDate(addDays(monday(d), 5))],
  [['next', 'weekend'], (d) => formatSearchDate(addDays(monday(d), 12))],
  [['last', 'month'], (d) => shift(d, 'month', -1)],
  [['this', 'month'], (d) => shift(d, 'month', 0)],
  [['next', 'month'], (d) => shift(d, 'month', 1)],
  [['last', 'year'], (d) => shift(d, 'year', -1)],
  [['this', 'year'], (d) => shift(d, 'year', 0)],
  [['next', 'year'], (d) => shift(d, 'year', 1)],
  [['last', '@weekday'], (d, c) => formatSearchDate(addDays(d, -((d.getUTCDay() - c.weekday + 7) % 7 || 7)))],
  [['next', '@weekday'], (d, c) => formatSearchDate(addDays(d, (c.weekday - d.getUTCDay() + 7) % 7 || 7))],
  [['last', '@season'], (d, c) => lastSeason(d, c.season)],
];

/** A day written the ways people ask for it: "8 May 2023 May 2023 2023-05-08". */
export function formatSearchDate(date: Date): string {
  if (Number.isNaN(date.getTime())) throw new MemsvcError('INVALID_INPUT', 'formatSearchDate needs a valid date');
  const year = date.getUTCFullYear();
  const month = date.getUTCMonth();
  const day = date.getUTCDate();
  const iso = `${String(year).padStart(4, '0')}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  return `${day} ${MONTHS[month]} ${year} ${MONTHS[month]} ${year} ${iso}`;
}

/**
 * The absolute date of each relative time expression in `text`, counted from `anchor` (the turn's
 * UTC calendar day): a day as formatSearchDate writes it, a week as "the week of 1 May 2023",
 * a month as "April 2023", a year as "2022", a season as "summer 2022". De-duplicated, in order of
 * appearance; an invalid anchor resolves nothing.
 */
export function resolveRelativeDates(text: string, anchor: Date): string[] {
  if (Number.isNaN(anchor.getTime())) return [];
  const day = new Date(anchor.getTime() - (((anchor.getTime() % DAY_MS) + DAY_MS) % DAY_MS));
  const words = text.toLowerCase().match(/[a-z0-9]+/g) ?? [];
  const found = new Set<string>();
  let at = 0;
  while (at < words.length) {
    const match = matchAt(words, at);
    if (match === undefined) {
      at++;
      continue;
    }
    found.add(match.resolve(day, match.captured));
    at = match.end;
  }
  return [...found];
}

function matchAt(words: readonly string[], start: number): { end: number; resolve: Resolve; captured: Captured } | undefined {
  for (const [pattern, resolve] of EXPRESSIONS) {
    const captured: Captured = { n: 0, unit: 'day', weekday: 0, season: '' };
    let at: number | undefined = start;
    for (const slot of pattern) {
      at = matchSlot(words, at, slot, captured);
      if (at === undefined) break;
    }
    if (at !== undefined) return { end: at, resolve, captured };
  }
  return undefined;
}

/** Matches one pattern word at `at`, filling `captured`; the index after it, or undefined. */
function matchSlot(words: readonly string[], at: number, slot: Slot, captured: Captured): number | undefined {
  const word = words[at] ?? '';
  if (slot === '#') {
    const quantity = readQuantity(words, at);
    if (quantity !== undefined) captured.n = quantity[0];
    return quantity?.[1];
  }
  const unit = UNITS.get(word);
  if (slot === '@unit' && unit !== undefined) captured.unit = unit;
  else if (slot === '@weekday' && WEEKDAYS.includes(word)) captured.weekday = WEEKDAYS.indexOf(word);
  else if (slot === '@season' && SEASONS.has(word)) captured.season = word;
  else if (slot !== word) return undefined;
  return at + 1;
}

/** A quantity at `at` and the index after it: 1–9999 in digits, one–twelve, a/an, (a) couple (of), (a) few. */
function readQuantity(words: readonly string[], at: number): readonly [number, number] | undefined {
  const first = words[at] ?? '';
  const head = first === 'a' ? at + 1 : at;
  if (words[head] === 'couple') return [2, words[head + 1] === 'of' ? head + 2 : head + 1];
  if (words[head] === 'few') return [3, head + 1];
  if (first === 'a' || first === 'an') return [1, at + 1];
  const word = NUMBER_WORDS.indexOf(first);
  if (word >= 0) return [word + 1, at + 1];
  if (/^\d{1,4}$/.test(first) && Number(first) > 0) return [Number(first), at + 1];
  return undefined;
}

function addDays(day: Date, days: number): Date {
  return new Date(day.getTime() + days * DAY_MS);
}

function monday(day: Date): Date {
  return addDays(day, -((day.getUTCDay() + 6) % 7));
}

function weekOf(day: Date): string {
  const start = monday(day);
  return `the week of ${start.getUTCDate()} ${MONTHS[start.getUTCMonth()]} ${start.getUTCFullYear()}`;
}

/** Moves by whole units and writes the result at that unit's precision (weeks as days). */
function shift(day: Date, unit: Unit, n: number): string {
  if (unit === 'day' || unit === 'week') return formatSearchDate(addDays(day, unit === 'week' ? 7 * n : n));
  if (unit === 'year') return String(day.getUTCFullYear() + n);
  // Counted in absolute months, so no Date is built (Date.UTC reads years 0–99 as 1900–1999).
  const months = day.getUTCFullYear() * 12 + day.getUTCMonth() + n;
  const year = Math.floor(months / 12);
  return `${MONTHS[months - year * 12]} ${year}`;
}

/** The latest season of that name that ended before the anchor's own season began. */
function lastSeason(day: Date, name: string): string {
  const first = SEASONS.get(name) ?? 0;
  const month = day.getUTCFullYear() * 12 + day.getUTCMonth();
  const currentStart = month - (((day.getUTCMonth() + 10) % 12) % 3);
  const start = currentStart - ((((currentStart - first) % 12) + 12) % 12 || 12);
  const year = Math.floor(start / 12);
  return first === 11 ? `${name} ${year}–${year + 1}` : `${name} ${year}`;
}
