import type { MemsvcConfig } from '@memsvc/core';
import { type MemsvcStore, openStore } from '@memsvc/store-pg';
import type { CliContext } from './cli-context.js';
import { readConfig } from './read-config.js';

/**
 * Opens the store for one operator command (`keys`, `orgs`) on a single connection, migrating
 * first as the server would, runs `action` and closes the store whatever happens.
 */
export async function withOperatorStore<T>(
  cli: CliContext,
  applicationName: string,
  action: (store: MemsvcStore, config: MemsvcConfig) => Promise<T>,
): Promise<T> {
  const { config, warnings } = readConfig(cli.env);
  for (const warning of warnings) cli.stderr.write(`warning: ${warning}\n`);
  const store = await openStore({
    database: config.database.target,
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
