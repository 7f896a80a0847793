import { defineConfig, type Options } from 'tsup';

/**
 * The one build every memsvc package and app uses: ESM for Node 20, sibling packages external
 * (tsup leaves every dependency external), declarations for the publishable packages.
 */
export function memsvcBuild(entry: Record<string, string>, options: { declarations: boolean }) {
  const config: Options = {
    entry,
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    dts: options.declarations,
    clean: true,
    sourcemap: true,
  };
  return defineConfig(config);
}
