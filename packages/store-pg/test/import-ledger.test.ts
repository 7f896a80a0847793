import { type ImportLedgerEntry, toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { beforeEach, expect, it } from 'vitest';
import type { MemsvcStore } from '../src/index.js';
import { describeEachEngine } from './support/each-engine.js';
import { useSuiteStore } from './support/suite-store.js';

const START = '2026-05-01T09:00:00.000Z';
const alice = toTenantId('alice');
const bob = toTenantId('bob');
const actor = { id: 'test' };

describeEachEngine('import ledger', (engine) => {
  const clock = new ManualClock(START);
  const opened = useSuiteStore(engine, clock, { tables: ['memories', 'memory_import_ledger'], start: START });
  let store: MemsvcStore;
  beforeEach(() => {
    store = opened.current;
  });

  const entry = async (tenant = alice, overrides: Partial<ImportLedgerEntry> = {}): Promise<ImportLedgerEntry> => {
    const memory = await store.memories.insertAsGiven(tenant, { tier: 'ltm', content: `section of ${tenant} ${Math.random()}` }, actor);
    return {
      source: 'claude-code',
      root: '/home/dev/project',
      file: 'CLAUDE.md',
      section: 'testing',
      memoryId: memory.id,
      fingerprint: 'f1',
      memoryVersion: 1,
      importedAt: clock.now(),
      ...overrides,
    };
  };

  it('records an entry per (tenant, source, root, file, section) and replaces it on the next record', async () => {
    const first = await entry();
    await store.importLedger.record(alice, first);
    expect(await store.importLedger.entries(alice, 'claude-code', '/home/dev/project')).toEqual([first]);

    const later = { ...first, fingerprint: 'f2', memoryVersion: 2, importedAt: new Date('2026-05-02T00:00:00.000Z') };
    await store.importLedger.record(alice, later);
    const style = { ...first, section: 'style' };
    await store.importLedger.record(alice, style);
    const entries = await store.importLedger.entries(alice, 'claude-code', '/home/dev/project');
    expect([...entries].sort((a, b) => a.section.localeCompare(b.section))).toEqual([style, later]);
  });

  it('keeps tenants, sources and roots apart', async () => {
    const mine = await entry();
    await store.importLedger.record(alice, mine);
    await store.importLedger.record(bob, await entry(bob));
    await store.importLedger.record(alice, { ...mine, source: 'codex' });
    await store.importLedger.record(alice, { ...mine, root: '/home/dev/other' });
    expect(await store.importLedger.entries(alice, 'claude-code', '/home/dev/project')).toEqual([mine]);
    expect(await store.importLedger.entries(bob, 'claude-code', '/home/dev/other')).toEqual([]);
    expect(await store.importLedger.entries(toTenantId('carol'), 'claude-code', '/home/dev/project')).toEqual([]);
  });

  it('drops the entries of a memory purged for good, and keeps those of a soft-deleted one', async () => {
    const purged = await entry();
    const deleted = await entry(alice, { section: 'style' });
    await store.importLedger.record(alice, purged);
    await store.importLedger.record(alice, deleted);
    expect(await store.memories.softDelete(alice, deleted.memoryId, actor)).toBe(true);
    await sql`DELETE FROM memories WHERE id = ${purged.memoryId}`.execute(store.connection.db);
    expect(await store.importLedger.entries(alice, 'claude-code', '/home/dev/project')).toEqual([deleted]);
  });
});
