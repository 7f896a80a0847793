import { testTemplates } from '../../../../tooling/vitest/test-templates.ts';
import { type MemsvcStore, type OpenStoreOptions, openStore } from '../../src/index.js';

/**
 * openStore as the suites use it: a new PGlite database starts from the test run's template
 * (MEMSVC_CACHE_DIR, set by tooling/vitest/preset.ts) instead of initdb and the migrations.
 * Tests of opening and migrating themselves call openStore.
 */
export function openTestStore(options: OpenStoreOptions): Promise<MemsvcStore> {
  return openStore({ ...testTemplates(), ...options });
}
