import { TraceFlags } from '@opentelemetry/api';
import { type ExportResult, ExportResultCode } from '@opentelemetry/core';
import type { ReadableSpan, SpanExporter, SpanProcessor } from '@opentelemetry/sdk-trace-base';

/** Why spans were given up (the `reason` label of memsvc_trace_spans_dropped_total). */
export type SpanDropReason = 'queue_full' | 'export_failed' | 'shutdown';

export interface BoundedSpanProcessorOptions {
  readonly exporter: SpanExporter;
  /** Spans held while waiting for the collector; past this, new spans are dropped. */
  readonly maxQueueSize: number;
  /** Most spans in one export request. */
  readonly maxBatchSize: number;
  /** How long a span may wait for a batch to fill before it is sent anyway. */
  readonly flushIntervalMs: number;
  /** How long shutdown may spend sending what is queued. */
  readonly shutdownTimeoutMs: number;
  /** Every span given up, by reason (memsvc_trace_spans_dropped_total). */
  readonly onDropped: (count: number, reason: SpanDropReason) => void;
  /** Each export's outcome, so the app can say when the collector fails and when it is back. */
  readonly onExport?: (result: ExportResult) => void;
}

/**
 * Hands ended spans to the exporter in batches, one export in flight at a time, from a queue of
 * bounded size. Ending a span is an array push: a collector that is down, slow or failing costs
 * a request nothing but the spans it drops, and every dropped span is counted (the SDK's
 * BatchSpanProcessor drops silently, so it would hide an outage).
 */
export class BoundedSpanProcessor implements SpanProcessor {
  #queue: ReadableSpan[] = [];
  #timer: NodeJS.Timeout | undefined;
  #inFlight: Promise<void> | undefined;
  #closed = false;

  constructor(private readonly options: BoundedSpanProcessorOptions) {}

  onStart(): void {}

  onEnd(span: ReadableSpan): void {
    if ((span.spanContext().traceFlags & TraceFlags.SAMPLED) === 0) return;
    if (this.#closed || this.#queue.length >= this.options.maxQueueSize) {
      this.options.onDropped(1, this.#closed ? 'shutdown' : 'queue_full');
      return;
    }
    this.#queue.push(span);
    if (this.#queue.length >= this.options.maxBatchSize) this.#sendNext();
    else this.#arm();
  }

  /** Sends everything queued, batch after batch; resolves when the queue is empty and nothing is in flight. */
  async forceFlush(): Promise<void> {
    this.#disarm();
    while (this.#inFlight || this.#queue.length > 0) {
      if (!this.#inFlight) this.#sendNext();
      await this.#inFlight;
    }
  }

  /**
   * Stops taking spans, sends what is queued within shutdownTimeoutMs, and counts what could not
   * be sent in time as dropped. Resolves within about that long, whatever the collector does.
   */
  async shutdown(): Promise<void> {
    this.#closed = true;
    const deadline = performance.now() + this.options.shutdownTimeoutMs;
    const flushed = await settlesWithin(this.forceFlush(), this.options.shutdownTimeoutMs);
    if (!flushed) {
      const left = this.#queue.splice(0);
      if (left.length > 0) this.options.onDropped(left.length, 'shutdown');
    }
    // The exporter waits for its requests in flight; a slow collector must not hold shutdown.
    await settlesWithin(this.options.exporter.shutdown(), Math.max(0, deadline - performance.now()));
  }

  #arm(): void {
    if (this.#timer || this.#inFlight) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      this.#sendNext();
    }, this.options.flushIntervalMs);
    // Spans waiting for a batch never keep a process alive: shutdown flushes them.
    this.#timer.unref();
  }

  #disarm(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #sendNext(): void {
    if (this.#inFlight || this.#queue.length === 0) return;
    this.#disarm();
    const batch = this.#queue.splice(0, this.options.maxBatchSize);
    this.#inFlight = this.#export(batch).finally(() => {
      this.#inFlight = undefined;
      if (this.#queue.length >= this.options.maxBatchSize) this.#sendNext();
      else if (this.#queue.length > 0 && !this.#closed) this.#arm();
    });
  }

  async #export(batch: ReadableSpan[]): Promise<void> {
    const result = await new Promise<ExportResult>((resolve) => {
      try {
        this.options.exporter.export(batch, resolve);
      } catch (error) {
        resolve({ code: ExportResultCode.FAILED, error: error as Error });
      }
    });
    if (result.code !== ExportResultCode.SUCCESS) this.options.onDropped(batch.length, 'export_failed');
    this.options.onExport?.(result);
  }
}

/** Whether `promise` settled within `ms` (its failure counts as settled). */
async function settlesWithin(promise: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      timedOut,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
