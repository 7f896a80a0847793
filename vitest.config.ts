import { defineConfig } from 'vitest/config';

// One run over every workspace project; each project's own vitest.config.ts (built from
// tooling/vitest/preset.ts) says whether it needs the real PostgreSQL. The JSON report feeds
// tooling/scripts/test-summary.mjs, which prints the per-engine counts and the closing line.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*', 'tooling/workspace-tests'],
    reporters: ['default', ['json', { outputFile: '.tmp/vitest-report.json' }]],
  },
});
