import { memsvcBuild } from '../../tooling/tsup/preset.ts';

export default memsvcBuild(
  { index: 'src/index.ts', 'memsvc-server': 'src/memsvc-server.ts' },
  // pg-native is pg's optional native driver, never installed.
  { declarations: false, bundleExcept: ['@electric-sql/pglite', '@electric-sql/pglite-pgvector', 'pg-native'] },
);
