import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { startTestDashboard, type TestDashboard } from './support/dashboard-harness.js';

/** A request with headers a browser writes itself (Host), sent as a rebinding page's browser would. */
function send(port: number, path: string, method: string, headers: Record<string, string>) {
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const call = httpRequest({ host: '127.0.0.1', port, path, method, headers }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    call.on('error', reject);
    call.end(method === 'POST' ? 'name=x' : undefined);
  });
}

/** The dashboard served alone (memsvc-dashboard) with dev auth: what a rebinding page would read. */
describe('the dashboard refuses pages of other names and origins', () => {
  let dashboard: TestDashboard;
  let port = 0;
  beforeAll(async () => {
    dashboard = await startTestDashboard('pglite://memory', { env: { HOST: '127.0.0.1' } });
    port = Number(new URL(dashboard.url).port);
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  it(verifies('R-ORIGIN-LOOPBACK', 'a rebound name or a foreign page gets 403 and no page; its own name gets the page'), async () => {
    for (const headers of [
      { host: `evil.example.com:${port}` },
      { host: `localhost:${port}`, origin: 'http://evil.example.com' },
    ] as Record<string, string>[]) {
      for (const [method, path] of [
        ['GET', '/memories'],
        ['POST', '/memories/bulk'],
        ['GET', '/sign-in'],
      ] as const) {
        const refused = await send(port, path, method, { ...headers, 'content-type': 'application/x-www-form-urlencoded' });
        expect(refused.status, `${method} ${path} ${JSON.stringify(headers)}`).toBe(403);
        expect(refused.body).toContain('is refused');
        expect(refused.body).not.toContain('<html');
      }
    }
    const own = await send(port, '/memories', 'GET', { host: `localhost:${port}` });
    expect(own.status).toBe(200);
    expect(own.body).toContain('<html');
  });
});
