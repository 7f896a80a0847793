import { describe, expect, it } from 'vitest';
import { ManualClock, ManualTimers } from '../src/testing/index.js';

describe('ManualTimers (the Timers test double)', () => {
  it('fires due timers in due order with the clock at each one’s instant, including timers set on the way', () => {
    const clock = new ManualClock('2026-05-01T00:00:00.000Z');
    const timers = new ManualTimers(clock);
    const fired: string[] = [];
    const at = () => clock.now().toISOString().slice(17, 23);
    timers.setTimeout(() => fired.push(`b@${at()}`), 2000);
    timers.setTimeout(() => {
      fired.push(`a@${at()}`);
      timers.setTimeout(() => fired.push(`a2@${at()}`), 500);
    }, 1000);
    const late = timers.setTimeout(() => fired.push('never'), 5000);
    timers.clearTimeout(late);
    expect(timers.advance(999)).toBe(0);
    expect(timers.advance(1500)).toBe(3);
    expect(fired).toEqual(['a@01.000', 'a2@01.500', 'b@02.000']);
    expect(clock.now().toISOString()).toBe('2026-05-01T00:00:02.499Z');
    expect(timers.pending).toBe(0);
  });
});
