import { describe, expect, it } from 'vitest';
import { forwardClock } from '../src/replica/forward-clock.js';

describe('the read replica’s elapsed time', () => {
  it('advances by the larger step of the monotonic and the wall clock, and never goes back', () => {
    let monotonic = 1_000;
    let wall = Date.parse('2026-06-01T09:00:00Z');
    const elapsed = forwardClock(
      () => monotonic,
      () => wall,
    );
    expect(elapsed()).toBe(0);
    monotonic += 200;
    wall += 200;
    expect(elapsed()).toBe(200);
    // NTP steps the wall clock back an hour: time does not run backwards, the monotonic clock counts.
    monotonic += 300;
    wall -= 3_600_000;
    expect(elapsed()).toBe(500);
    // The VM was suspended for ten minutes: the monotonic clock stood still, the wall clock did not.
    monotonic += 1;
    wall += 600_000;
    expect(elapsed()).toBe(600_500);
    monotonic += 50;
    wall += 50;
    expect(elapsed()).toBe(600_550);
  });
});
