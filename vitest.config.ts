import { defineConfig } from 'vitest/config';
import { SlowProjectsFirst } from './tooling/vitest/slow-projects-first.ts';

// One run over every workspace project; each project's own vitest.config.ts (built from
// tooling/vitest/preset.ts) says whether it needs the real PostgreSQL. The JSON report feeds
// tooling/scripts/test-summary.mjs, which prints the per-engine counts and the closing line.
// Vitest runs one file at a time on a 2-core machine by default (cores - 1), but most of a
// storage or process test's time is spent waiting on PostgreSQL, PGlite or a child process, so
// two files at a time finish the suite sooner (three were faster still, but starved the
// timing-sensitive process tests on a busy machine). TEST_MEMSVC_WORKERS overrides it.
const maxWorkers = Number(process.env.TEST_MEMSVC_WORKERS ?? 2);

export default defineConfig({
  test: {
    maxWorkers: Number.isInteger(maxWorkers) && maxWorkers > 0 ? maxWorkers : 2,
    projects: ['packages/*', 'apps/*', 'tooling/workspace-tests'],
    sequence: { sequencer: SlowProjectsFirst },
    reporters: ['default', ['json', { outputFile: '.tmp/vitest-report.json' }]],
  },
});
