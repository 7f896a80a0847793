import { randomFillSync } from 'node:crypto';
import type { IdGenerator } from '@memsvc/core';

/**
 * UUIDv7 (RFC 9562): 48 bits of Unix milliseconds, then randomness, so ids sort by creation
 * time. That makes `id` a stable paging cursor and a resumable reindex cursor, and keeps
 * B-tree inserts at the right edge of the index. Within one millisecond a counter in the
 * random bits keeps ids from one generator strictly increasing.
 */
export class UuidV7Generator implements IdGenerator {
  #lastMs = -1;
  #sequence = 0;

  constructor(private readonly now: () => number = Date.now) {}

  next(): string {
    let ms = this.now();
    if (ms <= this.#lastMs) {
      ms = this.#lastMs;
      this.#sequence++;
      if (this.#sequence > 0xfff) {
        // 4096 ids in one millisecond: borrow the next millisecond rather than repeat.
        ms = ++this.#lastMs;
        this.#sequence = 0;
      }
    } else {
      this.#lastMs = ms;
      this.#sequence = 0;
    }
    const bytes = randomFillSync(new Uint8Array(16));
    for (let i = 5; i >= 0; i--) {
      bytes[i] = ms % 256;
      ms = Math.floor(ms / 256);
    }
    bytes[6] = 0x70 | ((this.#sequence >> 8) & 0x0f);
    bytes[7] = this.#sequence & 0xff;
    bytes[8] = 0x80 | ((bytes[8] ?? 0) & 0x3f);
    const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  }
}

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** True for any UUID in canonical text form. */
export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}
