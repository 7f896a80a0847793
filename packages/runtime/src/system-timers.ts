import type { TimerHandle, Timers } from '@memsvc/core';

/** The host's timers, as the Timers port: what the scheduler waits with outside tests. */
export const systemTimers: Timers = Object.freeze({
  setTimeout: (callback: () => void, ms: number): TimerHandle => setTimeout(callback, ms),
  clearTimeout: (handle: TimerHandle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
});
