import { describe, expect, it } from 'vitest';
import { formatSearchDate, resolveRelativeDates } from '../src/domain/temporal-context.js';
import { MemsvcError } from '../src/errors/memsvc-error.js';
import { verifies } from './requirements.js';

const day = (iso: string) => new Date(`${iso}T00:00:00Z`);
/** What formatSearchDate writes for `iso`, spelled out so the tests do not trust the code under test. */
const on = (iso: string) => {
  const [year, month, date] = iso.split('-').map(Number) as [number, number, number];
  const name = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'][
    month - 1
  ];
  return `${date} ${name} ${year} ${name} ${year} ${iso}`;
};

const MONDAY = day('2023-05-08');
const NEW_YEAR = day('2024-01-01'); // also a Monday
const SUNDAY = day('2023-05-14');
const AUTUMN = day('2023-10-15');

/** [text, anchor, expected]: one test each. */
const CASES: ReadonlyArray<readonly [string, Date, readonly string[]]> = [
  ['today', MONDAY, [on('2023-05-08')]],
  ['tonight', MONDAY, [on('2023-05-08')]],
  ['this morning', MONDAY, [on('2023-05-08')]],
  ['this afternoon', MONDAY, [on('2023-05-08')]],
  ['this evening', MONDAY, [on('2023-05-08')]],
  ['yesterday', MONDAY, [on('2023-05-07')]],
  ['last night', MONDAY, [on('2023-05-07')]],
  ['the day before yesterday', MONDAY, [on('2023-05-06')]],
  ['day before yesterday', MONDAY, [on('2023-05-06')]],
  ['tomorrow', MONDAY, [on('2023-05-09')]],
  ['the day after tomorrow', MONDAY, [on('2023-05-10')]],
  ['3 days ago', MONDAY, [on('2023-05-05')]],
  ['three days ago', MONDAY, [on('2023-05-05')]],
  ['twelve days ago', MONDAY, [on('2023-04-26')]],
  ['a day ago', MONDAY, [on('2023-05-07')]],
  ['a week ago', MONDAY, [on('2023-05-01')]],
  ['one week ago', MONDAY, [on('2023-05-01')]],
  ['3 weeks ago', MONDAY, [on('2023-04-17')]],
  ['two weeks ago', MONDAY, [on('2023-04-24')]],
  ['a couple of days ago', MONDAY, [on('2023-05-06')]],
  ['a couple weeks ago', MONDAY, [on('2023-04-24')]],
  ['a few days ago', MONDAY, [on('2023-05-05')]],
  ['a few weeks ago', MONDAY, [on('2023-04-17')]],
  ['a month ago', MONDAY, ['April 2023']],
  ['5 months ago', MONDAY, ['December 2022']],
  ['a few months ago', MONDAY, ['February 2023']],
  ['twelve months ago', MONDAY, ['May 2022']],
  ['a year ago', MONDAY, ['2022']],
  ['two years ago', MONDAY, ['2021']],
  ['a couple of years ago', MONDAY, ['2021']],
  ['in 3 days', MONDAY, [on('2023-05-11')]],
  ['in a week', MONDAY, [on('2023-05-15')]],
  ['in two weeks', MONDAY, [on('2023-05-22')]],
  ['last week', MONDAY, ['the week of 1 May 2023']],
  ['this week', MONDAY, ['the week of 8 May 2023']],
  ['next week', MONDAY, ['the week of 15 May 2023']],
  ['this week', SUNDAY, ['the week of 8 May 2023']],
  ['last weekend', MONDAY, [on('2023-05-06')]],
  ['this weekend', MONDAY, [on('2023-05-13')]],
  ['next weekend', MONDAY, [on('2023-05-20')]],
  ['this weekend', SUNDAY, [on('2023-05-13')]],
  ['last month', MONDAY, ['April 2023']],
  ['this month', MONDAY, ['May 2023']],
  ['next month', MONDAY, ['June 2023']],
  ['last year', MONDAY, ['2022']],
  ['this year', MONDAY, ['2023']],
  ['next year', MONDAY, ['2024']],
  ['last monday', MONDAY, [on('2023-05-01')]],
  ['last friday', MONDAY, [on('2023-05-05')]],
  ['last sunday', MONDAY, [on('2023-05-07')]],
  ['next monday', MONDAY, [on('2023-05-15')]],
  ['next tuesday', MONDAY, [on('2023-05-09')]],
  ['next friday', MONDAY, [on('2023-05-12')]],
  ['last sunday', SUNDAY, [on('2023-05-07')]],
  ['next sunday', SUNDAY, [on('2023-05-21')]],
  ['last summer', MONDAY, ['summer 2022']],
  ['last spring', MONDAY, ['spring 2022']],
  ['last fall', MONDAY, ['fall 2022']],
  ['last autumn', MONDAY, ['autumn 2022']],
  ['last winter', MONDAY, ['winter 2022–2023']],
  ['last summer', AUTUMN, ['summer 2023']],
  ['last autumn', AUTUMN, ['autumn 2022']],
  // Month and year boundaries.
  ['yesterday', NEW_YEAR, [on('2023-12-31')]],
  ['last month', NEW_YEAR, ['December 2023']],
  ['a month ago', NEW_YEAR, ['December 2023']],
  ['last year', NEW_YEAR, ['2023']],
  ['last week', NEW_YEAR, ['the week of 25 December 2023']],
  ['last weekend', NEW_YEAR, [on('2023-12-30')]],
  ['last winter', NEW_YEAR, ['winter 2022–2023']],
  ['last summer', NEW_YEAR, ['summer 2023']],
  // Leap years.
  ['yesterday', day('2024-03-01'), [on('2024-02-29')]],
  ['yesterday', day('2023-03-01'), [on('2023-02-28')]],
  ['tomorrow', day('2024-02-28'), [on('2024-02-29')]],
  ['tomorrow', day('2024-02-29'), [on('2024-03-01')]],
  ['365 days ago', day('2024-02-29'), [on('2023-03-01')]],
  ['a week ago', day('2024-03-04'), [on('2024-02-26')]],
  ['in a week', day('2024-02-25'), [on('2024-03-03')]],
  // Mixed case, punctuation around words, a time of day on the anchor.
  ['YESTERDAY', MONDAY, [on('2023-05-07')]],
  ['Last Friday', MONDAY, [on('2023-05-05')]],
  ['Three Weeks AGO', MONDAY, [on('2023-04-17')]],
  ["(yesterday's meeting)", MONDAY, [on('2023-05-07')]],
  ['yesterday', new Date('2023-05-08T23:59:59.999Z'), [on('2023-05-07')]],
];

describe('temporal context: formatSearchDate', () => {
  it(verifies('R-TEMPORAL-FORMAT', 'writes a day as "d Month yyyy", "Month yyyy" and ISO'), () => {
    expect(formatSearchDate(day('2023-05-08'))).toBe('8 May 2023 May 2023 2023-05-08');
    expect(formatSearchDate(day('2024-02-29'))).toBe('29 February 2024 February 2024 2024-02-29');
    expect(formatSearchDate(day('2023-12-31'))).toBe('31 December 2023 December 2023 2023-12-31');
  });

  it(verifies('R-TEMPORAL-FORMAT', 'reads the UTC calendar day, whatever the time of day'), () => {
    expect(formatSearchDate(new Date('2023-12-31T23:30:00Z'))).toBe('31 December 2023 December 2023 2023-12-31');
    expect(formatSearchDate(new Date('2024-01-01T00:00:00Z'))).toBe('1 January 2024 January 2024 2024-01-01');
  });

  it(verifies('R-TEMPORAL-FORMAT', 'refuses an invalid date with INVALID_INPUT'), () => {
    expect(() => formatSearchDate(new Date(Number.NaN))).toThrow(MemsvcError);
    expect(() => formatSearchDate(new Date('not a date'))).toThrow(expect.objectContaining({ code: 'INVALID_INPUT' }));
  });
});

describe('temporal context: resolveRelativeDates', () => {
  for (const [text, anchor, expected] of CASES) {
    it(verifies('R-TEMPORAL-RESOLVE', `"${text}" on ${anchor.toISOString().slice(0, 10)}`), () => {
      expect(resolveRelativeDates(text, anchor)).toEqual(expected);
    });
  }

  it(verifies('R-TEMPORAL-RESOLVE', 'several expressions: in order of appearance, each date once'), () => {
    const text = 'Tomorrow I fly out. Yesterday I packed, the day before yesterday I booked. Yesterday was long; last night too, today.';
    expect(resolveRelativeDates(text, MONDAY)).toEqual([on('2023-05-09'), on('2023-05-07'), on('2023-05-06'), on('2023-05-08')]);
    expect(resolveRelativeDates('last month we moved; a month ago, 2 weeks ago and last year', MONDAY)).toEqual([
      'April 2023',
      on('2023-04-24'),
      '2022',
    ]);
  });

  it(verifies('R-TEMPORAL-RESOLVE', 'a text with no relative time resolves nothing'), () => {
    expect(resolveRelativeDates('', MONDAY)).toEqual([]);
    expect(resolveRelativeDates('Dana prefers Helix and deploys on a Friday in May 2023.', MONDAY)).toEqual([]);
  });

  it(verifies('R-TEMPORAL-RESOLVE', 'whole words only: no match inside a longer word'), () => {
    expect(resolveRelativeDates('yesterdays todayish tonights lastweek tomorrowland', MONDAY)).toEqual([]);
    expect(resolveRelativeDates('3 daysago, in 2 weekss', MONDAY)).toEqual([]);
  });

  it(verifies('R-TEMPORAL-RESOLVE', 'skips "this/on <weekday>", hours, zero and numbers past 9999'), () => {
    expect(resolveRelativeDates('this Friday, on Monday, an hour ago, 0 days ago, 12345 days ago, thirteen days ago', MONDAY)).toEqual([]);
    expect(resolveRelativeDates('9999 days ago', MONDAY)).toEqual([on('1995-12-22')]);
  });

  it(verifies('R-TEMPORAL-RESOLVE', 'an invalid anchor resolves nothing'), () => {
    expect(resolveRelativeDates('yesterday', new Date(Number.NaN))).toEqual([]);
  });
});

describe('temporal context: untrusted text', () => {
  const LIMIT = 10_240;
  const fill = (unit: string, tail = '') => unit.repeat(Math.ceil(LIMIT / unit.length)).slice(0, LIMIT - tail.length) + tail;

  it(verifies('R-TEMPORAL-SAFE', 'words that look like properties of Object.prototype are only words'), () => {
    expect(resolveRelativeDates('last constructor, 3 constructor ago, in 2 constructor, next constructor', MONDAY)).toEqual([]);
  });

  it(verifies('R-TEMPORAL-SAFE', `adversarial texts of ${LIMIT} characters resolve in linear time`), () => {
    const texts = [
      fill('the day before '),
      fill('a couple of a few '),
      fill('in a couple of '),
      fill('last next this '),
      fill('a'),
      fill('9'),
      fill(' '),
      fill('-.-'),
    ];
    for (const text of texts) {
      expect(text).toHaveLength(LIMIT);
      expect(resolveRelativeDates(text, MONDAY)).toEqual([]);
    }
    const tail = ' 3 days ago';
    expect(resolveRelativeDates(fill('the day before ', tail), MONDAY)).toEqual([on('2023-05-05')]);
    expect(resolveRelativeDates(fill('yesterday ', ''), MONDAY)).toEqual([on('2023-05-07')]);
  });
});
