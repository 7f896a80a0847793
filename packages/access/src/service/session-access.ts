import type { Clock, TenantId } from '@memsvc/core';
import type { SessionRecord, SessionStore } from '../ports/session-store.js';

/** A user's sessions: listed (never a token) and ended all at once. */
export class SessionAccess {
  readonly #sessions: SessionStore;
  readonly #clock: Clock;

  constructor(sessions: SessionStore, clock: Clock) {
    this.#sessions = sessions;
    this.#clock = clock;
  }

  /** A user's unexpired sessions, newest first. */
  listActive(userId: TenantId): Promise<readonly SessionRecord[]> {
    return this.#sessions.listActive(userId, this.#clock.now());
  }

  /** Ends every live session of a user, on every replica from the next call; returns how many. */
  endAll(userId: TenantId): Promise<number> {
    return this.#sessions.denyAll(userId, this.#clock.now());
  }
}
