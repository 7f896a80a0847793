import { AsyncLocalStorage } from 'node:async_hooks';
import { type SpanAttributes, spanErrorCode, type TraceIds, type Tracer, type TraceSpan } from '@memsvc/core';
import {
  type Attributes,
  type Context,
  isSpanContextValid,
  type Tracer as OtelTracer,
  ROOT_CONTEXT,
  type Span,
  SpanKind,
  SpanStatusCode,
  trace,
} from '@opentelemetry/api';

/**
 * Core's Tracer over an OpenTelemetry tracer. The span in progress follows the work across
 * awaits in an AsyncLocalStorage of this tracer's own — not OpenTelemetry's global context
 * manager — so two runtimes in one process (tests, an embedding app with its own tracing) never
 * see each other's spans.
 */
export class ContextTracer implements Tracer {
  readonly enabled = true;
  readonly #contexts = new AsyncLocalStorage<Context>();

  constructor(private readonly tracer: OtelTracer) {}

  inSpan<T>(name: string, attributes: SpanAttributes, work: (span: TraceSpan) => Promise<T>): Promise<T> {
    const parent = this.#contexts.getStore() ?? ROOT_CONTEXT;
    const span = this.tracer.startSpan(name, { kind: kindOf(attributes), attributes: defined(attributes) }, parent);
    const handle = new SpanHandle(span);
    let running: Promise<T>;
    try {
      running = this.#contexts.run(trace.setSpan(parent, span), work, handle);
    } catch (error) {
      running = Promise.reject(error);
    }
    return running.then(
      (value) => {
        this.#end(span);
        return value;
      },
      (error: unknown) => {
        handle.failOnce(spanErrorCode(error));
        this.#end(span);
        throw error;
      },
    );
  }

  /**
   * Ends a span outside every span: ending one may start an export (a timer, a request to the
   * collector), which must not run as part of — or log into — whatever request happened to be
   * in progress.
   */
  #end(span: Span): void {
    this.#contexts.exit(() => span.end());
  }

  activeIds(): TraceIds | undefined {
    const active = this.#contexts.getStore();
    const ids = active && trace.getSpanContext(active);
    return ids && isSpanContextValid(ids) ? { traceId: ids.traceId, spanId: ids.spanId } : undefined;
  }
}

/** The span as the traced work sees it: attributes and a failure code, nothing else (no events, no exception). */
class SpanHandle implements TraceSpan {
  #failed = false;

  constructor(private readonly span: Span) {}

  setAttributes(attributes: SpanAttributes): void {
    this.span.setAttributes(defined(attributes));
  }

  fail(code: string): void {
    this.#failed = true;
    // The code only: OpenTelemetry's recordException would export the message and the stack.
    this.span.setAttribute('error.type', code);
    this.span.setStatus({ code: SpanStatusCode.ERROR, message: code });
  }

  /** A thrown error's code, unless the work already said why it failed. */
  failOnce(code: string): void {
    if (!this.#failed) this.fail(code);
  }
}

/**
 * The span kind, read off the semantic-convention attribute each kind carries: an HTTP request
 * span is the server side of a call, a database statement the client side of one.
 */
function kindOf(attributes: SpanAttributes): SpanKind {
  if (attributes['http.request.method'] !== undefined) return SpanKind.SERVER;
  if (attributes['db.system'] !== undefined) return SpanKind.CLIENT;
  return SpanKind.INTERNAL;
}

function defined(attributes: SpanAttributes): Attributes {
  const kept: Attributes = {};
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) kept[key] = value;
  return kept;
}
