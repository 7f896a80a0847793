import { createMemoryEngine, type TenantId } from '@memsvc/core';
import { ManualClock, RecordingTracer, StaticEmbedder } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sqlOperation } from '../src/connection/sql-operation.js';
import type { MemsvcStore } from '../src/index.js';
import { describeEachEngine } from './support/each-engine.js';
import { openTestStore } from './support/open-test-store.js';

describe('the operation keyword of a statement', () => {
  it('is the first word, past whitespace, comments and parentheses; anything unknown is OTHER', () => {
    expect(sqlOperation('select * from memories where id = $1')).toBe('SELECT');
    expect(sqlOperation('\n  -- the write path\n/* guarded */ WITH candidates AS (SELECT 1) INSERT INTO x VALUES (1)')).toBe('WITH');
    expect(sqlOperation('(select 1) union (select 2)')).toBe('SELECT');
    expect(sqlOperation('begin')).toBe('BEGIN');
    expect(sqlOperation("alice's memory")).toBe('OTHER');
    expect(sqlOperation('')).toBe('OTHER');
  });
});

describeEachEngine('statements as spans', (engine) => {
  const tenant = 'alice@example.com' as TenantId;
  const tracer = new RecordingTracer();
  let store: MemsvcStore;
  beforeAll(async () => {
    store = await openTestStore({ database: await engine.freshDatabaseUrl(), vector: { dimensions: 3 }, tracer });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('opening the store (migrations, checks) outside any span adds no span', () => {
    expect(tracer.spans).toEqual([]);
  });

  it("a create's statements nest in its database stage and carry db.system and the keyword only", async () => {
    const clock = new ManualClock('2026-05-01T10:00:00Z');
    const memories = createMemoryEngine({
      store: store.memories,
      embedder: new StaticEmbedder({}, 'static-test', () => [1, 0, 0]),
      clock,
      tracer,
      grants: store.grants,
      erasures: store.erasures,
    });
    await memories.create(
      { tenant, actor: { id: 'agent:test' } },
      { content: 'The spare key is under the third flowerpot', tier: 'ltm', tags: ['home'] },
    );
    const statements = tracer.childrenOf(tracer.only('database'));
    expect(statements.length).toBeGreaterThan(1);
    expect(statements.map((span) => span.name)).toContain('BEGIN');
    expect(statements.map((span) => span.name).at(-1)).toBe('COMMIT');
    for (const statement of statements) {
      expect(statement.attributes).toEqual({
        'db.system': 'postgresql',
        'db.operation.name': statement.name,
        'memsvc.db.engine': engine.name,
      });
    }
    const everything = JSON.stringify(tracer.spans);
    for (const secret of ['spare key', 'flowerpot', 'home', 'alice@example.com', 'memories']) expect(everything).not.toContain(secret);
  });

  it('a failing statement fails its span with the SQLSTATE, not the message', async () => {
    const before = tracer.spans.length;
    await expect(tracer.inSpan('test', {}, () => sql`SELECT 1 / 0`.execute(store.connection.db))).rejects.toThrow(/division by zero/);
    const [test, statement] = tracer.spans.slice(before);
    expect(statement).toMatchObject({ name: 'SELECT', parentSpanId: test?.spanId, errorCode: '22012' });
    expect(statement?.attributes['db.response.status_code']).toBe('22012');
  });
});
