import { assertServerMayBoot } from '@memsvc/core';
import { readConfig } from '../read-config.js';

/**
 * `memsvc config check`: validates the environment as the server would at boot and prints the
 * result with every secret shown as [REDACTED].
 */
export async function configCheckCommand(options: { json?: boolean }): Promise<void> {
  const { config, warnings } = readConfig();
  assertServerMayBoot(config);
  for (const warning of warnings) process.stderr.write(`warning: ${warning}\n`);
  if (options.json) {
    process.stdout.write(`${JSON.stringify(config, null, 2)}\n`);
    return;
  }
  process.stdout.write(
    `configuration is valid: profile ${config.profile}, database ${config.database.displayUrl}, ` +
      `embeddings ${config.embedding.provider}${config.embedding.model ? ` (${config.embedding.model})` : ''}, ` +
      `MCP over ${config.mcp.transport}\n`,
  );
}
