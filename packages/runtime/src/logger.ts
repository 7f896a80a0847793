import { isSecret, type LogLevel } from '@memsvc/core';
import pino, { type Logger } from 'pino';

/**
 * Structured JSON logs on stderr — always stderr, because over stdio the protocol owns stdout.
 * Secrets are safe twice over: config secrets are `Secret` objects that serialise as
 * [REDACTED], and the usual places a credential appears in a log object are redacted by path.
 */
export function createLogger(level: LogLevel, destination: pino.DestinationStream = pino.destination(2)): Logger {
  return pino(
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
      hooks: {
        // A Secret passed as a log argument (not inside an object) still prints redacted.
        logMethod(args, method) {
          method.apply(this, args.map((arg) => (isSecret(arg) ? '[REDACTED]' : arg)) as Parameters<typeof method>);
        },
      },
    },
    destination,
  );
}

export type { Logger };
