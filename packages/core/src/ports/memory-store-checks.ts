import type { NewMemory } from '../domain/memory.js';
import { MemsvcError } from '../errors/memsvc-error.js';

/**
 * The input checks every MemoryStore applies, so the SQL store and the in-memory one refuse the
 * same input with the same error. Largest page (and audit trail, and nearest list) one call returns.
 */
export const MAX_PAGE_SIZE = 1000;

/** A short-term memory needs an expiry; a long-term one must not have one. */
export function checkNewMemory(memory: NewMemory): void {
  if (memory.tier === 'stm' && !memory.expiresAt) {
    throw new MemsvcError('INVALID_INPUT', 'a short-term memory needs an expiry (expiresAt)', { field: 'expiresAt' });
  }
  if (memory.tier === 'ltm' && memory.expiresAt) {
    throw new MemsvcError('INVALID_INPUT', 'a long-term memory cannot have an expiry', { field: 'expiresAt' });
  }
}

/** A page size from 1 to MAX_PAGE_SIZE. */
export function checkLimit(limit: number): void {
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) {
    throw new MemsvcError('INVALID_INPUT', `limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`, { field: 'limit' });
  }
}

/** A vector a database could store: non-empty and finite. */
export function checkFinite(vector: readonly number[]): void {
  if (vector.length === 0 || !vector.every(Number.isFinite)) {
    throw new MemsvcError('INVALID_INPUT', 'an embedding must be a non-empty list of finite numbers', { field: 'embedding' });
  }
}
