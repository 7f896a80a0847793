import { KNOWN_MIGRATIONS, migrateToLatest, openDatabase } from '@memsvc/store-pg';
import type { CliContext } from '../cli-context.js';
import { readConfig } from '../read-config.js';

/** `memsvc migrate`: applies pending migrations and says which. */
export async function migrateCommand(cli: CliContext): Promise<void> {
  const { config, warnings } = readConfig(cli.env);
  for (const warning of warnings) cli.stderr.write(`warning: ${warning}\n`);
  const connection = await openDatabase(config.database.target, { applicationName: 'memsvc-migrate', maxConnections: 1 });
  try {
    const applied = await migrateToLatest(connection.db as never);
    cli.stdout.write(
      applied.length === 0
        ? `${connection.description}: schema is up to date (${KNOWN_MIGRATIONS.length} migrations)\n`
        : `${connection.description}: applied ${applied.join(', ')}\n`,
    );
  } finally {
    await connection.close();
  }
}
