#!/usr/bin/env node
import { homedir } from 'node:os';
import { ConfigError, isMemsvcError, type LoadedConfig, loadConfig } from '@memsvc/core';
import { systemClock } from '@memsvc/store-pg';
import { createMaintenance } from './create-maintenance.js';
import { createLogger } from './logger.js';
import { configuredEmbedder, openConfiguredStore } from './open-runtime.js';
import { startJobs } from './start-jobs.js';

// Exit codes: 2 the configuration is refused, 1 the worker could not start.
let loaded: LoadedConfig;
try {
  loaded = loadConfig(process.env, { homeDir: homedir() });
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(2);
}
const { config, warnings } = loaded;
const logger = createLogger(config.logLevel).child({ component: 'worker' });
for (const warning of warnings) logger.warn(warning);

try {
  const store = await openConfiguredStore(config, 'memsvc-worker', logger);
  const { embedder } = configuredEmbedder(config, logger);
  const maintenance = createMaintenance({ store, embedder, config, clock: systemClock });
  const jobs = startJobs({ config, store, embedder, maintenance, logger });
  logger.info({ database: store.connection.description, runner: jobs.runner.runnerId }, 'memsvc worker running');
  const shutdown = async (reason: string) => {
    logger.info({ reason }, 'worker stopping: finishing the runs in progress');
    await jobs.stop();
    await store.close();
    logger.info('worker stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
} catch (error) {
  logger.fatal({ code: isMemsvcError(error) ? error.code : undefined }, `memsvc worker could not start: ${(error as Error).message}`);
  process.exit(1);
}
