import { describe, expect, it } from 'vitest';
import { ADMIN_TOOLS, TOOL_NAMES } from '../src/index.js';

describe('the tool surface of spec §4.3', () => {
  it('names the 28 distinct tools of spec §4.3, the two of a ChatGPT connector, the four of sharing and verify_erasure', () => {
    expect(TOOL_NAMES).toHaveLength(35);
    expect(new Set(TOOL_NAMES).size).toBe(35);
    expect(TOOL_NAMES).toEqual(expect.arrayContaining(['grant_access', 'revoke_access', 'list_grants', 'use_shared_space']));
    expect(TOOL_NAMES).toContain('search');
    expect(TOOL_NAMES).toContain('fetch');
    expect(TOOL_NAMES).toContain('export_memories');
    expect(TOOL_NAMES).toContain('import_agent_memory');
  });

  it('guards exactly the reindex and consolidation groups and the import with the admin token', () => {
    expect([...ADMIN_TOOLS].sort()).toEqual([
      'cancel_reindex_job',
      'consolidate_corpus',
      'consolidate_memories',
      'get_reindex_status',
      'import_agent_memory',
      'queue_reindex_memories',
      'reindex_memories',
      'retry_reindex_job',
    ]);
  });
});
