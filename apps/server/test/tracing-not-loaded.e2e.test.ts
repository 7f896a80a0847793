import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { startOtlpCollector } from '../../../tooling/vitest/otlp-collector.ts';
import { call } from './support/tool-calls.js';
import { httpConnection } from './support/tool-connections.js';

/**
 * Spec §2.5: without OTEL_EXPORTER_OTLP_ENDPOINT tracing costs nothing — not one module of
 * OpenTelemetry is loaded. The built server runs with a preload that records every module the
 * process loads (ES modules through a load hook, CommonJS ones from the require cache at exit);
 * each loaded file is then searched for a string only OpenTelemetry's API contains, the key it
 * registers its globals under. Searching the files' text rather than their names holds however
 * the bundler splits or names chunks, and the run with an endpoint proves the search finds
 * OpenTelemetry when it is there.
 */
const OTEL_API_MARKER = 'opentelemetry.js.api.';
const recorder = pathToFileURL(fileURLToPath(new URL('./support/module-recorder.mjs', import.meta.url))).href;
const logs = mkdtempSync(join(tmpdir(), 'memsvc-modules-'));
afterAll(() => rmSync(logs, { recursive: true, force: true }));

/** Boots the built server, creates and recalls a memory, stops it; every file it loaded, and which of those hold OpenTelemetry. */
async function loadedModules(env: Record<string, string>, name: string): Promise<{ files: string[]; withOtel: string[] }> {
  const log = join(logs, `${name}.log`);
  const connection = await httpConnection({
    DATABASE_URL: 'pglite://memory',
    DEPLOYMENT_PROFILE: 'lite',
    NODE_OPTIONS: `--import=${recorder}`,
    MEMSVC_TEST_MODULE_LOG: log,
    ...env,
  });
  expect((await call(connection.client, 'create_memory', { userId: 'u', content: 'a fact to keep', type: 'long-term' })).isError).toBe(
    false,
  );
  expect((await call(connection.client, 'recall', { userId: 'u', query: 'fact' })).isError).toBe(false);
  await connection.close();
  expect(existsSync(log), 'the preload recorded the modules').toBe(true);
  const files = [...new Set(readFileSync(log, 'utf8').split('\n'))]
    .filter((url) => url.startsWith('file:'))
    .map((url) => fileURLToPath(url));
  const withOtel = files.filter((file) => existsSync(file) && readFileSync(file, 'utf8').includes(OTEL_API_MARKER));
  return { files, withOtel };
}

describe('OpenTelemetry is loaded only when an OTLP endpoint is set', () => {
  it('with OTEL_EXPORTER_OTLP_ENDPOINT, the process loads OpenTelemetry (so the search below can see it)', async () => {
    const collector = await startOtlpCollector();
    try {
      const { files, withOtel } = await loadedModules({ OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint }, 'traced');
      expect(files.some((file) => file.endsWith('memsvc-server.js'))).toBe(true);
      expect(withOtel.length).toBeGreaterThan(0);
    } finally {
      await collector.close();
    }
  });

  it('without it, no module the server loads contains OpenTelemetry: not the SDK, not the exporter, not even the API', async () => {
    const { files, withOtel } = await loadedModules({}, 'untraced');
    expect(files.some((file) => file.endsWith('memsvc-server.js'))).toBe(true);
    expect(
      files.some((file) => file.includes('pglite')),
      'the recorder saw the modules loaded on demand',
    ).toBe(true);
    expect(withOtel).toEqual([]);
    expect(files.filter((file) => /opentelemetry|otlp-tracing/.test(file))).toEqual([]);
  });
});
