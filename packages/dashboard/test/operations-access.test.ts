import type { Scope } from '@memsvc/access';
import { mintApiKey } from '@memsvc/auth';
import { toTenantId } from '@memsvc/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dashboardEngines, JWT_SECRET, startTestDashboard, type TestDashboard } from './support/dashboard-harness.js';
import { csrfOf, type Visitor, visitor } from './support/http-visitor.js';

const UNKNOWN_JOB = '01900000-0000-7000-8000-000000000000';
const ADMIN_TOKEN = 'operations-admin-token-7f3';

/**
 * The operations page behind real sessions, on both engines: a person whose key has only the
 * memories scopes is refused every operations route (page, JSON, forms) and changes nothing; an
 * admin's session queues, cancels and retries jobs through forms whose CSRF token is checked
 * and which carry MCP_ADMIN_TOKEN as the admin tools do, with refusals shown from fixed codes; the latency table reads the runtime's histogram.
 */
describe.each(dashboardEngines('memsvc_dashboard_operations'))('the operations page behind sessions [$name]', (engine) => {
  let dashboard: TestDashboard;
  const keys: Record<'member' | 'admin', string> = { member: '', admin: '' };

  beforeAll(async () => {
    dashboard = await startTestDashboard(await engine.database(), {
      env: { MEMSVC_DASHBOARD_DEV_AUTH: 'false', DEPLOYMENT_PROFILE: 'standard', JWT_SECRET, MCP_ADMIN_TOKEN: ADMIN_TOKEN },
    });
    const mint = async (userId: string, scopes: Scope[]) => {
      const minted = mintApiKey();
      await dashboard.runtime.store.apiKeys.create({
        userId: toTenantId(userId),
        name: `${userId}-laptop`,
        organizationId: undefined,
        scopes,
        expiresAt: undefined,
        prefix: minted.prefix,
        keyHash: minted.keyHash,
      });
      return minted.key;
    };
    keys.member = await mint('alice', ['memories:read', 'memories:write', 'memories:delete']);
    keys.admin = await mint('operator', ['memories:read', 'admin']);
    await dashboard.runtime.engine.create({ tenant: toTenantId('alice'), actor: { id: 'agent:t' } }, { content: 'A fact', tier: 'ltm' });
  });
  afterAll(async () => {
    await dashboard?.close();
  });
  beforeEach(async () => {
    // Each test starts with no job: cancel what is active, so none is left queued between tests.
    for (const job of await dashboard.runtime.store.reindexJobs.recent(50)) {
      if (job.state === 'queued') await dashboard.runtime.maintenance.cancelReindex(job.jobId);
    }
  });

  const signIn = async (key: string): Promise<Visitor> => {
    const browser = visitor(dashboard.url);
    const page = await browser.get('/sign-in');
    const answer = await browser.post('/sign-in/key', { _csrf: csrfOf(await page.text()), key });
    expect([answer.status, answer.headers.get('location')]).toEqual([303, '/memories']);
    return browser;
  };
  const jobCount = async () => (await dashboard.runtime.store.reindexJobs.recent(200)).length;
  const queueForm = (csrf: string, fields: Record<string, string> = {}) => ({
    _csrf: csrf,
    adminToken: ADMIN_TOKEN,
    batchSize: '10',
    reuseExistingEmbeddings: 'on',
    ...fields,
  });

  it('refuses a session without the admin scope on every operations route, and queues nothing', async () => {
    const member = await signIn(keys.member);
    const memories = await member.get('/memories');
    const csrf = csrfOf(await memories.text());
    expect(csrf).not.toBe('');
    expect(await (await member.get('/memories')).text()).not.toContain('href="/operations"');

    const page = await member.get('/operations');
    expect(page.status).toBe(403);
    expect(await page.text()).toContain('The operations pages need the admin scope.');
    expect((await member.get(`/operations/reindex/${UNKNOWN_JOB}.json`)).status).toBe(403);

    const before = await jobCount();
    expect((await member.post('/operations/reindex', queueForm(csrf))).status).toBe(403);
    const job = await dashboard.runtime.maintenance.queueReindex({}, 'test');
    expect((await member.post(`/operations/reindex/${job.jobId}/cancel`, { _csrf: csrf, adminToken: ADMIN_TOKEN })).status).toBe(403);
    expect(await jobCount()).toBe(before + 1);
    expect((await dashboard.runtime.maintenance.reindexStatus(job.jobId)).state).toBe('queued');
  });

  it('refuses a queue post with a forged CSRF token or from another site, creating no job', async () => {
    const admin = await signIn(keys.admin);
    const page = await admin.get('/operations');
    expect(page.status).toBe(200);
    const csrf = csrfOf(await page.text());
    const before = await jobCount();

    const forged = await admin.post('/operations/reindex', queueForm('A'.repeat(43)));
    expect(forged.status).toBe(403);
    const missing = await admin.post('/operations/reindex', { batchSize: '10' });
    expect(missing.status).toBe(403);
    const crossSite = await admin.post('/operations/reindex', queueForm(csrf), { origin: 'https://evil.example' });
    expect(crossSite.status).toBe(403);
    expect(await jobCount()).toBe(before);
  });

  it('queues a job as the admin session, refuses bad options with a fixed message, and serves the job as JSON', async () => {
    const admin = await signIn(keys.admin);
    const csrf = csrfOf(await (await admin.get('/operations')).text());
    const before = await jobCount();

    for (const [fields, code] of [
      [{ batchSize: '5000' }, 'batch-size'],
      [{ batchSize: 'lots' }, 'batch-size'],
      [{ maxMemories: '0' }, 'max-memories'],
      [{ cursor: '<script>' }, 'cursor'],
      [{ userId: 'not a user!' }, 'user'],
      [{ userId: 'alice', recreate: 'on' }, 'recreate'],
    ] as const) {
      const refused = await admin.post('/operations/reindex', queueForm(csrf, fields));
      expect([refused.status, refused.headers.get('location')]).toEqual([303, `/operations?error=${code}#reindex`]);
    }
    expect(await jobCount()).toBe(before);
    const shown = await (await admin.get('/operations?error=recreate')).text();
    expect(shown).toContain('Recreate rebuilds the whole vector index');
    // Only fixed codes become messages: anything else in the URL shows nothing.
    const probe = await (await admin.get('/operations?error=%3Cb%3Ehi%3C%2Fb%3E&notice=constructor')).text();
    expect(probe).not.toContain('<b>hi</b>');
    expect(probe).not.toContain('class="notice');

    const queued = await admin.post('/operations/reindex', queueForm(csrf, { userId: 'alice', maxMemories: '5' }));
    expect([queued.status, queued.headers.get('location')]).toEqual([303, '/operations?notice=queued#reindex']);
    const [job] = await dashboard.runtime.store.reindexJobs.recent(1);
    expect(job).toMatchObject({
      state: 'queued',
      options: { tenant: 'alice', batchSize: 10, maxMemories: 5, reuseExistingEmbeddings: true, recreate: false },
    });
    expect(job?.requestedBy).toMatch(/^session:/);

    const json = await admin.get(`/operations/reindex/${job?.jobId}.json`);
    expect(json.status).toBe(200);
    expect(json.headers.get('cache-control')).toBe('no-store');
    expect(await json.json()).toMatchObject({
      jobId: job?.jobId,
      state: 'queued',
      percent: 0,
      total: 1,
      progress: { processed: 0 },
      options: { userId: 'alice', maxMemories: 5 },
    });
    expect((await admin.get(`/operations/reindex/${UNKNOWN_JOB}.json`)).status).toBe(404);
    expect((await admin.get('/operations/reindex/not-a-job.json')).status).toBe(404);

    const page = await (await admin.get('/operations?notice=queued')).text();
    expect(page).toContain('Reindex job queued.');
    expect(page).toContain(`data-refresh="/operations/reindex/${job?.jobId}.json"`);
    expect(Buffer.byteLength(page)).toBeLessThan(100_000);
  });

  it('refuses queue, cancel and retry without the admin token, or with a wrong one, changing nothing', async () => {
    const admin = await signIn(keys.admin);
    const page = await (await admin.get('/operations')).text();
    expect(page).toMatch(/<input type="password" name="adminToken" required=""/);
    const csrf = csrfOf(page);
    const before = await jobCount();
    for (const adminToken of ['', 'operations-admin-token-7f4', `${ADMIN_TOKEN} `]) {
      const refused = await admin.post('/operations/reindex', queueForm(csrf, { adminToken, recreate: 'on' }));
      expect([refused.status, refused.headers.get('location')]).toEqual([303, '/operations?error=admin-token#reindex']);
    }
    expect(await jobCount()).toBe(before);
    const job = await dashboard.runtime.maintenance.queueReindex({}, 'test');
    const cancel = await admin.post(`/operations/reindex/${job.jobId}/cancel`, { _csrf: csrf, adminToken: 'guess' });
    expect(cancel.headers.get('location')).toBe('/operations?error=admin-token#reindex');
    expect((await dashboard.runtime.maintenance.reindexStatus(job.jobId)).state).toBe('queued');
    await dashboard.runtime.maintenance.cancelReindex(job.jobId);
    const retry = await admin.post(`/operations/reindex/${job.jobId}/retry`, { _csrf: csrf });
    expect(retry.headers.get('location')).toBe('/operations?error=admin-token#reindex');
    expect((await dashboard.runtime.maintenance.reindexStatus(job.jobId)).state).toBe('cancelled');
    expect(await (await admin.get('/operations?error=admin-token')).text()).toContain('The admin token is missing or wrong');
  });

  it('cancels and retries through the forms, and answers a move the job cannot make with a conflict notice', async () => {
    const admin = await signIn(keys.admin);
    const csrf = csrfOf(await (await admin.get('/operations')).text());
    const job = await dashboard.runtime.maintenance.queueReindex({ batchSize: 7 }, 'test');

    const retryQueued = await admin.post(`/operations/reindex/${job.jobId}/retry`, { _csrf: csrf, adminToken: ADMIN_TOKEN });
    expect(retryQueued.headers.get('location')).toBe('/operations?error=conflict#reindex');
    const cancelled = await admin.post(`/operations/reindex/${job.jobId}/cancel`, { _csrf: csrf, adminToken: ADMIN_TOKEN });
    expect(cancelled.headers.get('location')).toBe('/operations?notice=cancelled#reindex');
    expect((await dashboard.runtime.maintenance.reindexStatus(job.jobId)).state).toBe('cancelled');
    const cancelAgain = await admin.post(`/operations/reindex/${job.jobId}/cancel`, { _csrf: csrf, adminToken: ADMIN_TOKEN });
    expect(cancelAgain.headers.get('location')).toBe('/operations?error=conflict#reindex');
    const retried = await admin.post(`/operations/reindex/${job.jobId}/retry`, { _csrf: csrf, adminToken: ADMIN_TOKEN });
    expect(retried.headers.get('location')).toBe('/operations?notice=retried#reindex');
    expect((await dashboard.runtime.maintenance.reindexStatus(job.jobId)).state).toBe('queued');

    const unknown = await admin.post(`/operations/reindex/${UNKNOWN_JOB}/cancel`, { _csrf: csrf, adminToken: ADMIN_TOKEN });
    expect(unknown.headers.get('location')).toBe('/operations?error=not-found#reindex');
    const malformed = await admin.post('/operations/reindex/nope/retry', { _csrf: csrf, adminToken: ADMIN_TOKEN });
    expect(malformed.headers.get('location')).toBe('/operations?error=not-found#reindex');
  });

  it('shows P50 and P95 per tool from the runtime’s tool-call histogram, and says so when it is empty', async () => {
    const admin = await signIn(keys.admin);
    expect(await (await admin.get('/operations')).text()).toContain('No tool call has been timed in this process.');
    // What memsvc-server's tool pipeline records for every call (tool-metrics.ts).
    const { memoryOperationDuration } = dashboard.runtime.metrics;
    for (let i = 0; i < 19; i++) memoryOperationDuration.observe({ op: 'recall', tier: 'ltm' }, 0.004);
    memoryOperationDuration.observe({ op: 'recall', tier: 'stm' }, 2);
    memoryOperationDuration.observe({ op: 'create', tier: 'ltm' }, 30);
    const page = await (await admin.get('/operations')).text();
    expect(page).not.toContain('No tool call has been timed');
    const rows = [...page.matchAll(/<tr><th scope="row">(\w+)<\/th><td>(\d+)<\/td><td>([^<]+)<\/td><td>([^<]+)<\/td><\/tr>/g)].map(
      (match) => match.slice(1),
    );
    expect(rows).toEqual([
      ['create', '1', '&gt; 2.50 s', '&gt; 2.50 s'],
      // 19 of 20 calls in the (2.5 ms, 5 ms] bucket: both quantiles fall in it.
      ['recall', '20', '3.8 ms', '5.0 ms'],
    ]);
  });
});
