import { fileURLToPath } from 'node:url';
import { defineConfig, type Options } from 'tsup';

export interface MemsvcBuildOptions {
  /** Emit .d.ts files (publishable packages). */
  readonly declarations: boolean;
  /**
   * Bundle every dependency into the output except these (apps' executables). Node loads one
   * file instead of hundreds of small ESM modules, which is most of a cold start. Packages
   * that find files next to their own module (PGlite's WASM and data) must stay external.
   */
  readonly bundleExcept?: readonly string[];
  /** Empty `dist` first (default). A second build into the same `dist` passes false. */
  readonly clean?: boolean;
}

/**
 * The one build every memsvc package and app uses: ESM for Node 20, dependencies external
 * (tsup's default) unless an app asks for a bundle, declarations for the publishable packages.
 */
export function memsvcBuild(entry: Record<string, string>, options: MemsvcBuildOptions) {
  const bundle = options.bundleExcept;
  const config: Options = {
    entry,
    format: ['esm'],
    target: 'node20',
    platform: 'node',
    dts: options.declarations,
    clean: options.clean ?? true,
    sourcemap: true,
    ...(bundle
      ? {
          // tsup's noExternal wins over external, so the exceptions live in the pattern itself.
          noExternal: [new RegExp(`^(?!(${bundle.map(escapeRegExp).join('|')})(/|$))`)],
          external: [...bundle],
          // CommonJS dependencies (pg, pino, prom-client) call require(); an ESM bundle has none.
          banner: {
            js: "import { createRequire as __memsvcCreateRequire } from 'node:module'; const require = __memsvcCreateRequire(import.meta.url);",
          },
          esbuildPlugins: [promClientWithoutOpenTelemetry],
        }
      : {}),
  };
  return defineConfig(config);
}

type EsbuildPlugin = NonNullable<Options['esbuildPlugins']>[number];

/**
 * prom-client requires @opentelemetry/api at load time, for exemplars memsvc never enables; in
 * a bundle its import resolves to a two-function stand-in instead, so OpenTelemetry stays in the
 * chunk that only an OTLP endpoint loads (tracing-not-loaded.e2e.test.ts proves it). Our own
 * imports of the API are untouched.
 */
const promClientWithoutOpenTelemetry: EsbuildPlugin = {
  name: 'prom-client-without-opentelemetry',
  setup(build) {
    const standIn = fileURLToPath(new URL('./prom-client-otel-api.cjs', import.meta.url));
    build.onResolve({ filter: /^@opentelemetry\/api$/ }, (args) =>
      /[\\/]prom-client[\\/]/.test(args.importer) ? { path: standIn } : undefined,
    );
  },
};

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
