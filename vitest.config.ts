import { defineConfig } from 'vitest/config';

// One run over every workspace project; each project's own vitest.config.ts (built from
// tooling/vitest/preset.ts) says whether it needs the real PostgreSQL.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
  },
});
