import { describe, expect, it } from 'vitest';
import { describeAge, formatInstant } from '../src/domain/memory-age.js';
import { isMemsvcError } from '../src/index.js';
import { verifies } from './requirements.js';

const NOW = new Date('2026-11-27T14:05:30Z');
const before = (ms: number) => new Date(NOW.getTime() - ms);
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('when a memory was said', () => {
  it(verifies('R-TIME-SAID', 'writes an instant to the minute in UTC with its zone, whatever zone it was made in'), () => {
    expect(formatInstant(new Date('2026-11-27T14:05:59.999Z'))).toBe('2026-11-27T14:05Z');
    expect(formatInstant(new Date('2026-11-27T23:30:00+09:00'))).toBe('2026-11-27T14:30Z');
    expect(formatInstant(new Date('0999-01-02T03:04:00Z'))).toBe('0999-01-02T03:04Z');
    const invalid = (() => {
      try {
        formatInstant(new Date('not a date'));
      } catch (error) {
        return error;
      }
    })();
    expect(isMemsvcError(invalid, 'INVALID_INPUT')).toBe(true);
  });

  it(verifies('R-TIME-AGO', 'says how long ago in the largest whole unit, counted from the clock it is given'), () => {
    const cases: [number, string][] = [
      [0, 'just now'],
      [59_999, 'just now'],
      [MINUTE, '1 minute ago'],
      [59 * MINUTE, '59 minutes ago'],
      [HOUR, '1 hour ago'],
      [23 * HOUR + 59 * MINUTE, '23 hours ago'],
      [DAY, '1 day ago'],
      [3 * DAY + 5 * HOUR, '3 days ago'],
      [13 * DAY, '13 days ago'],
      [14 * DAY, '2 weeks ago'],
      [59 * DAY, '8 weeks ago'],
      [60 * DAY, '2 months ago'],
      [364 * DAY, '12 months ago'],
      [365 * DAY, '1 year ago'],
      [3 * 365 * DAY + 100 * DAY, '3 years ago'],
    ];
    for (const [elapsed, expected] of cases) expect(describeAge(before(elapsed), NOW), `${elapsed} ms`).toBe(expected);
  });

  it(verifies('R-TIME-AGO', 'reads an instant after now as "in …", never as a negative age'), () => {
    expect(describeAge(new Date(NOW.getTime() + 30_000), NOW)).toBe('just now');
    expect(describeAge(new Date(NOW.getTime() + 2 * HOUR), NOW)).toBe('in 2 hours');
    expect(describeAge(new Date(NOW.getTime() + 3 * DAY), NOW)).toBe('in 3 days');
    expect(() => describeAge(new Date(Number.NaN), NOW)).toThrow(/valid dates/);
  });
});
