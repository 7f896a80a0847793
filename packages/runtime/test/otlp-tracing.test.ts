import { Writable } from 'node:stream';
import { loadConfig } from '@memsvc/config';
import { MemsvcError, NO_TRACING, toTenantId } from '@memsvc/core';
import { afterEach, describe, expect, it } from 'vitest';
import { type CollectorBehaviour, childrenOf, type OtlpCollector, startOtlpCollector } from '../../../tooling/vitest/otlp-collector.ts';
import { createLogger, logTraceIds, openRuntime, openTracing, type SpanDropReason } from '../src/index.js';
import { startOtlpTracing } from '../src/tracing/otlp-tracing.js';

const collectors: OtlpCollector[] = [];
afterEach(async () => {
  for (const collector of collectors.splice(0)) await collector.close();
});

async function collector(behaviour?: CollectorBehaviour) {
  const started = await startOtlpCollector(behaviour);
  collectors.push(started);
  return started;
}

/** Tracing to a collector, flushing fast, counting what it drops. */
function tracingTo(endpoint: string, tuning: Parameters<typeof startOtlpTracing>[0]['tuning'] = {}) {
  const dropped: Partial<Record<SpanDropReason, number>> = {};
  const tracing = startOtlpTracing({
    endpoint,
    serviceName: 'memsvc-test',
    resourceAttributes: { 'deployment.environment': 'test', 'service.name': 'overridden' },
    events: {
      onDropped: (count, reason) => {
        dropped[reason] = (dropped[reason] ?? 0) + count;
      },
    },
    tuning: { flushIntervalMs: 20, exportTimeoutMs: 500, shutdownTimeoutMs: 1_000, ...tuning },
  });
  return { ...tracing, dropped };
}

describe('OpenTelemetry tracing over OTLP/HTTP', () => {
  it('exports nested spans to <endpoint>/v1/traces with the service name and resource attributes', async () => {
    const otlp = await collector();
    const { tracer, shutdown } = tracingTo(otlp.endpoint);
    let inner: { traceId: string; spanId: string } | undefined;
    await tracer.inSpan('POST /mcp', { 'http.request.method': 'POST', 'http.route': '/mcp' }, async () => {
      await tracer.inSpan('memory.create', { 'memsvc.memory.tier': 'ltm', 'memsvc.unset': undefined }, async (span) => {
        await tracer.inSpan('SELECT', { 'db.system': 'postgresql', 'db.operation.name': 'SELECT' }, async () => {
          inner = tracer.activeIds();
        });
        span.setAttributes({ 'memsvc.memory.id': 'm-1', 'memsvc.memory.embedded': true, 'memsvc.memory.contradictions': 0 });
      });
    });
    expect(tracer.activeIds()).toBeUndefined();
    await shutdown();

    expect(otlp.requests()).toEqual([{ path: '/v1/traces', contentType: 'application/json' }]);
    const spans = otlp.spans();
    const root = spans.find((span) => span.name === 'POST /mcp');
    const create = spans.find((span) => span.name === 'memory.create');
    const statement = spans.find((span) => span.name === 'SELECT');
    expect(root?.parentSpanId).toBe('');
    expect(root && childrenOf(spans, root)).toEqual([create]);
    expect(create && childrenOf(spans, create)).toEqual([statement]);
    expect(inner).toEqual({ traceId: statement?.traceId, spanId: statement?.spanId });
    expect(create?.attributes).toEqual({
      'memsvc.memory.tier': 'ltm',
      'memsvc.memory.id': 'm-1',
      'memsvc.memory.embedded': true,
      'memsvc.memory.contradictions': 0,
    });
    // OTLP's SpanKind: 1 internal, 2 server, 3 client.
    expect([root?.kind, create?.kind, statement?.kind]).toEqual([2, 1, 3]);
    expect(root?.resource).toMatchObject({ 'service.name': 'memsvc-test', 'deployment.environment': 'test' });
  });

  it('a failure records the error code as status and error.type — no message, no exception event', async () => {
    const otlp = await collector();
    const { tracer, shutdown } = tracingTo(otlp.endpoint);
    const refusal = new MemsvcError('QUOTA_EXCEEDED', 'bob@example.com already keeps 10000 memories');
    await expect(tracer.inSpan('memory.create', {}, async () => Promise.reject(refusal))).rejects.toBe(refusal);
    await expect(tracer.inSpan('bug', {}, async () => Promise.reject(new TypeError('cannot read content of undefined')))).rejects.toThrow();
    await tracer.inSpan('INSERT', { 'db.system': 'postgresql' }, async (span) => span.fail('23505'));
    await shutdown();
    expect(
      otlp.spans().map((span) => [span.name, span.statusCode, span.statusMessage, span.attributes['error.type'], span.eventCount]),
    ).toEqual([
      ['memory.create', 2, 'QUOTA_EXCEEDED', 'QUOTA_EXCEEDED', 0],
      ['bug', 2, 'INTERNAL', 'INTERNAL', 0],
      ['INSERT', 2, '23505', '23505', 0],
    ]);
    const payload = otlp.rawBodies().join('');
    for (const secret of ['bob@example.com', '10000 memories', 'cannot read content']) expect(payload).not.toContain(secret);
  });

  it('keeps concurrent work apart: each span nests under its own parent across awaits', async () => {
    const otlp = await collector();
    const { tracer, shutdown } = tracingTo(otlp.endpoint);
    const pause = () => new Promise((resolve) => setTimeout(resolve, 5));
    const request = (name: string) =>
      tracer.inSpan(name, {}, async () => {
        await pause();
        await tracer.inSpan(`${name}.child`, {}, async () => pause());
      });
    await Promise.all([request('a'), request('b'), request('c')]);
    await shutdown();
    const spans = otlp.spans();
    for (const name of ['a', 'b', 'c']) {
      const parent = spans.find((span) => span.name === name);
      expect(parent && childrenOf(spans, parent).map((span) => span.name)).toEqual([`${name}.child`]);
    }
  });

  it('log lines written inside a span carry its trace_id and span_id, from children of the logger too', async () => {
    const otlp = await collector();
    const { tracer, shutdown } = tracingTo(otlp.endpoint);
    const lines: string[] = [];
    const logger = createLogger(
      'info',
      new Writable({
        write: (chunk, _encoding, done) => {
          lines.push(String(chunk));
          done();
        },
      }),
    );
    logTraceIds(logger, tracer);
    logger.info('before');
    let ids: { traceId: string; spanId: string } | undefined;
    await tracer.inSpan('job stm-sweep', {}, async () => {
      ids = tracer.activeIds();
      logger.child({ component: 'jobs' }).info({ swept: 3 }, 'inside');
    });
    await shutdown();
    const [before, inside] = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(before).not.toHaveProperty('trace_id');
    expect(inside).toMatchObject({ msg: 'inside', component: 'jobs', swept: 3, trace_id: ids?.traceId, span_id: ids?.spanId });
  });
});

describe('a collector that fails never slows the traced work', () => {
  const work = async (tracer: ReturnType<typeof tracingTo>['tracer']) => {
    const started = performance.now();
    for (let call = 0; call < 50; call++) {
      await tracer.inSpan('mcp.tool recall', {}, async () => tracer.inSpan('memory.recall', {}, async () => undefined));
    }
    return performance.now() - started;
  };

  it.each([
    ['answers 500', 'error'],
    ['takes 10 s to answer', { delayMs: 10_000 }],
  ] as const)('when it %s, spans are counted as dropped and shutdown still ends promptly', async (_case, behaviour) => {
    const otlp = await collector(behaviour);
    const tracing = tracingTo(otlp.endpoint, { exportTimeoutMs: 300 });
    expect(await work(tracing.tracer)).toBeLessThan(1_000);
    const deadline = Date.now() + 5_000;
    while ((tracing.dropped.export_failed ?? 0) === 0 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(tracing.dropped.export_failed).toBeGreaterThan(0);
    const stopping = performance.now();
    await tracing.shutdown();
    expect(performance.now() - stopping).toBeLessThan(1_500);
  });

  it('when it is slower than the spans come, the queue stays bounded and the rest are dropped', async () => {
    const otlp = await collector({ delayMs: 10_000 });
    const tracing = tracingTo(otlp.endpoint, { maxQueueSize: 10, maxBatchSize: 5, exportTimeoutMs: 5_000, shutdownTimeoutMs: 200 });
    expect(await work(tracing.tracer)).toBeLessThan(1_000);
    // One batch of 5 in flight, 10 queued: the other 85 of the 100 spans are dropped.
    expect(tracing.dropped.queue_full).toBe(85);
    const stopping = performance.now();
    await tracing.shutdown();
    expect(performance.now() - stopping).toBeLessThan(1_000);
    expect(tracing.dropped.shutdown).toBe(10);
  });
});

describe('tracing configuration', () => {
  it('without an endpoint, tracing is NO_TRACING and nothing is loaded', async () => {
    const tracing = await openTracing(
      { otlpEndpoint: undefined, serviceName: 'memsvc-mcp-server', resourceAttributes: {} },
      { onDropped: () => undefined },
    );
    expect(tracing.tracer).toBe(NO_TRACING);
    await tracing.shutdown();
  });

  it('a runtime with an endpoint traces the engine and its statements, and counts dropped spans in its metrics', async () => {
    const otlp = await collector();
    const { config } = loadConfig(
      {
        DATABASE_URL: 'pglite://memory',
        EMBEDDING_PROVIDER: 'local',
        OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint,
        OTEL_SERVICE_NAME: 'memsvc-runtime-test',
      },
      { homeDir: '/h' },
    );
    const runtime = await openRuntime(config, { applicationName: 'runtime-test', logger: createLogger('error') });
    expect(runtime.tracer.enabled).toBe(true);
    await runtime.engine.create(
      { tenant: toTenantId('alice'), actor: { id: 'test' } },
      { tier: 'ltm', content: 'Alice waters the ferns on Sundays' },
    );
    await runtime.close();
    const spans = otlp.spans();
    const create = spans.find((span) => span.name === 'memory.create');
    expect(create?.resource['service.name']).toBe('memsvc-runtime-test');
    const stages = create ? childrenOf(spans, create) : [];
    expect(stages.map((span) => span.name)).toEqual(['embed', 'database']);
    const write = stages.find((span) => span.name === 'database');
    expect(write && childrenOf(spans, write).map((span) => span.name)).toContain('BEGIN');
    expect(await runtime.metrics.registry.getSingleMetricAsString('memsvc_trace_spans_dropped_total')).toContain(
      '# TYPE memsvc_trace_spans_dropped_total counter',
    );
  });

  it('a reindex job run by the jobs is a memory.reindex span with the job id; idle polls leave no trace', async () => {
    const otlp = await collector();
    const { config } = loadConfig(
      { DATABASE_URL: 'pglite://memory', EMBEDDING_PROVIDER: 'local', OTEL_EXPORTER_OTLP_ENDPOINT: otlp.endpoint },
      { homeDir: '/h' },
    );
    const runtime = await openRuntime(config, { applicationName: 'runtime-test', logger: createLogger('error') });
    await runtime.engine.create(
      { tenant: toTenantId('alice'), actor: { id: 'test' } },
      { tier: 'ltm', content: 'Alice sails on Saturdays' },
    );
    const job = await runtime.maintenance.queueReindex({ reuseExistingEmbeddings: false }, 'test');
    const finished = new Promise<string>((resolve) => {
      runtime.startJobs({ unref: true, runner: { pollMs: 20, onFinished: (_job, state) => resolve(state) } });
    });
    expect(await finished).toBe('completed');
    // A few more idle polls before closing.
    await new Promise((resolve) => setTimeout(resolve, 100));
    await runtime.close();
    const spans = otlp.spans();
    const reindex = spans.filter((span) => span.name === 'memory.reindex');
    expect(reindex).toHaveLength(1);
    expect(reindex[0]?.attributes).toMatchObject({
      'memsvc.reindex.job_id': job.jobId,
      'memsvc.reindex.indexed': 1,
      'memsvc.reindex.stopped_by': 'end',
    });
    expect(reindex[0]?.parentSpanId).toBe('');
    // Every statement belongs to a span of a create or a run: none is a root of its own.
    expect(spans.filter((span) => span.attributes['db.system'] !== undefined && span.parentSpanId === '')).toEqual([]);
  });
});
