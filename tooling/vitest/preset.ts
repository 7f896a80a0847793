import { fileURLToPath } from 'node:url';
import type { TestProjectInlineConfiguration } from 'vitest/config';

export interface MemsvcProjectOptions {
  /** The project's tests need a real PostgreSQL + pgvector (storage suites, end-to-end tests). */
  readonly postgres?: boolean;
  /**
   * The tests start server processes (each opening PGlite, 1–3 s alone and much longer on a busy
   * 2-core machine), so each test gets 90 s instead of 30.
   */
  readonly spawnsProcesses?: boolean;
  /** Files run before each test file (relative to the project's root), e.g. to register per-file hooks. */
  readonly setupFiles?: readonly string[];
}

/** Where a test run keeps its embedded-database templates: inside the checkout, never the user's cache. */
export const TEST_CACHE_DIRECTORY = fileURLToPath(new URL('../../.tmp/pglite-templates', import.meta.url));

/**
 * The settings every workspace project shares. Storage tests open real databases (PGlite takes
 * 1–3 s to start), so timeouts are generous; fake clocks keep time-based tests fast regardless.
 */
export function memsvcProject(name: string, root: string, options: MemsvcProjectOptions = {}): TestProjectInlineConfiguration {
  return {
    root,
    test: {
      name,
      include: ['test/**/*.test.ts', 'src/**/*.test.ts'],
      testTimeout: options.spawnsProcesses ? 90_000 : 30_000,
      hookTimeout: 120_000,
      allowOnly: false,
      // A worker runs its files one after another in one module graph instead of importing
      // everything again for each file: no test mocks a module, stubs a global or fakes timers.
      // PGlite's WebAssembly stays compiled between files (storage suites 216 → 147 s; the whole
      // suite 750 → 516 s).
      isolate: false,
      // New embedded databases start from a template kept for this checkout (PgliteTemplates):
      // ~0.5 s instead of 3–4 s of initdb and migrations. Spawned servers and CLIs are handed it too.
      env: { MEMSVC_CACHE_DIR: TEST_CACHE_DIRECTORY },
      setupFiles: [...(options.setupFiles ?? [])],
      globalSetup: options.postgres ? [fileURLToPath(new URL('./postgres-global-setup.ts', import.meta.url))] : [],
    },
  };
}
