import { memsvcBuild } from '../../tooling/tsup/preset.ts';

export default memsvcBuild(
  { 'memsvc-dashboard': 'src/memsvc-dashboard.ts', index: 'src/index.ts' },
  // pg-native is pg's optional native driver, never installed.
  { declarations: false, bundleExcept: ['@electric-sql/pglite', '@electric-sql/pglite-pgvector', 'pg-native'] },
);
