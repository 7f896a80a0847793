import type { MemsvcConfig } from '@memsvc/config';
import { NO_TRACING, type Tracer } from '@memsvc/core';

import type { RunningTracing, SpanDropReason, TracingEvents } from './running-tracing.js';

export type { RunningTracing, SpanDropReason, TracingEvents };

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
