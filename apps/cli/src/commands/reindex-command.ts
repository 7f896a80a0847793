import type { ReindexSummary } from '@memsvc/core';
import { systemClock } from '@memsvc/core';
import { configuredEmbedder, createLogger, createMaintenance, openConfiguredStore } from '@memsvc/runtime';

import type { CliContext } from '../cli-context.js';
import { readConfig } from '../read-config.js';
import { EXIT_INTERRUPTED, interruptAfterBatch, ReindexInterrupted } from '../reindex/interrupt-after-batch.js';
import { type ReindexFlags, toReindexRequest } from '../reindex/parse-reindex-flags.js';
import { createProgressReporter } from '../reindex/progress-reporter.js';
import { continueCommand, formatSummary, formatSummaryJson, toReport } from '../reindex/reindex-summary.js';
import { checkConfiguredSize, storeConfigForRun } from '../reindex/store-config-for-run.js';
import { EXIT_FAILURE } from '../run-command.js';

/**
 * `memsvc-reindex` (spec §4.4): one synchronous reindex run through the same maintenance
 * use-case as the `reindex_memories` tool, with progress on stderr and the summary on stdout.
 */
export async function reindexCommand(cli: CliContext, flags: ReindexFlags): Promise<void> {
  // Flags first: a wrong one is refused before the configuration is read or the database opened.
  const request = toReindexRequest(flags);
  const { config, warnings } = readConfig(cli.env);
  for (const warning of warnings) cli.stderr.write(`warning: ${warning}\n`);
  const logger = createLogger(config.logLevel).child({ component: 'reindex' });
  const store = await openConfiguredStore(storeConfigForRun(config), 'memsvc-reindex', logger);
  const reporter = createProgressReporter({ stream: cli.stderr as NodeJS.WriteStream, total: flags.max });
  const interrupt = interruptAfterBatch(store.connection.engine === 'postgres', () => {
    reporter.finish();
    cli.stderr.write('memsvc-reindex: stopping after the batch in hand (Ctrl-C again to quit at once)\n');
  });
  let saved: ReindexSummary | undefined;
  const startedAt = performance.now();
  try {
    await checkConfiguredSize(store, config, request);
    const { embedder } = configuredEmbedder(config, logger);
    const maintenance = createMaintenance({ store, embedder, config, clock: systemClock });
    const result = await maintenance.reindex(request, (progress) => {
      saved = progress;
      reporter.batch(progress);
      interrupt.check();
    });
    reporter.finish();
    const report = toReport(result, performance.now() - startedAt, flags);
    cli.stdout.write(flags.json ? formatSummaryJson(report) : formatSummary(report));
    if (report.failed > 0) {
      cli.stderr.write(
        `memsvc-reindex: ${report.failed} memories got no vector (the embedding provider failed for them); run again to retry them\n`,
      );
      cli.exitCode = EXIT_FAILURE;
    }
  } catch (error) {
    reporter.finish();
    // Every batch before the failure is saved: say where to pick up instead of starting over.
    const resume = saved?.cursor ? `; batches up to ${saved.cursor} are saved, continue with: ${continueCommand(saved.cursor, flags)}` : '';
    if (!(error instanceof ReindexInterrupted)) {
      if (resume) cli.stderr.write(`memsvc-reindex: the run failed${resume}\n`);
      throw error;
    }
    cli.stderr.write(`memsvc-reindex: interrupted${resume}\n`);
    cli.exitCode = EXIT_INTERRUPTED;
  } finally {
    interrupt.dispose();
    await store.close();
  }
}
