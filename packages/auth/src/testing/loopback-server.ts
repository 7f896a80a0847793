import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a fake answers: a status, headers and a text body. */
export interface LoopbackReply {
  readonly status: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
}

/** One request as a fake sees it: method, parsed URL, headers and the whole body as text. */
export interface LoopbackRequest {
  readonly method: string;
  readonly url: URL;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A running loopback server. */
export interface LoopbackServer {
  /** `http://127.0.0.1:<port>`, without a trailing slash. */
  readonly url: string;
  /** Stops listening and drops kept-alive connections, so a test run can exit. */
  close(): Promise<void>;
}

/** A JSON reply, with the content type real providers send. */
export function jsonReply(status: number, value: unknown, headers: Readonly<Record<string, string>> = {}): LoopbackReply {
  return { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body: JSON.stringify(value) };
}

/**
 * Starts an HTTP server on 127.0.0.1 and an ephemeral port. Fakes are plain functions from a
 * request to a reply; a handler that throws answers 500, as a broken provider would.
 */
export async function startLoopbackServer(
  handle: (request: LoopbackRequest) => LoopbackReply | Promise<LoopbackReply>,
): Promise<LoopbackServer> {
  const server = createServer(async (incoming, outgoing) => {
    let reply: LoopbackReply;
    try {
      const chunks: Buffer[] = [];
      for await (const chunk of incoming) chunks.push(chunk as Buffer);
      const url = new URL(incoming.url ?? '/', 'http://127.0.0.1');
      reply = await handle({
        method: incoming.method ?? 'GET',
        url,
        headers: incoming.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
    } catch (error) {
      reply = { status: 500, headers: { 'content-type': 'text/plain' }, body: `fake provider failed: ${String(error)}` };
    }
    outgoing.writeHead(reply.status, reply.headers);
    outgoing.end(reply.body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
