import { describe, expect, it } from 'vitest';
import { requestsProgress, whenStreamEnds } from '../src/progress-stream.js';

const SSE = 'application/json, text/event-stream';
const call = (meta?: Record<string, unknown>) => ({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'x', ...(meta ? { _meta: meta } : {}) },
});

describe('requestsProgress', () => {
  it('is true for a request (or one of a batch) carrying a progressToken, from a client that accepts an event stream', () => {
    expect(requestsProgress(call({ progressToken: 0 }), SSE)).toBe(true);
    expect(requestsProgress([call(), call({ progressToken: 'p' })], SSE)).toBe(true);
    expect(requestsProgress(call(), SSE)).toBe(false);
    expect(requestsProgress(call({ progressToken: 'p' }), 'application/json')).toBe(false);
    expect(requestsProgress(null, SSE)).toBe(false);
    expect(requestsProgress('not json-rpc', SSE)).toBe(false);
  });
});

describe('whenStreamEnds', () => {
  /** A stream of `chunks`, closed after them unless it is to stay open (a response still being written). */
  const source = (chunks: string[], open = false) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
        if (!open) controller.close();
      },
    });

  it('passes every chunk through and tells once when the stream ends', async () => {
    let ended = 0;
    const text = await new Response(whenStreamEnds(source(['a', 'b']), () => ended++)).text();
    expect(text).toBe('ab');
    expect(ended).toBe(1);
  });

  it('tells once when the reader cancels it (the client went away)', async () => {
    let ended = 0;
    const wrapped = whenStreamEnds(source(['a'], true), () => ended++);
    const reader = wrapped.getReader();
    await reader.read();
    await reader.cancel('gone');
    expect(ended).toBe(1);
  });
});
