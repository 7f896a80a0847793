import {
  type SpanAttributes,
  type SpanAttributeValue,
  spanErrorCode,
  type TraceIds,
  type Tracer,
  type TraceSpan,
} from '../ports/tracer.js';

/** One span as the RecordingTracer saw it. */
export interface RecordedSpan {
  readonly name: string;
  readonly spanId: string;
  /** The span that was in progress when this one started; undefined for a root. */
  readonly parentSpanId: string | undefined;
  readonly attributes: Record<string, SpanAttributeValue>;
  /** The code the span failed with, if it failed. */
  errorCode: string | undefined;
  ended: boolean;
}

/**
 * A Tracer for tests that keeps every span in memory, in start order. Core has no async context
 * to follow, so the parent is the innermost span still open: exact for work that runs one span
 * at a time (a test awaiting one call), not for concurrent calls.
 */
export class RecordingTracer implements Tracer {
  readonly enabled = true;
  readonly spans: RecordedSpan[] = [];
  readonly #open: RecordedSpan[] = [];

  async inSpan<T>(name: string, attributes: SpanAttributes, work: (span: TraceSpan) => Promise<T>): Promise<T> {
    const recorded: RecordedSpan = {
      name,
      spanId: String(this.spans.length + 1).padStart(16, '0'),
      parentSpanId: this.#open.at(-1)?.spanId,
      attributes: {},
      errorCode: undefined,
      ended: false,
    };
    const span: TraceSpan = {
      setAttributes: (more) => copyDefined(recorded.attributes, more),
      fail: (code) => {
        recorded.errorCode = code;
      },
    };
    copyDefined(recorded.attributes, attributes);
    this.spans.push(recorded);
    this.#open.push(recorded);
    try {
      return await work(span);
    } catch (error) {
      recorded.errorCode ??= spanErrorCode(error);
      throw error;
    } finally {
      recorded.ended = true;
      this.#open.splice(this.#open.lastIndexOf(recorded), 1);
    }
  }

  activeIds(): TraceIds | undefined {
    const current = this.#open.at(-1);
    return current && { traceId: `${'0'.repeat(31)}1`, spanId: current.spanId };
  }

  /** The spans of this name, in start order. */
  named(name: string): RecordedSpan[] {
    return this.spans.filter((span) => span.name === name);
  }

  /** The one span of this name; throws when there is none or more than one. */
  only(name: string): RecordedSpan {
    const found = this.named(name);
    const [span] = found;
    if (found.length !== 1 || span === undefined) throw new Error(`expected one span named ${name}, found ${found.length}`);
    return span;
  }

  /** The direct children of a span, in start order. */
  childrenOf(parent: RecordedSpan): RecordedSpan[] {
    return this.spans.filter((span) => span.parentSpanId === parent.spanId);
  }
}

function copyDefined(target: Record<string, SpanAttributeValue>, attributes: SpanAttributes): void {
  for (const [key, value] of Object.entries(attributes)) if (value !== undefined) target[key] = value;
}
