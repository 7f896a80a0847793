import type { ApiKeyRecord, ApiKeyStore } from '@memsvc/access';
import type { Clock, TimerHandle, Timers } from '@memsvc/core';
import { hashApiKey, looksLikeApiKey } from './api-key-secret.js';

/** How often the last use of keys is written, by default: a key's `lastUsedAt` is at most this stale. */
export const KEY_USE_FLUSH_MS = 30_000;

const HOST_TIMERS: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

export interface ApiKeyAuthenticatorOptions {
  readonly keys: ApiKeyStore;
  readonly clock: Clock;
  /** How often last uses are written (KEY_USE_FLUSH_MS by default). */
  readonly flushEveryMs?: number | undefined;
  /** The host's timers unless a test steps its own. */
  readonly timers?: Timers | undefined;
  /** A failed write of last uses: reported, never thrown at a caller. */
  readonly onError?: ((error: unknown) => void) | undefined;
}

/**
 * Turns a presented bearer token into the API key it is, if it is one that can be used now.
 * Every call reads the key afresh by its hash (one indexed read, no cache), so a revocation or
 * an expiry takes effect on the very next call on every replica. The stored side is a SHA-256 of
 * the key, found by equality on a unique index: the lookup compares hashes, never the secret,
 * so its timing says nothing about any stored key. The last use of keys is kept in memory and
 * written in one statement every `flushEveryMs`, not once per call.
 */
export class ApiKeyAuthenticator {
  readonly #options: ApiKeyAuthenticatorOptions;
  #used = new Set<string>();
  #timer: TimerHandle | undefined;
  #flushing: Promise<void> | undefined;

  constructor(options: ApiKeyAuthenticatorOptions) {
    this.#options = options;
  }

  /** The usable key this token is, or undefined (not key-shaped, unknown, revoked or expired). */
  async authenticate(token: string): Promise<ApiKeyRecord | undefined> {
    if (!looksLikeApiKey(token)) return undefined;
    const key = await this.#options.keys.findUsable(hashApiKey(token), this.#options.clock.now());
    if (key) this.#noteUse(key.id);
    return key;
  }

  /** Writes the last uses noted so far. */
  async flush(): Promise<void> {
    if (this.#timer) this.#timers.clearTimeout(this.#timer);
    this.#timer = undefined;
    await this.#flushing;
    if (this.#used.size === 0) return;
    const ids = [...this.#used];
    this.#used = new Set();
    this.#flushing = this.#options.keys.recordUse(ids, this.#options.clock.now()).catch((error: unknown) => this.#options.onError?.(error));
    await this.#flushing;
    this.#flushing = undefined;
  }

  /** Stops the timer and writes what is pending (before the store closes). */
  async close(): Promise<void> {
    await this.flush();
  }

  get #timers(): Timers {
    return this.#options.timers ?? HOST_TIMERS;
  }

  #noteUse(id: string): void {
    this.#used.add(id);
    if (this.#timer) return;
    this.#timer = this.#timers.setTimeout(() => {
      this.#timer = undefined;
      void this.flush();
    }, this.#options.flushEveryMs ?? KEY_USE_FLUSH_MS);
    this.#timer.unref?.();
  }
}
