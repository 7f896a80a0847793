import { memsvcBuild } from '../../tooling/tsup/preset.ts';

export default [
  // The library the server runs in-process: dependencies external, so both share one @memsvc/core.
  memsvcBuild({ index: 'src/index.ts' }, { declarations: true }),
  // The executable: one bundled file, like the server's (pg-native is pg's optional driver, never installed).
  memsvcBuild(
    { 'memsvc-worker': 'src/memsvc-worker.ts' },
    { declarations: false, clean: false, bundleExcept: ['@electric-sql/pglite', '@electric-sql/pglite-pgvector', 'pg-native'] },
  ),
];
