import { defineProject } from 'vitest/config';
import { memsvcProject } from '../../tooling/vitest/preset.ts';

export default defineProject(
  memsvcProject('store-pg', import.meta.dirname, {
    postgres: true,
    spawnsProcesses: true,
    setupFiles: ['test/support/after-each-file.ts'],
  }),
);
