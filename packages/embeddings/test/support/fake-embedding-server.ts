import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What the fake server does with the next request (then falls back to `normal`). */
export type Behaviour =
  | { kind: 'normal' }
  | { kind: 'status'; status: number; body: unknown }
  | { kind: 'slow'; delayMs: number }
  | { kind: 'dimensions'; dimensions: number }
  | { kind: 'drop' };

export interface ReceivedRequest {
  readonly path: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: Record<string, unknown>;
}

/** A deterministic vector per text, so tests can check order: [length, first char code, 1, …]. */
export function fakeVector(text: string, dimensions: number): number[] {
  return Array.from({ length: dimensions }, (_, i) => (i === 0 ? text.length : i === 1 ? (text.codePointAt(0) ?? 0) : 1));
}

/**
 * A loopback HTTP server speaking Ollama's `POST /api/embed` and OpenAI's `POST /v1/embeddings`
 * wire formats (request and response bodies, error bodies), with scripted faults.
 */
export class FakeEmbeddingServer {
  readonly received: ReceivedRequest[] = [];
  /** Consumed one per request, front first. */
  readonly script: Behaviour[] = [];
  #server: Server | undefined;
  #url = '';

  constructor(readonly dimensions = 8) {}

  get url(): string {
    return this.#url;
  }

  /** Listens on loopback: on `port` (a provider coming up where one was expected), else on any free one. */
  async start(port = 0): Promise<this> {
    this.#server = createServer((request, response) => void this.handle(request, response));
    await new Promise<void>((resolve) => this.#server?.listen(port, '127.0.0.1', resolve));
    this.#url = `http://127.0.0.1:${(this.#server.address() as AddressInfo).port}`;
    return this;
  }

  /** Stops listening; a server that was never started (or is already stopped) has nothing to stop. */
  async stop(): Promise<void> {
    const server = this.#server;
    if (!server?.listening) return;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of request) chunks.push(chunk as Buffer);
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
    const path = request.url ?? '';
    this.received.push({ path, headers: request.headers, body });
    const behaviour = this.script.shift() ?? { kind: 'normal' };
    const send = (status: number, payload: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(payload));
    };
    if (behaviour.kind === 'drop') {
      request.socket.destroy();
      return;
    }
    if (behaviour.kind === 'slow') await new Promise((resolve) => setTimeout(resolve, behaviour.delayMs));
    if (behaviour.kind === 'status') {
      send(behaviour.status, behaviour.body);
      return;
    }
    const dimensions = behaviour.kind === 'dimensions' ? behaviour.dimensions : this.dimensions;
    const input = body.input as string[];
    if (path === '/api/embed') {
      send(200, {
        model: body.model,
        embeddings: input.map((text) => fakeVector(text, dimensions)),
        total_duration: 1_000_000,
        load_duration: 0,
        prompt_eval_count: input.length,
      });
    } else if (path === '/v1/embeddings') {
      if (request.headers.authorization !== 'Bearer sk-test') {
        send(401, {
          error: {
            message: 'Incorrect API key provided: sk-wr***ng.',
            type: 'invalid_request_error',
            param: null,
            code: 'invalid_api_key',
          },
        });
        return;
      }
      // OpenAI answers with indexes; reversed here so a client that trusts array order fails.
      const data = input.map((text, index) => ({ object: 'embedding', index, embedding: fakeVector(text, dimensions) })).reverse();
      send(200, { object: 'list', data, model: body.model, usage: { prompt_tokens: input.length, total_tokens: input.length } });
    } else {
      send(404, { error: `no route ${path}` });
    }
  }
}
