import type { MemsvcConfig } from '@memsvc/config';
import { NO_TRACING, type Tracer } from '@memsvc/core';

/** Why spans were given up (the `reason` label of memsvc_trace_spans_dropped_total). */
export type SpanDropReason = 'queue_full' | 'export_failed' | 'shutdown';

/** What the runtime hears from tracing: dropped spans, and the collector failing or coming back. */
export interface TracingEvents {
  readonly onDropped: (count: number, reason: SpanDropReason) => void;
  /** The first failed export after a success (or the start): the collector is down, slow or refusing. */
  readonly onExportFailing?: (error: Error | undefined) => void;
  /** The first successful export after failures. */
  readonly onExportRecovered?: () => void;
}

/** Tracing, running: the tracer to hand out, and a shutdown that flushes within a bounded time. */
export interface RunningTracing {
  readonly tracer: Tracer;
  /** Sends the spans still queued (a few seconds at most, whatever the collector does), then stops. */
  shutdown(): Promise<void>;
}

const TRACING_OFF: RunningTracing = Object.freeze({ tracer: NO_TRACING, shutdown: async () => undefined });

/**
 * Tracing as the configuration asks (spec §2.5): off without OTEL_EXPORTER_OTLP_ENDPOINT, and
 * then not one module of OpenTelemetry is loaded — the exporter and the SDK sit behind this
 * dynamic import, which the app bundles put in a chunk of their own.
 */
export async function openTracing(telemetry: MemsvcConfig['telemetry'], events: TracingEvents): Promise<RunningTracing> {
  if (telemetry.otlpEndpoint === undefined) return TRACING_OFF;
  const { startOtlpTracing } = await import('./otlp-tracing.js');
  return startOtlpTracing({
    endpoint: telemetry.otlpEndpoint,
    serviceName: telemetry.serviceName,
    resourceAttributes: telemetry.resourceAttributes,
    events,
  });
}
