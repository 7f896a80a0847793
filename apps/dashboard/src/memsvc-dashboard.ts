#!/usr/bin/env node
import { ConfigError } from '@memsvc/config';
import { isMemsvcError } from '@memsvc/core';
import { createLogger, programFlagsOrExit } from '@memsvc/runtime';
import { readDashboardConfig } from './dashboard-config.js';
import { DASHBOARD_HELP, DASHBOARD_VERSION } from './dashboard-help.js';
import { startDashboard } from './start-dashboard.js';

// Exit codes as the server's: 2 the configuration or a flag is refused, 1 the dashboard could not start.
// The flags first: --help and --version read no environment and start nothing.
programFlagsOrExit(process.argv.slice(2), { name: 'memsvc-dashboard', version: DASHBOARD_VERSION, help: DASHBOARD_HELP });

let loaded: ReturnType<typeof readDashboardConfig>;
try {
  loaded = readDashboardConfig();
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(2);
}

const { config, warnings } = loaded;
const logger = createLogger(config.logLevel).child({ component: 'dashboard' });
for (const warning of warnings) logger.warn(warning);
if (config.auth.dashboard.devAuth)
  logger.warn(`MEMSVC_DASHBOARD_DEV_AUTH: every visitor is signed in as ${config.auth.defaultUserId}, with admin`);

try {
  const dashboard = await startDashboard(config, logger);
  logger.info({ url: dashboard.url }, 'dashboard listening');
  const shutdown = async (reason: string) => {
    logger.info({ reason }, 'shutting down');
    await dashboard.close();
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
} catch (error) {
  logger.fatal({ code: isMemsvcError(error) ? error.code : undefined }, `the dashboard could not start: ${(error as Error).message}`);
  process.exit(1);
}
