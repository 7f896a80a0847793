/**
 * Elapsed milliseconds that only move forward and never slower than either clock they watch:
 * each reading advances by the larger of what the monotonic clock and the wall clock advanced
 * since the last one (a wall clock stepped back advances nothing). A monotonic clock alone stops
 * while a host or VM is suspended; a wall clock alone jumps with NTP. For lag this errs one way
 * only: a standby can look older than it is (its reads go to the primary for a check interval),
 * never fresher.
 */
export function forwardClock(monotonic: () => number, wall: () => number): () => number {
  let lastMonotonic = monotonic();
  let lastWall = wall();
  let elapsed = 0;
  return () => {
    const nowMonotonic = monotonic();
    const nowWall = wall();
    elapsed += Math.max(0, nowMonotonic - lastMonotonic, nowWall - lastWall);
    lastMonotonic = nowMonotonic;
    lastWall = nowWall;
    return elapsed;
  };
}
