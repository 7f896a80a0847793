import { describe, expect, it } from 'vitest';
import { createProgressReporter } from '../src/reindex/progress-reporter.js';

function fakeStream(isTTY: boolean) {
  const writes: string[] = [];
  return { writes, stream: { isTTY, write: (text: string) => writes.push(text) } };
}

/** A clock that advances one second per reading after the start. */
function steppingClock(): () => number {
  let ms = -1000;
  return () => {
    ms += 1000;
    return ms;
  };
}

describe('reindex progress reporter', () => {
  it('redraws one bar in place on a terminal, towards --max when given, and ends its line', () => {
    const { writes, stream } = fakeStream(true);
    const reporter = createProgressReporter({ stream, total: 20, now: steppingClock() });
    reporter.batch({ processed: 5, indexed: 4, skipped: 1, failed: 0, cursor: 'a' });
    reporter.batch({ processed: 10, indexed: 8, skipped: 1, failed: 1, cursor: 'b' });
    reporter.finish();
    expect(writes).toEqual([
      `\r\x1b[2Kreindex [######------------------]  25% 5/20 · 5.0/s · indexed 4, skipped 1, failed 0`,
      `\r\x1b[2Kreindex [############------------]  50% 10/20 · 5.0/s · indexed 8, skipped 1, failed 1`,
      '\n',
    ]);
  });

  it('shows counts without a bar when the total is unknown', () => {
    const { writes, stream } = fakeStream(true);
    createProgressReporter({ stream, now: steppingClock() }).batch({ processed: 3, indexed: 3, skipped: 0, failed: 0, cursor: null });
    expect(writes).toEqual([`\r\x1b[2Kreindex 3 · 3.0/s · indexed 3, skipped 0, failed 0`]);
  });

  it('writes one plain line per batch when stderr is not a terminal', () => {
    const { writes, stream } = fakeStream(false);
    const reporter = createProgressReporter({ stream, total: 20, now: steppingClock() });
    reporter.batch({ processed: 7, indexed: 7, skipped: 0, failed: 0, cursor: 'a' });
    reporter.batch({ processed: 10, indexed: 9, skipped: 1, failed: 0, cursor: 'b' });
    reporter.finish();
    expect(writes).toEqual([
      'reindex: processed 7 (7.0/s), indexed 7, skipped 0, failed 0\n',
      'reindex: processed 10 (5.0/s), indexed 9, skipped 1, failed 0\n',
    ]);
  });
});
