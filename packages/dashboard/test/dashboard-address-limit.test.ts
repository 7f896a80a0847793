import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardEngines, startRateLimitedDashboard, type TestDashboard } from './support/dashboard-harness.js';
import { csrfOf, visitor } from './support/http-visitor.js';

const PER_ADDRESS = 3;

/**
 * The dashboard's ways in under RATE_LIMIT_ENABLED, served alone as memsvc-dashboard serves it,
 * on both engines: sign-in posts and logins count against the client's address (behind a trusted
 * proxy, the nearest untrusted X-Forwarded-For hop), one over RATE_LIMIT_IP_RPM is 429 with
 * Retry-After before the key is checked, the sign-in page is not counted, and another address
 * is not affected.
 */
describe.each(dashboardEngines('memsvc_dashboard_address_limit'))('the dashboard’s sign-in by address [$name]', (engine) => {
  let dashboard: TestDashboard;

  beforeAll(async () => {
    dashboard = await startRateLimitedDashboard(await engine.database(), {
      RATE_LIMIT_IP_RPM: String(PER_ADDRESS),
      // The test's requests come from loopback, which stands for a proxy in front of the dashboard.
      MEMSVC_TRUSTED_PROXIES: '127.0.0.1,::1',
    });
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  const guessFrom = async (client: string) => {
    const browser = visitor(dashboard.url);
    const page = await browser.get('/sign-in');
    expect(page.status).toBe(200);
    return browser.post('/sign-in/key', { _csrf: csrfOf(await page.text()), key: 'msk_not_a_key' }, { 'x-forwarded-for': client });
  };

  it('answers 429 with Retry-After past RATE_LIMIT_IP_RPM key guesses from one address, and not to another', async () => {
    const refusals = async () =>
      (await dashboard.runtime.metrics.rateLimited.get()).values.find((value) => value.labels.kind === 'ip')?.value ?? 0;
    const refusedBefore = await refusals();
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 1; i++) statuses.push((await guessFrom('198.51.100.20')).status);
    expect(statuses).toEqual([401, 401, 401, 429]);

    const refused = await guessFrom('198.51.100.20');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    const body = await refused.text();
    expect(body).toContain('Too many requests');
    expect(body).toContain('RATE_LIMIT_IP_RPM');
    expect(await refusals()).toBe(refusedBefore + 2);

    // The client wrote a fake first hop: the address counted is the one the proxy saw.
    expect((await guessFrom('203.0.113.9, 198.51.100.20')).status).toBe(429);
    expect((await guessFrom('198.51.100.21')).status).toBe(401);
  });

  it('counts a login started by the address, and refuses it once the address is over', async () => {
    const login = (client: string) =>
      fetch(`${dashboard.url}/auth/github/login`, { headers: { 'x-forwarded-for': client }, redirect: 'manual' });
    const statuses: number[] = [];
    for (let i = 0; i < PER_ADDRESS + 1; i++) statuses.push((await login('198.51.100.30')).status);
    // No identity provider is configured: each login is turned away (401), but each one counts.
    expect(statuses).toEqual([401, 401, 401, 429]);
    expect((await login('198.51.100.31')).status).toBe(401);
  });
});
