import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** An attribute value as OTLP/JSON encodes it, decoded. */
export type OtlpValue = string | number | boolean | undefined;

/** One received span, flattened: what the tests assert on. */
export interface CollectedSpan {
  readonly name: string;
  readonly traceId: string;
  readonly spanId: string;
  /** Empty for a root span. */
  readonly parentSpanId: string;
  readonly kind: number;
  readonly attributes: Readonly<Record<string, OtlpValue>>;
  /** 0 unset, 1 ok, 2 error (OTLP's StatusCode). */
  readonly statusCode: number;
  readonly statusMessage: string;
  readonly eventCount: number;
  readonly resource: Readonly<Record<string, OtlpValue>>;
}

/** How the collector answers: normally, with a 500, or after a long wait. */
export type CollectorBehaviour = 'ok' | 'error' | { readonly delayMs: number };

/** A loopback OTLP/HTTP collector for the JSON encoding, keeping everything it is sent. */
export interface OtlpCollector {
  /** The OTEL_EXPORTER_OTLP_ENDPOINT to give memsvc (spans arrive at `<endpoint>/v1/traces`). */
  readonly endpoint: string;
  /** Every span received so far, in arrival order. */
  spans(): CollectedSpan[];
  /** Every request body received so far, as sent: for searching the whole payload for a string. */
  rawBodies(): string[];
  /** Paths and content types of the requests received. */
  requests(): { path: string; contentType: string | undefined }[];
  /** Resolves once `predicate` holds for the spans received (polling), or rejects after `timeoutMs`. */
  waitFor(predicate: (spans: CollectedSpan[]) => boolean, timeoutMs?: number): Promise<CollectedSpan[]>;
  close(): Promise<void>;
}

/**
 * Starts a collector on 127.0.0.1 with an ephemeral port. It decodes each
 * `ExportTraceServiceRequest` (resourceSpans → scopeSpans → spans) the way the OTLP/JSON
 * encoding defines it: ids in hex, attribute values as `{stringValue | intValue | …}`.
 */
export async function startOtlpCollector(behaviour: CollectorBehaviour = 'ok'): Promise<OtlpCollector> {
  const received: CollectedSpan[] = [];
  const bodies: string[] = [];
  const requests: { path: string; contentType: string | undefined }[] = [];
  const waiting = new Set<ServerResponse>();
  const server: Server = createServer((request, response) => {
    void readBody(request).then((body) => {
      requests.push({ path: request.url ?? '', contentType: request.headers['content-type'] });
      bodies.push(body);
      if (behaviour === 'error') return answer(response, 500, '{"code":13,"message":"collector failing on purpose"}');
      if (typeof behaviour === 'object') {
        // Slow, not down: the request is read, and answered (too late) after the delay.
        waiting.add(response);
        setTimeout(() => {
          waiting.delete(response);
          if (!response.destroyed) answer(response, 200, '{}');
        }, behaviour.delayMs).unref();
        return;
      }
      received.push(...decodeSpans(body));
      answer(response, 200, '{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    spans: () => [...received],
    rawBodies: () => [...bodies],
    requests: () => [...requests],
    waitFor: async (predicate, timeoutMs = 10_000) => {
      const deadline = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > deadline) throw new Error(`the collector did not receive the expected spans in ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      return [...received];
    },
    close: async () => {
      for (const response of waiting) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** An address on loopback where nothing listens: a collector that is down. */
export async function unusedLoopbackEndpoint(): Promise<string> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** The spans of one trace, each with its children, for asserting on the tree. */
export function childrenOf(spans: readonly CollectedSpan[], parent: CollectedSpan): CollectedSpan[] {
  return spans.filter((span) => span.traceId === parent.traceId && span.parentSpanId === parent.spanId);
}

interface OtlpAttribute {
  key: string;
  value?: { stringValue?: string; intValue?: string | number; doubleValue?: number; boolValue?: boolean };
}

interface OtlpRequest {
  resourceSpans?: {
    resource?: { attributes?: OtlpAttribute[] };
    scopeSpans?: {
      spans?: {
        name: string;
        traceId: string;
        spanId: string;
        parentSpanId?: string;
        kind?: number;
        attributes?: OtlpAttribute[];
        status?: { code?: number; message?: string };
        events?: unknown[];
      }[];
    }[];
  }[];
}

function decodeSpans(body: string): CollectedSpan[] {
  const request = JSON.parse(body) as OtlpRequest;
  return (request.resourceSpans ?? []).flatMap((resourceSpans) => {
    const resource = attributesOf(resourceSpans.resource?.attributes);
    return (resourceSpans.scopeSpans ?? []).flatMap((scope) =>
      (scope.spans ?? []).map((span) => ({
        name: span.name,
        traceId: span.traceId,
        spanId: span.spanId,
        parentSpanId: span.parentSpanId ?? '',
        kind: span.kind ?? 0,
        attributes: attributesOf(span.attributes),
        statusCode: span.status?.code ?? 0,
        statusMessage: span.status?.message ?? '',
        eventCount: span.events?.length ?? 0,
        resource,
      })),
    );
  });
}

function attributesOf(attributes: OtlpAttribute[] | undefined): Record<string, OtlpValue> {
  const decoded: Record<string, OtlpValue> = {};
  for (const { key, value } of attributes ?? []) {
    if (!value) continue;
    if (value.intValue !== undefined) decoded[key] = Number(value.intValue);
    else decoded[key] = value.stringValue ?? value.doubleValue ?? value.boolValue;
  }
  return decoded;
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function answer(response: ServerResponse, status: number, body: string): void {
  response.writeHead(status, { 'Content-Type': 'application/json' });
  response.end(body);
}
