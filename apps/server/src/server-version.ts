import packageJson from '../package.json' with { type: 'json' };

/** This package's version: what `memsvc-server --version` prints and MCP's serverInfo carries. */
export const SERVER_VERSION: string = packageJson.version;
