import { describe, expect, it } from 'vitest';
import { createMemoryEngine, MemsvcError, NO_TRACING, spanErrorCode, type TraceSpan, toTenantId } from '../src/index.js';
import {
  InMemoryErasureStore,
  InMemoryGrantStore,
  InMemoryMemoryStore,
  ManualClock,
  RecordingTracer,
  StaticEmbedder,
} from '../src/testing/index.js';

describe('NO_TRACING, the default tracer', () => {
  it('runs the work as it is and reports no span', async () => {
    expect(NO_TRACING.enabled).toBe(false);
    let seen: TraceSpan | undefined;
    const value = await NO_TRACING.inSpan('anything', { 'memsvc.count': 1 }, async (span) => {
      seen = span;
      span.setAttributes({ 'memsvc.more': true });
      span.fail('CONFLICT');
      expect(NO_TRACING.activeIds()).toBeUndefined();
      return 42;
    });
    expect(value).toBe(42);
    expect(seen).toBeDefined();
    expect(NO_TRACING.activeIds()).toBeUndefined();
  });

  it('passes a failure through unchanged', async () => {
    const error = new MemsvcError('NOT_FOUND', 'memory m1 was not found');
    await expect(NO_TRACING.inSpan('failing', {}, async () => Promise.reject(error))).rejects.toBe(error);
  });
});

describe('span error codes', () => {
  it("records a MemsvcError's code and INTERNAL for anything else, never a message", () => {
    expect(spanErrorCode(new MemsvcError('QUOTA_EXCEEDED', 'alice@example.com has 10000 memories'))).toBe('QUOTA_EXCEEDED');
    expect(spanErrorCode(new TypeError('secret-looking text'))).toBe('INTERNAL');
    expect(spanErrorCode('a thrown string')).toBe('INTERNAL');
  });

  it('a thrown error fails the span with its code, unless the work said why it failed first', async () => {
    const tracer = new RecordingTracer();
    await expect(
      tracer.inSpan('outer', {}, () =>
        tracer.inSpan('inner', {}, async () => Promise.reject(new MemsvcError('CONFLICT', 'version 3 is stale'))),
      ),
    ).rejects.toThrow('stale');
    await expect(
      tracer.inSpan('explained', {}, async (span) => {
        span.fail('23505');
        throw new Error('duplicate key value violates unique constraint');
      }),
    ).rejects.toThrow();
    expect(tracer.spans.map((span) => [span.name, span.errorCode, span.ended])).toEqual([
      ['outer', 'CONFLICT', true],
      ['inner', 'CONFLICT', true],
      ['explained', '23505', true],
    ]);
    const [outer, inner] = tracer.spans;
    expect(inner?.parentSpanId).toBe(outer?.spanId);
  });
});

describe('the engine in spans', () => {
  const tenant = toTenantId('alice@example.com', 'userId');
  const context = { tenant, actor: { id: 'agent:test' } };
  const setup = () => {
    const clock = new ManualClock('2026-05-01T10:00:00Z');
    const tracer = new RecordingTracer();
    const embedder = new StaticEmbedder({}, 'static-test', () => [1, 0, 0]);
    const store = new InMemoryMemoryStore({ clock });
    const grants = new InMemoryGrantStore();
    const engine = createMemoryEngine({ store, embedder, clock, tracer, grants, erasures: new InMemoryErasureStore(store, clock) });
    return { tracer, engine };
  };

  it('a create is a memory.create span with its embed and database stages, and says what it did', async () => {
    const { tracer, engine } = setup();
    const created = await engine.create(context, { content: 'Alice keeps her passport in the blue drawer', tier: 'ltm' });
    const span = tracer.only('memory.create');
    expect(span.attributes).toEqual({
      'memsvc.memory.tier': 'ltm',
      'memsvc.memory.id': created.memory.id,
      'memsvc.memory.outcome': 'created',
      'memsvc.memory.embedded': true,
      'memsvc.memory.contradictions': 0,
    });
    const stages = tracer.childrenOf(span);
    expect(stages.map((stage) => stage.name)).toEqual(['embed', 'database']);
    expect(stages[0]?.attributes).toEqual({ 'memsvc.embed.model': 'static-test', 'memsvc.embed.texts': 1, 'memsvc.embed.vectors': 1 });
    expect(stages[1]?.attributes).toEqual({ 'memsvc.db.step': 'write' });
  });

  it('a recall is a memory.recall span with embed, database and rank stages, then the access count in one more', async () => {
    const { tracer, engine } = setup();
    await engine.create(context, { content: 'Alice keeps her passport in the blue drawer', tier: 'ltm' });
    const recalled = await engine.recall(context, { query: 'where is the passport?', limit: 5 });
    const span = tracer.only('memory.recall');
    expect(span.attributes).toMatchObject({
      'memsvc.recall.limit': 5,
      'memsvc.recall.results': recalled.results.length,
      'memsvc.recall.vector': true,
      // The test's static embedder does not say it embeds meaning.
      'memsvc.recall.semantic': false,
    });
    expect(tracer.childrenOf(span).map((stage) => [stage.name, stage.attributes['memsvc.db.step']])).toEqual([
      ['embed', undefined],
      ['database', 'recall-candidates'],
      ['rank', undefined],
      ['database', 'record-access'],
    ]);
  });

  it('a refused create fails its span with the code; no span carries content, query or tenant', async () => {
    const { tracer, engine } = setup();
    await expect(engine.create(context, { content: ' ', tier: 'stm' })).rejects.toMatchObject({ code: 'INVALID_INPUT' });
    expect(tracer.named('memory.create')[0]?.errorCode).toBe('INVALID_INPUT');
    await engine.create(context, { content: 'Alice keeps her passport in the blue drawer', tier: 'ltm', metadata: { room: 'study' } });
    await engine.recall(context, { query: 'where is the passport?' });
    const everything = JSON.stringify(tracer.spans);
    for (const secret of ['passport', 'blue drawer', 'study', 'alice@example.com']) expect(everything).not.toContain(secret);
  });
});
