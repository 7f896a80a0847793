import { Command } from 'commander';
import type { CliContext } from './cli-context.js';
import { CLI_VERSION } from './cli-version.js';
import { reindexCommand } from './commands/reindex-command.js';
import { parseBatchSize, parseMax, type ReindexFlags } from './reindex/parse-reindex-flags.js';
import { onContext, parseOnContext, runCommand } from './run-command.js';

/** `memsvc-reindex` on a context (cli-context.ts); resolves with the exit code. */
export async function runMemsvcReindex(argv: readonly string[], cli: CliContext): Promise<number> {
  const program = onContext(new Command(), cli)
    .name('memsvc-reindex')
    .description(
      'Computes the vectors memories are missing (or, with --regenerate, all of them) in batches, and resumes from a cursor.\n' +
        'Configuration comes from the environment (DATABASE_URL, EMBEDDING_PROVIDER, …), as for the server.',
    )
    .option('--user <user_id>', 'restrict to one user')
    .option('--batch-size <n>', 'memories per batch, 1 to 1000 (default 100)', parseBatchSize)
    .option('--regenerate', 'regenerate embeddings instead of reusing stored ones')
    .option('--recreate', 'drop and rebuild the whole vector index (unscoped full run)')
    .option('--max <n>', 'maximum memories to process', parseMax)
    .option('--cursor <memory_id>', 'resume from an id returned by a previous run')
    .option('--json', 'print the final summary as JSON')
    .helpOption('-h, --help', 'lists the flags')
    .version(CLI_VERSION, '-v, --version', 'print the version')
    .addHelpText(
      'after',
      '\nExamples:\n' +
        '  # Vectors for the memories stored while the embedding provider was down, on the embedded database:\n' +
        '  DATABASE_URL=pglite://~/.memsvc DEPLOYMENT_PROFILE=lite memsvc-reindex\n' +
        '  # One user only, 500 at a time, the summary as JSON:\n' +
        '  DATABASE_URL=postgres://memsvc:secret@localhost:5432/memsvc memsvc-reindex --user alice --batch-size 500 --json\n' +
        '\nAfter an embedding model or dimension change, run an unscoped full reindex: memsvc-reindex --recreate --regenerate\n' +
        'Exit codes: 0 done, 1 the run failed or some memories got no vector, 2 a flag or the configuration is wrong.',
    )
    .showHelpAfterError('(memsvc-reindex --help lists the flags)')
    .action((flags: ReindexFlags) => runCommand(cli, () => reindexCommand(cli, flags), 'memsvc-reindex'));

  return parseOnContext(program, argv, cli);
}
