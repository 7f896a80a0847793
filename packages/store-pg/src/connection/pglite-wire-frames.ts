/**
 * The largest start-up message (or SSL, GSS or cancel request) the host reads: PostgreSQL's own
 * MAX_STARTUP_PACKET_LENGTH (src/include/libpq/pqcomm.h), so every client PostgreSQL accepts
 * gets in here too.
 */
export const MAX_STARTUP_BYTES = 10_000;

/**
 * The largest message after start-up, counting its length field: PostgreSQL's
 * PQ_LARGE_MESSAGE_LIMIT (MaxAllocSize − 1, just under 1 GiB), the limit it puts on a Query,
 * Parse or Bind. memsvc's own messages are far smaller (the largest is an import batch of 500
 * memories of at most 10,240 characters each, with their embeddings and metadata: tens of MB),
 * and a client that works against PostgreSQL must not be refused by the embedded engine. It also
 * bounds what the host holds for one connection: the message in progress, the messages waiting
 * for their Sync and the units waiting their turn, together at most this.
 */
export const MAX_MESSAGE_BYTES = 0x3fffffff - 1;

/**
 * The next frame of a connection's bytes: its size once its length field is in (`whole` when
 * all of it is), `partial` while the length field itself is not, or why it cannot be a frame.
 */
export type Frame = { readonly size: number; readonly whole: boolean } | 'partial' | { readonly invalid: string };

/**
 * The start-up frame at the head of `buffered`: a length field (counting itself) of 8 to
 * MAX_STARTUP_BYTES, then the protocol or request code. A length under 8 would cut nothing off
 * (or cut backwards) and loop for ever; one over the cap would buffer without end.
 */
export function startupFrame(buffered: Buffer): Frame {
  if (buffered.length < 4) return 'partial';
  const length = buffered.readInt32BE(0);
  if (length < 8 || length > MAX_STARTUP_BYTES) {
    return { invalid: `a start-up message's length field said ${length} (allowed: 8 to ${MAX_STARTUP_BYTES})` };
  }
  return { size: length, whole: buffered.length >= length };
}

/**
 * The message frame at the head of `buffered`: a type byte, then a length field (counting itself,
 * not the type) of 4 to MAX_MESSAGE_BYTES. Checked as soon as the five header bytes are in, so a
 * connection announcing an impossible size is dropped before its body is buffered.
 */
export function messageFrame(buffered: Buffer): Frame {
  if (buffered.length < 5) return 'partial';
  const length = buffered.readInt32BE(1);
  if (length < 4 || length > MAX_MESSAGE_BYTES) {
    return { invalid: `a message's length field said ${length} (allowed: 4 to ${MAX_MESSAGE_BYTES})` };
  }
  return { size: 1 + length, whole: buffered.length >= 1 + length };
}
