import type { ReindexRunResult } from '@memsvc/core';
import type { ReindexFlags } from './parse-reindex-flags.js';
import { formatRate, ratePerSecond } from './progress-reporter.js';

/** A finished run as `memsvc-reindex` reports it. */
export interface ReindexReport extends ReindexRunResult {
  readonly elapsedSeconds: number;
  /** Memories processed per second. */
  readonly ratePerSecond: number;
  /** The command that continues this run, when it stopped before the end. */
  readonly continueWith: string | null;
}

/** Adds timing and the resume command to a run's result. */
export function toReport(result: ReindexRunResult, elapsedMs: number, flags: ReindexFlags): ReindexReport {
  return {
    ...result,
    elapsedSeconds: Math.round(elapsedMs) / 1000,
    ratePerSecond: Math.round(ratePerSecond(result.processed, elapsedMs) * 10) / 10,
    continueWith: result.cursor === null ? null : continueCommand(result.cursor, flags),
  };
}

/**
 * `memsvc-reindex --cursor <id>` with the flags that scoped this run, so the next run picks up
 * the same memories; `--recreate` is never repeated (it is refused with a cursor, and an
 * interrupted recreate is finished by any later run that reaches the end).
 */
export function continueCommand(cursor: string, flags: ReindexFlags): string {
  const parts = ['memsvc-reindex', '--cursor', cursor];
  if (flags.user !== undefined) parts.push('--user', flags.user);
  if (flags.batchSize !== undefined) parts.push('--batch-size', String(flags.batchSize));
  if (flags.max !== undefined) parts.push('--max', String(flags.max));
  if (flags.regenerate) parts.push('--regenerate');
  return parts.join(' ');
}

/** The human summary printed on stdout. */
export function formatSummary(report: ReindexReport): string {
  const lines = [
    `processed  ${report.processed}`,
    `indexed    ${report.indexed}`,
    `skipped    ${report.skipped}`,
    `failed     ${report.failed}`,
    `elapsed    ${report.elapsedSeconds.toFixed(1)} s`,
    `rate       ${formatRate(report.ratePerSecond)} memories/s`,
    `cursor     ${report.cursor ?? 'none (reached the end)'}`,
  ];
  if (report.continueWith) lines.push(`continue with: ${report.continueWith}`);
  return `${lines.join('\n')}\n`;
}

/** The summary as JSON (`--json`). */
export function formatSummaryJson(report: ReindexReport): string {
  const { processed, indexed, skipped, failed, cursor, stoppedBy, elapsedSeconds, ratePerSecond, continueWith } = report;
  return `${JSON.stringify({ processed, indexed, skipped, failed, cursor, stoppedBy, elapsedSeconds, ratePerSecond, continueWith }, null, 2)}\n`;
}
