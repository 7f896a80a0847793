import type { Scope } from '@memsvc/access';
import { MemsvcError, toTenantId } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { visibleResult } from '../src/content-visibility.js';
import { ANONYMOUS_PRINCIPAL, type ApiKeyPrincipal, PRE_SHARED_KEY_PRINCIPAL, toolError, toolSuccess } from '../src/index.js';

const MARKER = 'quokka7f3a';
const keyWith = (...scopes: Scope[]): ApiKeyPrincipal => ({
  kind: 'api-key',
  id: 'k1',
  tenant: toTenantId('alice'),
  organizationId: null,
  scopes,
});

/**
 * The results the end-to-end table (apps/server scoped-content) cannot easily provoke: clusters
 * found by a corpus pass, and a confirmed forget by query.
 */
describe('visibleResult (what each scope sees)', () => {
  const clusters = toolSuccess({
    dryRun: true,
    scanned: 3,
    clusters: 1,
    merged: 0,
    skippedConcurrentEdit: 0,
    cursor: null,
    perCluster: [{ canonicalId: 'm1', loserIds: ['m2'], similarities: [0.91], unionedTags: [`tag-${MARKER}`] }],
    perClusterTruncated: false,
  });
  const forgotten = toolSuccess({
    dryRun: false,
    candidates: [{ memoryId: 'm7', content: `the ${MARKER} note`, score: 0.8 }],
    deleted: ['m7'],
    message: 'deleted 1 of 1 memory; restore_memory brings any of them back',
  });

  it('R-SCOPE-CONTENT: a caller without memories:read gets the counts of a corpus pass and of a forget, not the memories', () => {
    for (const principal of [keyWith('memories:write'), keyWith('memories:delete'), keyWith('admin')]) {
      const corpus = visibleResult('consolidate_corpus', principal, clusters);
      expect(corpus.structuredContent).toEqual({
        dryRun: true,
        scanned: 3,
        clusters: 1,
        merged: 0,
        skippedConcurrentEdit: 0,
        cursor: null,
        perClusterTruncated: false,
      });
      const forget = visibleResult('forget', principal, forgotten);
      expect(forget.structuredContent).toEqual({
        dryRun: false,
        message: forgotten.structuredContent.message,
        candidateCount: 1,
        deletedCount: 1,
      });
      // The text of the result is the same JSON: a client reading only text sees no more.
      expect(JSON.stringify(forget.content)).not.toContain(MARKER);
      expect(JSON.stringify(forget.content)).not.toContain('m7');
    }
  });

  it('R-SCOPE-READ-UNCHANGED: a caller holding memories:read, the anonymous caller and the pre-shared key get the result as it was', () => {
    for (const principal of [
      keyWith('memories:read'),
      keyWith('memories:read', 'memories:delete'),
      ANONYMOUS_PRINCIPAL,
      PRE_SHARED_KEY_PRINCIPAL,
    ]) {
      expect(visibleResult('forget', principal, forgotten)).toBe(forgotten);
      expect(visibleResult('consolidate_corpus', principal, clusters)).toBe(clusters);
    }
  });

  it('R-FACT-RELATED: a write-only caller sees its own memory stub, never the related memories a write or an update names', () => {
    const related = [{ id: 'm3', content: `I live in ${MARKER}`, createdAt: '2026-05-01T10:00:00.000Z', why: 'changed-fact' }];
    const memory = { id: 'm9', version: 1, type: 'long-term', tier: 'ltm', content: 'I moved to Berlin' };
    const created = toolSuccess({ memory, outcome: 'created', wasDeduped: false, contradictions: [], related, embedded: true });
    const remembered = toolSuccess({ memoryId: 'm9', resolvedType: 'long-term', wasDeduped: false, outcome: 'created', related, memory });
    const updated = toolSuccess({ memory: { id: 'm9', version: 2 }, related });
    for (const [tool, result] of [
      ['create_memory', created],
      ['remember', remembered],
      ['update_memory', updated],
    ] as const) {
      const visible = visibleResult(tool, keyWith('memories:write'), result);
      expect(visible.structuredContent).not.toHaveProperty('related');
      expect(JSON.stringify(visible)).not.toContain(MARKER);
      expect(JSON.stringify(visible)).not.toContain('m3');
      expect(visibleResult(tool, keyWith('memories:read', 'memories:write'), result)).toBe(result);
    }
  });

  it('passes an error through unchanged: its message was written for any caller', () => {
    const error = toolError(new MemsvcError('NOT_FOUND', 'memory m7 was not found', { memoryId: 'm7' }));
    expect(visibleResult('promote_memory', keyWith('memories:write'), error)).toBe(error);
  });
});
