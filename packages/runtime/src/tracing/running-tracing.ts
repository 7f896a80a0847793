import type { Tracer } from '@memsvc/core';
import type { SpanDropReason } from './bounded-span-processor.js';

export type { SpanDropReason };

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
