import { describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { parseDurationSeconds } from '../src/index.js';

describe('durations', () => {
  it(verifies('CFG-JWT-EXPIRES', 'parses each unit'), () => {
    expect(parseDurationSeconds('2d')).toBe(172_800);
    expect(parseDurationSeconds('90S')).toBe(90);
    expect(parseDurationSeconds('')).toBeUndefined();
  });
});
