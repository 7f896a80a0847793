import { isSecret } from '@memsvc/access';
import type { LogLevel } from '@memsvc/config';
import { NO_TRACING, type Tracer } from '@memsvc/core';
import pino, { type Logger } from 'pino';

/** Where a logger finds the span in progress; openRuntime points it at the runtime's tracer. */
interface TraceSource {
  tracer: Tracer;
}

/** On the logger createLogger made, and so on every child of it (pino children inherit by prototype). */
const traceSource = Symbol('memsvc.traceSource');

/**
 * Structured JSON logs on stderr — always stderr, because over stdio the protocol owns stdout.
 * Secrets are safe twice over: config secrets are `Secret` objects that serialise as
 * [REDACTED], and the usual places a credential appears in a log object are redacted by path.
 */
export function createLogger(level: LogLevel, destination: pino.DestinationStream = pino.destination(2)): Logger {
  const source: TraceSource = { tracer: NO_TRACING };
  const logger = pino(
    {
      level,
      base: { service: 'memsvc' },
      redact: {
        paths: [
          'adminToken',
          '*.adminToken',
          'password',
          '*.password',
          'token',
          '*.token',
          'apiKey',
          '*.apiKey',
          'secret',
          '*.secret',
          'authorization',
          '*.authorization',
          'headers.authorization',
          'req.headers.authorization',
          'req.headers.cookie',
        ],
        censor: '[REDACTED]',
      },
      formatters: { level: (label) => ({ level: label }) },
      // A line written inside a span says which: trace_id and span_id join the log to the trace.
      // (A new object each time: pino merges the line's own fields into it.)
      mixin: () => {
        const ids = source.tracer.activeIds();
        return ids ? { trace_id: ids.traceId, span_id: ids.spanId } : {};
      },
      hooks: {
        // A Secret passed as a log argument (not inside an object) still prints redacted.
        logMethod(args, method) {
          method.apply(this, args.map((arg) => (isSecret(arg) ? '[REDACTED]' : arg)) as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
  return Object.assign(logger, { [traceSource]: source });
}

/**
 * Makes every line of a logger made by createLogger (or of any child of it) carry the ids of the
 * tracer's span in progress. A logger made elsewhere is left as it is.
 */
export function logTraceIds(logger: Logger, tracer: Tracer): void {
  const source = (logger as Logger & { [traceSource]?: TraceSource })[traceSource];
  if (source) source.tracer = tracer;
}

/**
 * A child of `logger` for lines that must be on record whatever LOG_LEVEL says — the admin-token
 * decisions (spec §5.6: one line for every admin call) and operator delegations. Its own level
 * is `info`, so `LOG_LEVEL=error` keeps these lines while it drops the rest of `info` and `warn`.
 */
export function auditLog(logger: Logger): Logger {
  return logger.child({}, { level: 'info' });
}

export type { Logger };
