import { memsvcBuild } from '../../tooling/tsup/preset.ts';

// The executable: one bundled file, like the server's (pg-native is pg's optional driver, never installed).
export default memsvcBuild(
  { 'memsvc-worker': 'src/memsvc-worker.ts' },
  { declarations: false, bundleExcept: ['@electric-sql/pglite', '@electric-sql/pglite-pgvector', 'pg-native'] },
);
