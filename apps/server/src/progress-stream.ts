/**
 * Whether an MCP request asks for progress notifications: a JSON-RPC request (or one of a batch)
 * whose params carry `_meta.progressToken`. Such a request is answered as a server-sent event
 * stream, the only response of streamable HTTP that can carry notifications before the result.
 */
export function requestsProgress(body: unknown, accept: string | undefined): boolean {
  if (!accept?.includes('text/event-stream')) return false;
  const messages = Array.isArray(body) ? body : [body];
  return messages.some((message) => {
    const meta = (message as { params?: { _meta?: { progressToken?: unknown } } } | null)?.params?._meta;
    return meta?.progressToken !== undefined;
  });
}

/**
 * The same stream, with `done` called once when it ends, fails or its reader cancels it: the
 * moment a streamed response's server may be released (it writes to the stream until then).
 */
export function whenStreamEnds(body: ReadableStream<Uint8Array>, done: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let finished = false;
  const finish = () => {
    if (finished) return;
    finished = true;
    done();
  };
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const chunk = await reader.read();
        if (chunk.done) {
          controller.close();
          finish();
        } else {
          controller.enqueue(chunk.value);
        }
      } catch (error) {
        controller.error(error);
        finish();
      }
    },
    async cancel(reason) {
      finish();
      await reader.cancel(reason);
    },
  });
}
