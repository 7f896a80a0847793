import { defineConfig } from 'tsup';

export default defineConfig({
  entry: { memsvc: 'src/memsvc.ts' },
  format: ['esm'],
  target: 'node20',
  platform: 'node',
  clean: true,
  sourcemap: true,
});
