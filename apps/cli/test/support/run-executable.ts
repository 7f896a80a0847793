import { spawn } from 'node:child_process';

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a built executable as an operator would, with only the given environment (plus PATH and
 * HOME). It resolves on 'close', once both output streams have been read to their end.
 */
export function runExecutable(path: string, args: string[], env: Record<string, string>, home: string): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [path, ...args], { env: { PATH: process.env.PATH ?? '', HOME: home, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}
