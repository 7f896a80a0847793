import type { JsonNestingScanner } from './json-nesting-scanner.js';

/** What reading a request body up to a size limit gave, and why a body was not kept. */
export type BoundedBody =
  | { readonly refused: false; readonly bytes: Buffer }
  | { readonly refused: 'too-large' }
  | { readonly refused: 'too-deep' };

/**
 * Reads a request body of at most `limit` bytes. A declared `Content-Length` over the limit is
 * refused before reading; a body that grows past it while streaming (chunked encoding) is read
 * to its end but not kept, so the connection stays usable for the 413 answer and memory stays
 * bounded. A body the `scanner` finds nested too deeply is not read any further: no client
 * sends one by mistake, and draining megabytes of it is what a flood of them would cost (the
 * answer to it closes the connection). `chunks` is Node's IncomingMessage or a web
 * ReadableStream: both are async iterables.
 */
export async function readBoundedBody(
  chunks: AsyncIterable<Uint8Array> | null | undefined,
  declaredLength: string | undefined,
  limit: number,
  scanner?: JsonNestingScanner,
): Promise<BoundedBody> {
  if (declaredLength !== undefined && Number(declaredLength) > limit) return { refused: 'too-large' };
  const kept: Uint8Array[] = [];
  let size = 0;
  if (!chunks) return { refused: false, bytes: Buffer.alloc(0) };
  // Iterated by hand: leaving a `for await` early would destroy the request stream, and with it
  // the socket the refusal must be written to. Not asking for more leaves the socket paused.
  const iterator = chunks[Symbol.asyncIterator]();
  for (let next = await iterator.next(); !next.done; next = await iterator.next()) {
    const chunk = next.value;
    size += chunk.byteLength;
    if (size > limit) continue;
    scanner?.feed(chunk);
    if (scanner?.tooDeep) return { refused: 'too-deep' };
    kept.push(chunk);
  }
  return size > limit ? { refused: 'too-large' } : { refused: false, bytes: Buffer.concat(kept, size) };
}
