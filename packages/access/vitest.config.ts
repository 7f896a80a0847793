import { defineProject } from 'vitest/config';
import { memsvcProject } from '../../tooling/vitest/preset.ts';

export default defineProject(memsvcProject('access', import.meta.dirname, { postgres: true }));
