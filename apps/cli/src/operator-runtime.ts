import { describeDatabaseTarget } from '@memsvc/access';
import type { MemsvcConfig } from '@memsvc/config';
import { createLogger, type MemsvcRuntime, openRuntime } from '@memsvc/runtime';
import type { CliContext } from './cli-context.js';
import { assertDatabaseExists, databaseExists } from './existing-database.js';
import { readConfig } from './read-config.js';

/** What a command does with the runtime it is given; the runtime is closed whatever happens. */
type RuntimeAction<T> = (runtime: MemsvcRuntime) => Promise<T>;

/** How a command treats a `pglite://<dir>` that holds no database yet. */
type Mode = 'create' | 'existing' | 'dry-run';

/**
 * Runs a command on the runtime every app runs on (`runtime.engine`, `runtime.access`), opened
 * for one command: one connection, no read replica, no jobs. A command that checks its flags
 * against the configuration reads it first (`readOperatorConfig`) and passes it, so it is read once.
 */
export function withOperatorRuntime<T>(
  cli: CliContext,
  applicationName: string,
  action: RuntimeAction<T>,
  config?: MemsvcConfig,
): Promise<T> {
  return withRuntime(cli, applicationName, action, 'create', config ?? readOperatorConfig(cli));
}

/**
 * The same for a command that reads or changes what is there (lists, revocations, erasure): an
 * embedded directory without a database is an error, not a new database (existing-database.ts).
 */
export function withExistingOperatorRuntime<T>(
  cli: CliContext,
  applicationName: string,
  action: RuntimeAction<T>,
  config?: MemsvcConfig,
): Promise<T> {
  return withRuntime(cli, applicationName, action, 'existing', config ?? readOperatorConfig(cli));
}

/**
 * The same for a dry run, which must leave nothing behind: an embedded directory without a
 * database is checked against the empty database it would become, opened in memory.
 */
export function withDryRunRuntime<T>(
  cli: CliContext,
  applicationName: string,
  action: RuntimeAction<T>,
  config?: MemsvcConfig,
): Promise<T> {
  return withRuntime(cli, applicationName, action, 'dry-run', config ?? readOperatorConfig(cli));
}

/** The configuration, read and validated once per command, its warnings on stderr. */
export function readOperatorConfig(cli: CliContext): MemsvcConfig {
  const { config, warnings } = readConfig(cli.env);
  for (const warning of warnings) cli.stderr.write(`warning: ${warning}\n`);
  return config;
}

async function withRuntime<T>(
  cli: CliContext,
  applicationName: string,
  action: RuntimeAction<T>,
  mode: Mode,
  config: MemsvcConfig,
): Promise<T> {
  let database = config.database.target;
  if (mode === 'existing') assertDatabaseExists(database);
  if (mode === 'dry-run' && !databaseExists(database)) {
    cli.stderr.write(`no embedded database in ${describeDatabaseTarget(database)} yet: checking against an empty one, creating none\n`);
    database = { engine: 'pglite', storage: 'memory' };
  }
  // A command's stderr is for what needs the operator: the runtime's warnings, not its news.
  const logger = createLogger(config.logLevel === 'error' ? 'error' : 'warn', cli.stderr).child({ service: applicationName });
  const runtime = await openRuntime(config, {
    applicationName,
    logger,
    store: { maxConnections: 1, database, readReplica: false },
  });
  try {
    return await action(runtime);
  } finally {
    await runtime.close();
  }
}
