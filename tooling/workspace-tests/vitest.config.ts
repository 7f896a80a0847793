import { defineProject } from 'vitest/config';
import { memsvcProject } from '../vitest/preset.ts';

export default defineProject(memsvcProject('workspace', import.meta.dirname));
