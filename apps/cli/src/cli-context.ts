import type { Writable } from 'node:stream';

/**
 * What a command reads and writes outside itself: the environment its configuration comes from,
 * its two output streams, and the exit code it ends with. The executables hand over the process's
 * own; tests run commands in their process with captured streams (no PGlite boot per command).
 */
export interface CliContext {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: Writable;
  readonly stderr: Writable;
  /** 0 until a command or runCommand sets it. */
  exitCode: number;
}

/** The running process's environment and streams. */
export function processContext(): CliContext {
  return { env: process.env, stdout: process.stdout, stderr: process.stderr, exitCode: 0 };
}
