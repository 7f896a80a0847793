import { describeDatabaseTarget } from '@memsvc/access';
import type { MemsvcConfig } from '@memsvc/config';
import { type MemsvcStore, openStore } from '@memsvc/store-pg';
import type { CliContext } from './cli-context.js';
import { assertDatabaseExists, databaseExists } from './existing-database.js';
import { readConfig } from './read-config.js';

/** What a command does with the store it is given; the store is closed whatever happens. */
type StoreAction<T> = (store: MemsvcStore, config: MemsvcConfig) => Promise<T>;

/** How a command treats a `pglite://<dir>` that holds no database yet. */
type Mode = 'create' | 'existing' | 'dry-run';

function opener(mode: Mode) {
  return <T>(cli: CliContext, applicationName: string, action: StoreAction<T>): Promise<T> => withStore(cli, applicationName, action, mode);
}

/**
 * Opens the store for one operator command (`keys`, `orgs`) on a single connection, migrating
 * first as the server would, runs `action` and closes the store whatever happens.
 */
export const withOperatorStore = opener('create');

/**
 * The same for a command that reads or changes what is there (lists, exports, revocations): an
 * embedded directory without a database is an error, not a new database (existing-database.ts).
 */
export const withExistingOperatorStore = opener('existing');

/**
 * The same for a dry run, which must leave nothing behind: an embedded directory without a
 * database is checked against the empty database it would become, opened in memory.
 */
export const withDryRunStore = opener('dry-run');

async function withStore<T>(cli: CliContext, applicationName: string, action: StoreAction<T>, mode: Mode): Promise<T> {
  const { config, warnings } = readConfig(cli.env);
  for (const warning of warnings) cli.stderr.write(`warning: ${warning}\n`);
  let database = config.database.target;
  if (mode === 'existing') assertDatabaseExists(database);
  if (mode === 'dry-run' && !databaseExists(database)) {
    cli.stderr.write(`no embedded database in ${describeDatabaseTarget(database)} yet: checking against an empty one, creating none\n`);
    database = { engine: 'pglite', storage: 'memory' };
  }
  const store = await openStore({
    database,
    pool: { applicationName, maxConnections: 1 },
    ...(config.database.embeddedTemplates ? { pgliteTemplates: config.database.embeddedTemplates } : {}),
    onUpkeepError: (error) => cli.stderr.write(`warning: ${(error as Error).message}\n`),
  });
  try {
    return await action(store, config);
  } finally {
    await store.close();
  }
}
