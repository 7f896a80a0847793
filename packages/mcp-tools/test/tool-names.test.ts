import { describe, expect, it } from 'vitest';
import { ADMIN_TOOLS, TOOL_NAMES } from '../src/index.js';

describe('the tool surface of spec §4.3', () => {
  it('has 28 distinct tools', () => {
    expect(TOOL_NAMES).toHaveLength(28);
    expect(new Set(TOOL_NAMES).size).toBe(28);
  });

  it('guards exactly the reindex and consolidation groups with the admin token', () => {
    expect([...ADMIN_TOOLS].sort()).toEqual([
      'cancel_reindex_job',
      'consolidate_corpus',
      'consolidate_memories',
      'get_reindex_status',
      'queue_reindex_memories',
      'reindex_memories',
      'retry_reindex_job',
    ]);
  });
});
