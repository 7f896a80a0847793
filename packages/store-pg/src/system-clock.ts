import type { Clock } from '@memsvc/core';

/** The wall clock, for production. */
export const systemClock: Clock = { now: () => new Date() };
