#!/usr/bin/env node
import { Command } from 'commander';
import { configCheckCommand } from './commands/config-check-command.js';
import { migrateCommand } from './commands/migrate-command.js';
import { statusCommand } from './commands/status-command.js';
import { runCommand } from './run-command.js';

const program = new Command()
  .name('memsvc')
  .description('Operator commands for memsvc. Configuration comes from the environment (DATABASE_URL, …), as for the server.')
  .showHelpAfterError();

program
  .command('migrate')
  .description('apply pending database migrations (safe to run from several replicas at once)')
  .action(() => runCommand(migrateCommand));

program
  .command('status')
  .description('show the database, pgvector, the vector space and memory counts; migrates first')
  .option('--json', 'print JSON')
  .action((options: { json?: boolean }) => runCommand(() => statusCommand(options)));

program
  .command('config')
  .description('configuration commands')
  .command('check')
  .description('validate the environment as the server does at boot; secrets print as [REDACTED]')
  .option('--json', 'print the whole configuration as JSON')
  .action((options: { json?: boolean }) => runCommand(() => configCheckCommand(options)));

await program.parseAsync();
