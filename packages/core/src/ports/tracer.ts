import { isMemsvcError } from '../errors/memsvc-error.js';

/** A value a span may carry. */
export type SpanAttributeValue = string | number | boolean;

/**
 * What a span says about its work: ids (memory ids, job ids), counts, tiers, flags and error
 * codes. Never memory content, a query, metadata values, credentials or a tenant id (which can
 * be an email address): spans leave the process for a collector the operator may share. An
 * undefined value is left out.
 */
export type SpanAttributes = Readonly<Record<string, SpanAttributeValue | undefined>>;

/** The span a piece of traced work runs in. */
export interface TraceSpan {
  /** Adds what was learnt while the work ran (the id created, a result count). */
  setAttributes(attributes: SpanAttributes): void;
  /**
   * Marks the span failed with a stable code (a MemsvcErrorCode, an SQLSTATE, an HTTP status),
   * never an error message: messages quote user input.
   */
  fail(code: string): void;
}

/** The ids of the span in progress, in the lower-case hex a log line carries. */
export interface TraceIds {
  readonly traceId: string;
  readonly spanId: string;
}

/**
 * Tracing as the engine, the tool pipeline, the HTTP edge and the store see it (spec §6 rule 2).
 * The adapter in the runtime exports spans over OTLP; NO_TRACING is the default everywhere, so
 * a memsvc without OTEL_EXPORTER_OTLP_ENDPOINT pays for nothing but a function call.
 */
export interface Tracer {
  /** False when spans go nowhere: a caller may skip work that only a span would use. */
  readonly enabled: boolean;
  /**
   * Runs `work` in a new span, a child of the span in progress (across awaits), and ends the
   * span when the work settles. A thrown error fails the span with spanErrorCode(error) unless
   * the work already called `fail`; the error is rethrown unchanged.
   */
  inSpan<T>(name: string, attributes: SpanAttributes, work: (span: TraceSpan) => Promise<T>): Promise<T>;
  /** The span in progress, or undefined outside any span (and always without tracing). */
  activeIds(): TraceIds | undefined;
}

const NO_SPAN: TraceSpan = Object.freeze({
  setAttributes: () => undefined,
  fail: () => undefined,
});

/** Tracing off: the work runs as it is, with a span that records nothing. */
export const NO_TRACING: Tracer = Object.freeze({
  enabled: false,
  inSpan: <T>(_name: string, _attributes: SpanAttributes, work: (span: TraceSpan) => Promise<T>) => work(NO_SPAN),
  activeIds: () => undefined,
});

/** The code a span records for a thrown value: a MemsvcError's code, INTERNAL for anything else (its message stays out). */
export function spanErrorCode(error: unknown): string {
  return isMemsvcError(error) ? error.code : 'INTERNAL';
}
