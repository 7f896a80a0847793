import type { JsonNestingScanner } from './json-nesting-scanner.js';

/** What reading a request body up to a size limit gave, and why a body was not kept. */
export type BoundedBody =
  | { readonly refused: false; readonly bytes: Buffer }
  | { readonly refused: 'too-large' }
  | { readonly refused: 'too-deep' };

/**
 * Reads a request body of at most `limit` bytes. A declared `Content-Length` over the limit is
 * refused before reading; a body that grows past it while streaming (chunked encoding), or that
 * the `scanner` finds nested too deeply as it arrives, is read to its end but not kept, so the
 * connection stays usable for the refusal and memory stays bounded. `chunks` is Node's
 * IncomingMessage or a web ReadableStream: both are async iterables.
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
  let refused: 'too-large' | 'too-deep' | undefined;
  // No early `break`: leaving the loop would destroy the request stream, and with it the socket
  // the refusal must be written to.
  for await (const chunk of chunks ?? []) {
    size += chunk.byteLength;
    if (refused !== undefined) continue;
    if (size > limit) refused = 'too-large';
    else {
      scanner?.feed(chunk);
      if (scanner?.tooDeep) refused = 'too-deep';
      else kept.push(chunk);
    }
  }
  if (refused !== undefined) {
    kept.length = 0;
    return { refused };
  }
  return { refused: false, bytes: Buffer.concat(kept, size) };
}
