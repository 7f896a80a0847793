import {
  type MemoryStore,
  type NewMemory,
  type NewMemoryUnit,
  type TenantId,
  toTenantId,
  type WriteOutcome,
  writeRules,
} from '@memsvc/core';
import { ManualClock, writeMemory } from '@memsvc/core/testing';
import { beforeEach, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { describeEachStore } from './support/each-store.js';

const at = (similarity: number) => [similarity, Math.sqrt(1 - similarity ** 2), 0];
const rules = (content: string) =>
  writeRules(
    { duplicateThreshold: 0.97, contradictionThreshold: 0.8, contradictionThresholdMax: 0.97, contradictionPolicy: 'flag' },
    { content },
  );
const actor = { id: 'test' };

/** Writes that meet each branch of the plan: a plain insert, an exact and a near duplicate, a contradiction, a changed fact. */
const WRITES: readonly NewMemory[] = [
  { tier: 'ltm', content: 'The deploy target is eu-west-1', embedding: { vector: [1, 0, 0], model: 'm' } },
  { tier: 'ltm', content: 'the deploy target is EU-WEST-1', embedding: { vector: [1, 0, 0], model: 'm' } },
  { tier: 'ltm', content: 'Deploys go to eu-west-1 region', embedding: { vector: at(0.99), model: 'm' } },
  { tier: 'ltm', content: 'The deploy target is us-east-1', embedding: { vector: at(0.85), model: 'm' } },
  { tier: 'ltm', content: 'Alice lives in Paris', embedding: { vector: [0, 0, 1], model: 'm' } },
  { tier: 'ltm', content: 'Alice moved to Berlin, so Alice lives in Berlin now', embedding: { vector: [0, 1, 0], model: 'm' } },
];

/** The store with its units' fast path hidden: core then asks for the candidates and inserts on its own. */
function withoutFastPath(store: MemoryStore): Pick<MemoryStore, 'writeUnit'> {
  return {
    writeUnit: (tenant, unitActor, memory, work) =>
      store.writeUnit(tenant, unitActor, memory, (unit) =>
        work(
          new Proxy(unit, {
            get: (target, key) => {
              if (key === 'insertUnlessRelevant') return undefined;
              const value = Reflect.get(target, key, target) as unknown;
              return typeof value === 'function' ? value.bind(target) : value;
            },
          }) as NewMemoryUnit,
        ),
      ),
  };
}

/** What a write did, without the ids and times that differ between two tenants. */
function shape(outcome: WriteOutcome) {
  return {
    decision: outcome.decision.kind,
    contradicted: outcome.memory.contradicted,
    affected: outcome.affected.map((memory) => ({
      content: memory.content,
      contradicted: memory.contradicted,
      replaced: !!memory.replacedBy,
    })),
  };
}

describeEachStore('write unit', (kind) => {
  const clock = new ManualClock('2026-04-01T09:00:00.000Z');
  const store = kind.use({ clock, dimensions: 3 });

  beforeEach(async () => {
    await store.reset();
  });

  const writeAll = async (target: Pick<MemoryStore, 'writeUnit'>, tenant: TenantId) => {
    const outcomes: ReturnType<typeof shape>[] = [];
    for (const memory of WRITES) outcomes.push(shape(await writeMemory(target, tenant, memory, actor, rules(memory.content))));
    return outcomes;
  };

  it(
    verifies('R-WRITE-FAST', "the store's one-step insert and core's candidates-then-insert give the same outcome, write by write"),
    async () => {
      const fast = await writeAll(store.memories, toTenantId('alice'));
      const stepwise = await writeAll(withoutFastPath(store.memories), toTenantId('bob'));
      expect(fast.map((outcome) => outcome.decision)).toEqual(['insert', 'collapse', 'collapse', 'insert', 'insert', 'insert']);
      expect(fast[3]?.affected).toEqual([{ content: 'The deploy target is eu-west-1', contradicted: true, replaced: false }]);
      expect(stepwise).toEqual(fast);
      expect(await store.rowCount(toTenantId('bob'))).toBe(await store.rowCount(toTenantId('alice')));
    },
  );
});
