import { describe, expect, it } from 'vitest';
import { isMemsvcError, toTenantId } from '../src/index.js';
import { verifies } from './requirements.js';

describe('tenant ids', () => {
  it(verifies('TENANT-ID', 'accepts hyphenated ids, emails and org/agent names'), () => {
    for (const id of ['user-123', 'alice@example.com', 'acme/agent.7', 'A', 'x'.repeat(128)]) expect(toTenantId(id)).toBe(id);
  });

  it(verifies('TENANT-ID', 'rejects empty, over-long or odd ids with INVALID_INPUT naming the field'), () => {
    for (const id of ['', 'x'.repeat(129), ' padded', 'semi;colon', '-leading', "quote'"]) {
      let caught: unknown;
      try {
        toTenantId(id, 'userId');
      } catch (error) {
        caught = error;
      }
      expect(isMemsvcError(caught, 'INVALID_INPUT')).toBe(true);
      expect((caught as { data: { field: string } }).data.field).toBe('userId');
    }
  });
});
