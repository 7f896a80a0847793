import packageJson from '../package.json' with { type: 'json' };

/** This package's version: what `memsvc --version` and `memsvc-reindex --version` print. */
export const CLI_VERSION: string = packageJson.version;
