/** What reading a request body up to a size limit gave. */
export type BoundedBody = { readonly tooLarge: false; readonly bytes: Buffer } | { readonly tooLarge: true };

/**
 * Reads a request body of at most `limit` bytes. A declared `Content-Length` over the limit is
 * refused before reading; a body that grows past it while streaming (chunked encoding) is read
 * to its end but not kept, so the connection stays usable for the 413 answer and memory stays
 * bounded. `chunks` is Node's IncomingMessage or a web ReadableStream: both are async iterables.
 */
export async function readBoundedBody(
  chunks: AsyncIterable<Uint8Array> | null | undefined,
  declaredLength: string | undefined,
  limit: number,
): Promise<BoundedBody> {
  if (declaredLength !== undefined && Number(declaredLength) > limit) return { tooLarge: true };
  const kept: Uint8Array[] = [];
  let size = 0;
  // No early `break`: leaving the loop would destroy the request stream, and with it the socket
  // the refusal must be written to.
  for await (const chunk of chunks ?? []) {
    size += chunk.byteLength;
    if (size <= limit) kept.push(chunk);
  }
  return size > limit ? { tooLarge: true } : { tooLarge: false, bytes: Buffer.concat(kept, size) };
}
