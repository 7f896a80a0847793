#!/usr/bin/env node
import { fileURLToPath } from 'node:url';
import { ConfigError } from '@memsvc/config';
import { isMemsvcError } from '@memsvc/core';
import { createLogger, programFlagsOrExit } from '@memsvc/runtime';
import { serveBootFailure } from './boot-failure-server.js';
import { readServerConfig } from './server-config.js';
import { SERVER_HELP } from './server-help.js';
import { SERVER_VERSION } from './server-version.js';
import { startServer } from './start-server.js';

// Exit codes: 2 the configuration or a flag is refused (spec §7), 1 the server could not start.
// The flags first: --help and --version read no environment and start nothing.
programFlagsOrExit(process.argv.slice(2), { name: 'memsvc-server', version: SERVER_VERSION, help: SERVER_HELP });

let loaded: ReturnType<typeof readServerConfig>;
try {
  loaded = readServerConfig();
} catch (error) {
  process.stderr.write(`${error instanceof ConfigError ? error.message : String(error)}\n`);
  process.exit(2);
}

const { config, warnings } = loaded;
const logger = createLogger(config.logLevel);
for (const warning of warnings) logger.warn(warning);
if (config.mcp.transport === 'streamable-http' && config.auth.required && config.auth.apiKey && config.auth.defaultUserId === undefined) {
  // The pre-shared key acts for MEMSVC_DEFAULT_USER_ID alone (docs/security.md); without it, it reaches no memories.
  // (Standard only: lite always has a default user.)
  logger.warn(
    'MEMSVC_API_KEY is set without MEMSVC_DEFAULT_USER_ID: calls with it are refused for memory tools; give each agent its own key (memsvc keys create)',
  );
}

try {
  // A client that starts this server over stdio runs this same file with this same Node.js.
  const stdioServer = { command: process.execPath, args: [fileURLToPath(import.meta.url)] };
  const server = await startServer(config, logger, { stdioServer });
  const shutdown = async (reason: string) => {
    logger.info({ reason, timeoutMs: config.shutdownTimeoutMs }, 'shutting down: finishing in-flight requests');
    // The last word on MEMSVC_SHUTDOWN_TIMEOUT_MS: close() keeps within it by its own marks, and
    // this ends the process should anything still hold it (exit 1: the stop was not clean).
    setTimeout(() => {
      logger.error({ timeoutMs: config.shutdownTimeoutMs }, 'shutdown took longer than MEMSVC_SHUTDOWN_TIMEOUT_MS: exiting now');
      process.exit(1);
    }, config.shutdownTimeoutMs).unref();
    await server.close();
    logger.info('stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
  process.once('SIGINT', () => void shutdown('SIGINT'));
  // Over stdio the client owns the process: when it closes our stdin, we are done.
  if (config.mcp.transport === 'stdio') process.stdin.once('end', () => void shutdown('stdin closed'));
} catch (error) {
  logger.fatal({ code: isMemsvcError(error) ? error.code : undefined }, `memsvc could not start: ${(error as Error).message}`);
  // Over stdio the client would show only a closed pipe: tell it why over MCP instead.
  if (config.mcp.transport === 'stdio') await serveBootFailure((error as Error).message);
  else process.exit(1);
}
