import { ConfigError } from '@memsvc/config';
import { isMemsvcError } from '@memsvc/core';
import { type Command, CommanderError } from 'commander';
import type { CliContext } from './cli-context.js';

/** Exit codes: 0 success, 1 the operation failed, 2 the configuration or arguments are wrong. */
export const EXIT_FAILURE = 1;
export const EXIT_CONFIG = 2;

/**
 * Runs one command and turns failures into one readable line on stderr and an exit code —
 * never a stack trace, never a secret (every message memsvc raises is written to be shown).
 * `programName` prefixes the line (`memsvc`, `memsvc-reindex`).
 */
export async function runCommand(cli: CliContext, action: () => Promise<void>, programName = 'memsvc'): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (error instanceof ConfigError) {
      cli.stderr.write(`${error.message}\n`);
      cli.exitCode = EXIT_CONFIG;
    } else if (isMemsvcError(error)) {
      cli.stderr.write(`${programName}: ${error.message} [${error.code}]\n`);
      cli.exitCode = error.code === 'INVALID_CONFIG' || error.code === 'INVALID_INPUT' ? EXIT_CONFIG : EXIT_FAILURE;
    } else {
      cli.stderr.write(`${programName}: unexpected error: ${error instanceof Error ? error.message : String(error)}\n`);
      cli.exitCode = EXIT_FAILURE;
    }
  }
}

/**
 * Makes a commander program (before its subcommands are added, so they inherit it) write to the
 * context's streams and throw instead of exiting the process.
 */
export function onContext(program: Command, cli: CliContext): Command {
  return program.exitOverride().configureOutput({ writeOut: (text) => cli.stdout.write(text), writeErr: (text) => cli.stderr.write(text) });
}

/** Runs a program made with onContext on `argv`, resolving with the exit code. */
export async function parseOnContext(program: Command, argv: readonly string[], cli: CliContext): Promise<number> {
  try {
    await program.parseAsync([...argv], { from: 'user' });
  } catch (error) {
    // Commander has printed its message; a wrong flag is a usage error (2), --help is not one.
    if (!(error instanceof CommanderError)) throw error;
    cli.exitCode = error.exitCode === 0 ? 0 : EXIT_CONFIG;
  }
  return cli.exitCode;
}
