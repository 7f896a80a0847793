import { ConfigError, isMemsvcError } from '@memsvc/core';
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
