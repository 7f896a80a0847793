import { memsvcProject } from '../../tooling/vitest/preset.ts';
import { defineProject } from 'vitest/config';

export default defineProject(memsvcProject('worker', import.meta.dirname));
