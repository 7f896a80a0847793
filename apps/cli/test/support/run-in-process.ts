import { Writable } from 'node:stream';
import { childProcessTestEnv } from '../../../../tooling/vitest/child-process-env.ts';
import type { CliContext } from '../../src/cli-context.js';
import { runMemsvc } from '../../src/memsvc-program.js';
import { runMemsvcReindex } from '../../src/memsvc-reindex-program.js';
import type { Run } from './run-executable.js';

/** The two programs, as functions of their arguments and a context. */
export const PROGRAMS = { memsvc: runMemsvc, 'memsvc-reindex': runMemsvcReindex } as const;

/**
 * Runs a command in the test's own process, with the same environment runExecutable gives a child
 * (only `env`, PATH, HOME and the test run's template directory) and its output captured. A
 * spawned command boots PGlite's WebAssembly afresh each time, here it is compiled once per
 * worker. The executables themselves (their exit codes and output as a shell sees them) are
 * tested by spawning them in memsvc-cli.test.ts.
 */
export async function runInProcess(
  program: keyof typeof PROGRAMS,
  args: string[],
  env: Record<string, string>,
  home: string,
): Promise<Run> {
  const stdout = new TextSink();
  const stderr = new TextSink();
  const cli: CliContext = {
    env: { PATH: process.env.PATH ?? '', HOME: home, ...childProcessTestEnv(), ...env },
    stdout,
    stderr,
    exitCode: 0,
  };
  const code = await PROGRAMS[program](args, cli);
  return { code, stdout: stdout.text, stderr: stderr.text };
}

/** A stream that keeps what is written to it as text. */
class TextSink extends Writable {
  text = '';

  override _write(chunk: Buffer | string, _encoding: BufferEncoding, done: (error?: Error | null) => void): void {
    this.text += chunk.toString();
    done();
  }
}
