import { ExportResultCode } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { defaultResource, resourceFromAttributes } from '@opentelemetry/resources';
import { BasicTracerProvider } from '@opentelemetry/sdk-trace-base';
import { BoundedSpanProcessor } from './bounded-span-processor.js';
import { ContextTracer } from './context-tracer.js';
import type { RunningTracing, TracingEvents } from './running-tracing.js';

/** How spans leave the process (TRACE_EXPORT_DEFAULTS). */
export interface TraceExportTuning {
  readonly exportTimeoutMs: number;
  readonly flushIntervalMs: number;
  readonly maxQueueSize: number;
  readonly maxBatchSize: number;
  readonly shutdownTimeoutMs: number;
}

/**
 * A healthy collector answers in milliseconds; these bound what an unhealthy one can cost: a
 * request waits at most 5 s, at most 4,096 spans wait meanwhile (a few seconds of a busy
 * server, a few MB), and shutdown gives up after 2 s.
 */
export const TRACE_EXPORT_DEFAULTS: TraceExportTuning = Object.freeze({
  exportTimeoutMs: 5_000,
  flushIntervalMs: 1_000,
  maxQueueSize: 4_096,
  maxBatchSize: 512,
  shutdownTimeoutMs: 2_000,
});

export interface OtlpTracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: spans go to `<endpoint>/v1/traces` (spec §2.5). */
  readonly endpoint: string;
  readonly serviceName: string;
  readonly resourceAttributes: Readonly<Record<string, string>>;
  readonly events: TracingEvents;
  /** Overrides of TRACE_EXPORT_DEFAULTS (tests). */
  readonly tuning?: Partial<TraceExportTuning>;
}

/**
 * OpenTelemetry, set up for memsvc: an OTLP/HTTP (JSON) exporter behind a bounded queue, a
 * resource naming the service and OTEL_RESOURCE_ATTRIBUTES, and core's Tracer over it. Nothing
 * is registered globally: the spans are memsvc's own, started through the returned tracer.
 */
export function startOtlpTracing(options: OtlpTracingOptions): RunningTracing {
  const tuning = { ...TRACE_EXPORT_DEFAULTS, ...options.tuning };
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint}/v1/traces`, timeoutMillis: tuning.exportTimeoutMs });
  let failing = false;
  const processor = new BoundedSpanProcessor({
    exporter,
    ...tuning,
    onDropped: options.events.onDropped,
    onExport: (result) => {
      const ok = result.code === ExportResultCode.SUCCESS;
      // Told once per outage, not once per batch: a down collector would otherwise flood the log.
      if (ok === !failing) return;
      failing = !ok;
      if (ok) options.events.onExportRecovered?.();
      else options.events.onExportFailing?.(result.error);
    },
  });
  // service.name last: OTEL_SERVICE_NAME (or its default) names the service, whatever the attributes say.
  const resource = defaultResource().merge(resourceFromAttributes({ ...options.resourceAttributes, 'service.name': options.serviceName }));
  const provider = new BasicTracerProvider({ resource, spanProcessors: [processor] });
  return {
    tracer: new ContextTracer(provider.getTracer('memsvc')),
    shutdown: () => processor.shutdown(),
  };
}
