import { fileURLToPath } from 'node:url';
import type { TestProjectInlineConfiguration } from 'vitest/config';

export interface MemsvcProjectOptions {
  /** The project's tests need a real PostgreSQL + pgvector (storage suites, end-to-end tests). */
  readonly postgres?: boolean;
}

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
      testTimeout: 30_000,
      hookTimeout: 120_000,
      allowOnly: false,
      globalSetup: options.postgres ? [fileURLToPath(new URL('./postgres-global-setup.ts', import.meta.url))] : [],
    },
  };
}
