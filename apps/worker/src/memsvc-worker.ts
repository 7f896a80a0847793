#!/usr/bin/env node
import { homedir } from 'node:os';
import { ConfigError, type LoadedConfig, loadConfig } from '@memsvc/config';
import { isMemsvcError } from '@memsvc/core';
import { createLogger, openRuntime, programFlagsOrExit, ShutdownBudget } from '@memsvc/runtime';
import { WORKER_HELP, WORKER_VERSION } from './worker-help.js';
import { serveWorkerHttp } from './worker-http.js';

// Exit codes: 2 the configuration or a flag is refused, 1 the worker could not start.
// The flags first: --help and --version read no environment and start nothing.
const flags = programFlagsOrExit(process.argv.slice(2), {
  name: 'memsvc-worker',
  version: WORKER_VERSION,
  help: WORKER_HELP,
  valueFlags: ['port', 'host'],
});
const port = flags.port === undefined ? undefined : Number(flags.port);
if (port !== undefined && (!Number.isInteger(port) || port < 0 || port > 65_535)) {
  process.stderr.write(`memsvc-worker: --port must be a whole number from 0 to 65535 (got ${flags.port})\n`);
  process.exit(2);
}

let loaded: LoadedConfig;
try {
  loaded = loadConfig(process.env, { homeDir: homedir() });
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(2);
}
const { config, warnings } = loaded;
// Not `component`: the runtime's own children (jobs, read-replica) set that key, and pino would write it twice.
const logger = createLogger(config.logLevel).child({ service: 'memsvc-worker' });
for (const warning of warnings) logger.warn(warning);

try {
  const runtime = await openRuntime(config, { applicationName: 'memsvc-worker', logger });
  const { store, metrics } = runtime;
  const jobs = runtime.startJobs();
  // Reindex jobs and consolidation embed: an unreachable provider is said at boot, and its circuit kept open.
  void runtime.embeddingReachability?.start();
  const http =
    port === undefined
      ? undefined
      : await serveWorkerHttp({ port, host: flags.host ?? '127.0.0.1', store, metrics, metricsToken: config.metrics.token });
  logger.info({ database: store.connection.description, runner: jobs.runner.runnerId, http: http?.url }, 'memsvc worker running');
  const shutdown = async (reason: string) => {
    logger.info({ reason, timeoutMs: config.shutdownTimeoutMs }, 'worker stopping: finishing the runs in progress');
    // The same bound as the server's (MEMSVC_SHUTDOWN_TIMEOUT_MS): a run still going at the end is
    // left to end with the process; its advisory lock goes with the connection, a reindex job's
    // lease expires and the job is retried from its saved cursor.
    setTimeout(() => {
      logger.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown took longer than MEMSVC_SHUTDOWN_TIMEOUT_MS: exiting now');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    const budget = new ShutdownBudget(config.shutdownTimeoutMs);
    // The jobs stop starting at once, before anything is waited for.
    const jobsStopped = jobs.stop();
    if (http) await budget.settlesBy(http.close(), 0.2);
    if (!(await budget.settlesBy(jobsStopped, 0.5)))
      logger.warn('worker stopping: a job still running is left to end with the process; its next run retries it');
    await runtime.close({ timeoutMs: budget.msUntil(0.9) });
    logger.info('worker stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
} catch (error) {
  logger.fatal({ code: isMemsvcError(error) ? error.code : undefined }, `memsvc worker could not start: ${(error as Error).message}`);
  process.exit(1);
}
