import { afterAll } from 'vitest';
import { removeTemporaryDirectories } from './each-engine.js';

// A setup file: vitest runs it before each test file, so this hook ends every file.
afterAll(removeTemporaryDirectories);
