import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const root = join(import.meta.dirname, '..', '..', '..');
const distribution = join(root, 'distribution', 'memsvc');
const manifest = JSON.parse(readFileSync(join(distribution, 'package.json'), 'utf8')) as { version: string; bin: Record<string, string> };

/** A directory the programs run in, and whose embedded database they would create if they started. */
const workDirectory = mkdtempSync(join(tmpdir(), 'memsvc-flags-'));
afterAll(() => rmSync(workDirectory, { recursive: true, force: true }));

/**
 * The environment a person who already configured memsvc has: valid, so that a program that
 * ignored its flags would start for real (and create ./data, or listen on the port).
 */
const VALID_ENVIRONMENT = {
  DATABASE_URL: 'pglite://./data',
  DEPLOYMENT_PROFILE: 'lite',
  EMBEDDING_PROVIDER: 'local',
  HOST: '127.0.0.1',
  PORT: '0',
  MCP_TRANSPORT: 'streamable-http',
  MEMSVC_DASHBOARD_DEV_AUTH: 'true',
  MEMSVC_DEFAULT_USER_ID: 'me',
};

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  milliseconds: number;
}

/** Runs one installed executable (the `memsvc` package's bin) and kills it if it has not ended in 10 s. */
function run(bin: string, args: string[]): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [join(distribution, bin), ...args], {
      cwd: workDirectory,
      env: { PATH: process.env.PATH ?? '', HOME: workDirectory, ...VALID_ENVIRONMENT },
    });
    const killer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk;
    });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
    });
    child.once('close', (code) => {
      clearTimeout(killer);
      resolve({ code, stdout, stderr, milliseconds: performance.now() - started });
    });
  });
}

const executables = Object.entries(manifest.bin);

describe('every installed executable answers --version and --help without starting anything', () => {
  it('installs the five programs', () => {
    expect(executables.map(([name]) => name).sort()).toEqual([
      'memsvc',
      'memsvc-dashboard',
      'memsvc-reindex',
      'memsvc-server',
      'memsvc-worker',
    ]);
  });

  describe.each(executables)('%s', (name, bin) => {
    it('--version prints the package version on one line and exits 0', async () => {
      const version = await run(bin, ['--version']);
      expect(version).toMatchObject({ code: 0, stdout: `${manifest.version}\n`, stderr: '' });
      expect(version.milliseconds).toBeLessThan(5000);
    });

    it('--help prints usage with examples, exits 0 and creates no database', async () => {
      const help = await run(bin, ['--help']);
      expect(help.code).toBe(0);
      expect(help.stderr).toBe('');
      expect(help.stdout).toMatch(new RegExp(`Usage: ${name}\\b`));
      expect(help.stdout).toMatch(/Examples:\n {2}# /);
      expect(help.stdout).toMatch(/--version/);
      expect(readdirSync(workDirectory)).toEqual([]);
    });

    it('an unknown flag is refused with exit code 2, naming the flag', async () => {
      const wrong = await run(bin, ['--colour']);
      expect(wrong.code).toBe(2);
      expect(wrong.stdout).toBe('');
      expect(wrong.stderr).toMatch(/unknown (flag|option) '?--colour/);
      expect(readdirSync(workDirectory)).toEqual([]);
    });
  });
});
