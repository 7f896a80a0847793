import type { ReindexSummary } from '@memsvc/core';

/** Where progress goes: stderr, or a test's fake. */
export interface ProgressStream {
  readonly isTTY?: boolean;
  write(text: string): unknown;
}

/** Shows a reindex run's progress as it goes; stdout stays free for the final summary. */
export interface ProgressReporter {
  /** Called after every saved batch with the run's cumulative counts. */
  batch(progress: ReindexSummary): void;
  /** Ends the display (a bar gives its line back) before the summary or an error is printed. */
  finish(): void;
}

export interface ProgressReporterOptions {
  readonly stream: ProgressStream;
  /** `--max`, when given: the bar fills towards it; without it the bar shows counts only. */
  readonly total?: number | undefined;
  /** Milliseconds on a monotonic clock (default `performance.now`). */
  readonly now?: () => number;
}

const BAR_WIDTH = 24;

/**
 * A bar redrawn in place on a terminal; one plain line per batch otherwise (a log file or a CI
 * job would fill with carriage returns and escape codes).
 */
export function createProgressReporter(options: ProgressReporterOptions): ProgressReporter {
  const now = options.now ?? (() => performance.now());
  const startedAt = now();
  const { stream, total } = options;
  const tty = stream.isTTY === true;
  let drawn = false;
  return {
    batch(progress) {
      const rate = ratePerSecond(progress.processed, now() - startedAt);
      const counts = `indexed ${progress.indexed}, skipped ${progress.skipped}, failed ${progress.failed}`;
      if (!tty) {
        stream.write(`reindex: processed ${progress.processed} (${formatRate(rate)}/s), ${counts}\n`);
        return;
      }
      // \r and "erase line" redraw in place, even when the new line is shorter than the old.
      stream.write(
        `\r\x1b[2K${bar(progress.processed, total)} ${progress.processed}${total ? `/${total}` : ''} · ${formatRate(rate)}/s · ${counts}`,
      );
      drawn = true;
    },
    finish() {
      if (drawn) stream.write('\n');
      drawn = false;
    },
  };
}

/** Memories per second; zero before any time has passed. */
export function ratePerSecond(processed: number, elapsedMs: number): number {
  return elapsedMs > 0 ? (processed * 1000) / elapsedMs : 0;
}

export function formatRate(rate: number): string {
  return rate >= 100 ? rate.toFixed(0) : rate.toFixed(1);
}

function bar(processed: number, total: number | undefined): string {
  if (!total) return 'reindex';
  const filled = Math.min(BAR_WIDTH, Math.round((processed / total) * BAR_WIDTH));
  const percent = Math.min(100, Math.floor((processed / total) * 100));
  return `reindex [${'#'.repeat(filled)}${'-'.repeat(BAR_WIDTH - filled)}] ${String(percent).padStart(3)}%`;
}
