import { MemsvcError } from '../errors/memsvc-error.js';

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;
const DAY_MS = 24 * HOUR_MS;

/**
 * An instant to the minute in UTC, as ISO 8601 writes it (`2026-11-27T14:05Z`): what an agent is
 * shown of when a memory was said. Seconds would cost tokens and tell a model nothing more.
 */
export function formatInstant(instant: Date): string {
  if (Number.isNaN(instant.getTime())) throw new MemsvcError('INVALID_INPUT', 'formatInstant needs a valid date');
  return `${instant.toISOString().slice(0, 16)}Z`;
}

/**
 * How long before `now` (the server clock's) an instant was, in the largest whole unit that fits:
 * "just now", "5 minutes ago", "1 hour ago", "3 days ago", "2 weeks ago", "4 months ago",
 * "2 years ago". Days up to two weeks, weeks up to two months (a model reads "45 days" less
 * readily than "6 weeks"), months of 30 days, years of 365. An instant after `now` (a writer whose
 * clock ran ahead, an imported date) reads "in 3 days" rather than a negative age.
 */
export function describeAge(then: Date, now: Date): string {
  const elapsed = now.getTime() - then.getTime();
  if (Number.isNaN(elapsed)) throw new MemsvcError('INVALID_INPUT', 'describeAge needs valid dates');
  const span = Math.abs(elapsed);
  if (span < MINUTE_MS) return 'just now';
  const amount = wholeUnits(span);
  const phrase = `${amount.count} ${amount.unit}${amount.count === 1 ? '' : 's'}`;
  return elapsed >= 0 ? `${phrase} ago` : `in ${phrase}`;
}

function wholeUnits(span: number): { count: number; unit: string } {
  if (span < HOUR_MS) return { count: Math.floor(span / MINUTE_MS), unit: 'minute' };
  if (span < DAY_MS) return { count: Math.floor(span / HOUR_MS), unit: 'hour' };
  const days = Math.floor(span / DAY_MS);
  if (days < 14) return { count: days, unit: 'day' };
  if (days < 60) return { count: Math.floor(days / 7), unit: 'week' };
  if (days < 365) return { count: Math.floor(days / 30), unit: 'month' };
  return { count: Math.floor(days / 365), unit: 'year' };
}
