import { assertServerMayBoot } from '@memsvc/config';
import type { CliContext } from '../cli-context.js';
import { readConfig } from '../read-config.js';

/**
 * `memsvc config check`: validates the environment as the server would at boot and prints the
 * result with every secret shown as [REDACTED].
 */
export async function configCheckCommand(cli: CliContext, options: { json?: boolean }): Promise<void> {
  const { config, warnings } = readConfig(cli.env);
  assertServerMayBoot(config);
  for (const warning of warnings) cli.stderr.write(`warning: ${warning}\n`);
  if (options.json) {
    cli.stdout.write(`${JSON.stringify(config, null, 2)}\n`);
    return;
  }
  cli.stdout.write(
    `configuration is valid: profile ${config.profile}, database ${config.database.displayUrl}, ` +
      `embeddings ${config.embedding.provider}${config.embedding.model ? ` (${config.embedding.model})` : ''}, ` +
      `MCP over ${config.mcp.transport}\n`,
  );
}
