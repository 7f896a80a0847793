#!/usr/bin/env node
import { homedir } from 'node:os';
import { parseArgs } from 'node:util';
import { ConfigError, isMemsvcError, type LoadedConfig, loadConfig } from '@memsvc/core';
import { createLogger, openRuntime } from '@memsvc/runtime';
import { serveWorkerHttp } from './worker-http.js';

const HELP = `Usage: memsvc-worker [--port <n>] [--host <address>]

Runs memsvc's scheduled jobs (short-term sweep and promotion, auth-store sweep, decay scan,
corpus consolidation) and the reindex-job runner. Configuration comes from the environment,
as for the server (DATABASE_URL, the *_INTERVAL_MS variables, EMBEDDING_PROVIDER, ...).
Run any number of workers: each job runs once per interval across all of them.

Options:
  --port <n>        serve GET /health and GET /health/metrics on this port (default: no HTTP)
  --host <address>  address to bind with --port (default 127.0.0.1)
  -h, --help        show this help
`;

// Exit codes: 2 the configuration or a flag is refused, 1 the worker could not start.
let flags: { port?: string; host?: string; help?: boolean };
try {
  flags = parseArgs({
    options: { port: { type: 'string' }, host: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
  }).values;
} catch (error) {
  process.stderr.write(`memsvc-worker: ${(error as Error).message}\n${HELP}`);
  process.exit(2);
}
if (flags.help) {
  process.stdout.write(HELP);
  process.exit(0);
}
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
  const http =
    port === undefined
      ? undefined
      : await serveWorkerHttp({ port, host: flags.host ?? '127.0.0.1', store, metrics, metricsToken: config.metrics.token });
  logger.info({ database: store.connection.description, runner: jobs.runner.runnerId, http: http?.url }, 'memsvc worker running');
  const shutdown = async (reason: string) => {
    logger.info({ reason }, 'worker stopping: finishing the runs in progress');
    await http?.close();
    await runtime.close();
    logger.info('worker stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
} catch (error) {
  logger.fatal({ code: isMemsvcError(error) ? error.code : undefined }, `memsvc worker could not start: ${(error as Error).message}`);
  process.exit(1);
}
