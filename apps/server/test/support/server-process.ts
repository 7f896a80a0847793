import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { childProcessTestEnv } from '../../../../tooling/vitest/child-process-env.ts';

export const serverBin = fileURLToPath(new URL('../../dist/memsvc-server.js', import.meta.url));

/** Only what a fresh shell would have, plus the test's variables: no leaking of the test env. */
export function serverEnv(env: Record<string, string>): Record<string, string> {
  return {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '/tmp',
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    EMBEDDING_PROVIDER: 'local',
    // The end-to-end tests exercise every tool; the default surface has tests of its own.
    MCP_TOOL_SETS: 'all',
    ...childProcessTestEnv(),
    ...env,
  };
}

export interface ServerProcess {
  readonly child: ChildProcess;
  readonly url: string;
  /** Everything written to stderr so far (the JSON log). */
  stderr(): string;
  /** SIGTERM, then the exit code. */
  stop(): Promise<number | null>;
}

/** Starts `memsvc-server` over streamable HTTP on a free port and waits until it listens. */
export async function startHttpServer(env: Record<string, string>): Promise<ServerProcess> {
  const child = spawn(process.execPath, [serverBin], {
    env: serverEnv({ MCP_TRANSPORT: 'streamable-http', HOST: '127.0.0.1', PORT: '0', ...env }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  const url = await new Promise<string>((resolve, reject) => {
    child.stderr?.on('data', (chunk: Buffer) => {
      stderr += chunk;
      const line = stderr.split('\n').find((entry) => entry.includes('"memsvc listening"'));
      if (line) resolve((JSON.parse(line) as { url: string }).url);
    });
    child.once('exit', (code) => reject(new Error(`memsvc-server exited with ${code} before listening:\n${stderr}`)));
  });
  return {
    child,
    url,
    stderr: () => stderr,
    stop: () => exitOf(child, () => child.kill('SIGTERM')),
  };
}

/** Runs the server expecting it to refuse to start; returns its exit code and stderr. */
export function runUntilExit(env: Record<string, string>): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, [serverBin], { env: serverEnv(env), stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk;
  });
  return exitOf(child, () => undefined).then((code) => ({ code, stderr }));
}

function exitOf(child: ChildProcess, trigger: () => void): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    child.once('exit', (code) => resolve(code));
    trigger();
  });
}
