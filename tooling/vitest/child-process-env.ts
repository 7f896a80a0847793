/**
 * The part of a test's environment a process it spawns must be handed: the run's embedded-database
 * template directory (tooling/vitest/preset.ts), so a spawned server, worker or CLI starts a new
 * PGlite database as fast as an in-process test does. Spawn helpers build a child's environment
 * from scratch on purpose; this is what they add to it.
 */
export function childProcessTestEnv(): Record<string, string> {
  return process.env.MEMSVC_CACHE_DIR ? { MEMSVC_CACHE_DIR: process.env.MEMSVC_CACHE_DIR } : {};
}
