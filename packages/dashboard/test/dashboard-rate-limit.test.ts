import { mintApiKey } from '@memsvc/auth';
import { toTenantId } from '@memsvc/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardEngines, startRateLimitedDashboard, type TestDashboard } from './support/dashboard-harness.js';
import { csrfOf, type Visitor, visitor } from './support/http-visitor.js';

/**
 * The rate limiter in front of a signed-in person's pages, on both engines: pages and forms count
 * against the person's own bucket (the same one their MCP calls use), a request over it is 429
 * with Retry-After and changes nothing, and another person is not affected.
 */
describe.each(dashboardEngines('memsvc_dashboard_rate_limit'))('the dashboard under RATE_LIMIT_ENABLED [$name]', (engine) => {
  let dashboard: TestDashboard;
  const keys: Record<'alice' | 'bob', string> = { alice: '', bob: '' };

  beforeAll(async () => {
    dashboard = await startRateLimitedDashboard(await engine.database(), {
      RATE_LIMIT_USER_RPM: '4',
    });
    for (const user of ['alice', 'bob'] as const) {
      const minted = mintApiKey();
      await dashboard.runtime.store.apiKeys.create({
        userId: toTenantId(user),
        name: `${user}-laptop`,
        organizationId: undefined,
        scopes: ['memories:read', 'memories:write', 'memories:delete'],
        expiresAt: undefined,
        prefix: minted.prefix,
        keyHash: minted.keyHash,
      });
      keys[user] = minted.key;
    }
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  const signIn = async (key: string): Promise<Visitor> => {
    const browser = visitor(dashboard.url);
    const page = await browser.get('/sign-in');
    const answer = await browser.post('/sign-in/key', { _csrf: csrfOf(await page.text()), key });
    expect(answer.status).toBe(303);
    return browser;
  };

  it('answers 429 with Retry-After past the person’s limit, runs nothing, and leaves another person alone', async () => {
    const alice = await signIn(keys.alice);
    const context = { tenant: toTenantId('alice'), actor: { id: 'agent:t' } };
    const { memory } = await dashboard.runtime.engine.create(context, { content: 'Kept through the limit', tier: 'ltm' });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++) statuses.push((await alice.get(`/memories?q=kept+${i}`)).status);
    expect(statuses).toEqual([200, 200, 200, 200]);

    const refusals = async () =>
      (await dashboard.runtime.metrics.rateLimited.get()).values.find((value) => value.labels.kind === 'user')?.value ?? 0;
    const refusedBefore = await refusals();
    const refused = await alice.get('/memories?q=kept');
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(await refused.text()).toContain('Too many requests');
    const deletion = await alice.post('/memories/delete', { _csrf: alice.csrfCookie(), ids: memory.id });
    expect(deletion.status).toBe(429);
    expect((await dashboard.runtime.engine.get(context, memory.id)).content).toBe('Kept through the limit');

    const bob = await signIn(keys.bob);
    expect((await bob.get('/memories')).status).toBe(200);
    expect(await refusals()).toBe(refusedBefore + 2);
  });
});
