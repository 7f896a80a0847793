import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { childProcessTestEnv } from '../../../tooling/vitest/child-process-env.ts';

const bin = fileURLToPath(new URL('../dist/memsvc-dashboard.js', import.meta.url));
const home = mkdtempSync(join(tmpdir(), 'memsvc-dashboard-bin-'));
afterAll(() => rmSync(home, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/** Runs memsvc-dashboard with only `env` (plus PATH and HOME) until `until` says so or it exits. */
function run(env: Record<string, string>, until?: (stderr: string) => boolean) {
  const child = spawn(process.execPath, [bin], {
    env: {
      PATH: process.env.PATH ?? '',
      HOME: home,
      ...childProcessTestEnv(),
      ...env,
    },
  });
  let stderr = '';
  let stdout = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk;
  });
  return new Promise<{ code: number | null; stderr: string; stdout: string; stop: () => Promise<void> }>((resolve) => {
    const stop = () =>
      new Promise<void>((done) => {
        if (child.exitCode !== null) return done();
        child.once('exit', () => done());
        child.kill('SIGTERM');
      });
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk;
      if (until?.(stderr)) resolve({ code: null, stderr, stdout, stop });
    });
    child.stdout.on('data', () => {
      if (until?.(stdout)) resolve({ code: null, stderr, stdout, stop });
    });
    child.once('exit', (code) => resolve({ code, stderr, stdout, stop }));
  });
}

describe('memsvc-dashboard', () => {
  it('refuses to start (exit 2) with dev auth under NODE_ENV=production, or without the user it signs everyone in as', async () => {
    const production = await run({
      DATABASE_URL: 'pglite://memory',
      MEMSVC_DASHBOARD_DEV_AUTH: 'true',
      MEMSVC_DEFAULT_USER_ID: 'me',
      NODE_ENV: 'production',
    });
    expect([production.code, production.stderr]).toEqual([
      2,
      expect.stringMatching(/MEMSVC_DASHBOARD_DEV_AUTH: is a development-only relaxation/),
    ]);
    const nobody = await run({ DATABASE_URL: 'pglite://memory', MEMSVC_DASHBOARD_DEV_AUTH: 'true' });
    expect([nobody.code, nobody.stderr]).toEqual([
      2,
      expect.stringMatching(/MEMSVC_DEFAULT_USER_ID: is required with MEMSVC_DASHBOARD_DEV_AUTH/),
    ]);
  });

  it('serves the dashboard on PORT from WEB_DATABASE_URL (over DATABASE_URL), and stops on SIGTERM', async () => {
    const port = await freePort();
    const started = await run(
      {
        WEB_DATABASE_URL: `pglite://${join(home, 'data')}`,
        DATABASE_URL: 'postgres://nobody@127.0.0.1:1/unreachable',
        MEMSVC_DASHBOARD_DEV_AUTH: 'true',
        MEMSVC_DEFAULT_USER_ID: 'me',
        EMBEDDING_PROVIDER: 'local',
        PORT: String(port),
        HOST: '127.0.0.1',
      },
      (output) => output.includes('dashboard listening'),
    );
    try {
      expect(started.code, started.stderr).toBeNull();
      const page = await fetch(`http://127.0.0.1:${port}/memories`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('<h1>Memories</h1>');
    } finally {
      await started.stop();
    }
  });
});
