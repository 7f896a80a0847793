import { toTenantId } from '@memsvc/core';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_AVAILABLE, CHROMIUM, launchBrowser, screenshot, seriousViolations } from './support/browser.js';
import { startTestDashboard, type TestDashboard } from './support/dashboard-harness.js';

const MEMORIES = 30;
const ADMIN_TOKEN = 'browser-admin-token-5c1';

describe.skipIf(!BROWSER_AVAILABLE)('the operations page in Chromium', () => {
  let dashboard: TestDashboard;
  let browser: Browser;

  beforeAll(async () => {
    dashboard = await startTestDashboard('pglite://memory', { env: { MCP_ADMIN_TOKEN: ADMIN_TOKEN } });
    const { engine, store } = dashboard.runtime;
    const dev = { tenant: toTenantId('dev'), actor: { id: 'agent:test' } };
    for (let i = 0; i < MEMORIES - 2; i++) await engine.create(dev, { content: `Operations fact number ${i}`, tier: 'ltm' });
    await engine.create(dev, { content: 'A passing note', tier: 'stm' });
    await engine.create({ tenant: toTenantId('someone-else'), actor: { id: 'agent:x' } }, { content: 'Another tenant', tier: 'ltm' });
    // A scheduled run, as the scheduler of a worker records it.
    await store.jobRuns.runExclusive('stm-expiry-sweep', 60_000, async () => 'success');
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
  });

  const rowOf = (page: Page, jobId: string) => page.locator(`tr[data-job="${jobId}"]`);

  it('shows health, the scheduler and the charts; queues, cancels, retries a reindex job and watches it reach done', async () => {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await page.goto(`${dashboard.url}/operations`);
    expect(await page.title()).toBe('Operations · memsvc');

    // Health: the three indicators of /health, all up.
    const health = page.locator('section[aria-labelledby="health-heading"]');
    for (const indicator of ['memory-store', 'database', 'pgvector']) {
      expect(await health.locator(`#health-${indicator}`).textContent()).toMatch(new RegExp(`${indicator}\\s*up`));
    }
    expect(await health.textContent()).toContain('pglite');

    // The scheduler: every job, with the run recorded above.
    const sweep = page.locator('table.scheduler tr', { hasText: 'stm-expiry-sweep' });
    expect(await sweep.textContent()).toContain('success');
    expect(await page.locator('table.scheduler tbody tr').count()).toBe(5);

    // Charts: images named by their <title> and <desc>, with the figures as tables.
    const charts = page.locator('svg[role="img"]');
    expect(await charts.count()).toBe(2);
    for (const id of ['chart-operations', 'chart-tiers']) {
      const chart = page.locator(`svg[aria-labelledby="${id}-title ${id}-desc"]`);
      expect(await chart.locator(`title#${id}-title`).textContent()).not.toBe('');
      expect(await chart.locator(`desc#${id}-desc`).textContent()).not.toBe('');
    }
    // Every create is an operation; the write path may add its own (a similar older fact flagged).
    const kinds = page.locator('table.compact', { hasText: 'Operations by kind' });
    expect(await kinds.locator('tr', { hasText: 'create' }).locator('td').textContent()).toBe(String(MEMORIES));
    const counts = await kinds.locator('tbody td').allTextContents();
    const total = counts.reduce((sum, count) => sum + Number(count), 0);
    expect(await page.locator('#chart-operations-desc').textContent()).toContain(`${total} operations in 48 hours`);
    expect(await page.locator('#chart-tiers-desc').textContent()).toContain(`${MEMORIES - 1} long-term and 1 short-term`);
    expect(await page.locator('svg[aria-labelledby^="chart-operations"] rect.bar').count()).toBe(48);
    // The standalone dashboard times no tool call: it says so instead of an empty table.
    expect(await page.locator('.empty-latency').count()).toBe(1);

    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'operations');

    // Queue a job (no runner yet, so it waits), cancel it, retry it.
    await page.fill('input[name=batchSize]', '4');
    await page.fill('form.reindex-form input[name=adminToken]', ADMIN_TOKEN);
    await page.click('form.reindex-form button[type=submit]');
    await expect.poll(() => page.locator('.notice.ok').textContent()).toContain('Reindex job queued');
    const [queued] = await dashboard.runtime.store.reindexJobs.recent(1);
    const jobId = queued?.jobId ?? '';
    expect(queued).toMatchObject({ state: 'queued', requestedBy: 'dashboard-dev', options: { batchSize: 4 } });
    expect(await rowOf(page, jobId).locator('.job-state').textContent()).toBe('queued');

    await rowOf(page, jobId).getByLabel(`Admin token to cancel job ${jobId}`).fill(ADMIN_TOKEN);
    await rowOf(page, jobId).locator('button', { hasText: 'Cancel' }).click();
    await expect.poll(() => page.locator('.notice.ok').textContent()).toContain('The job was cancelled.');
    expect(dialogs).toEqual(['Cancel this reindex job?']);
    expect(await rowOf(page, jobId).locator('.job-state').textContent()).toBe('cancelled');
    expect(await rowOf(page, jobId).getAttribute('data-refresh')).toBeNull();

    await rowOf(page, jobId).getByLabel(`Admin token to retry job ${jobId}`).fill(ADMIN_TOKEN);
    await rowOf(page, jobId).locator('button', { hasText: 'Retry' }).click();
    await expect.poll(() => page.locator('.notice.ok').textContent()).toContain('queued again');
    const row = rowOf(page, jobId);
    expect(await row.locator('.job-state').textContent()).toBe('queued');
    expect(await row.getAttribute('data-refresh')).toBe(`/operations/reindex/${jobId}.json`);
    expect(await row.locator('progress').getAttribute('value')).toBe('0');

    // Now a runner: the row follows the job through the page's script to completed, 100 %.
    dashboard.runtime.startJobs({ unref: true, runner: { pollMs: 50 } });
    await expect.poll(() => row.locator('.job-state').textContent(), { timeout: 20_000 }).toBe('completed');
    await expect.poll(() => row.locator('progress').evaluate((bar) => (bar as unknown as { value: number }).value)).toBe(100);
    expect(await row.locator('[data-field="progress.processed"]').textContent()).toBe(String(MEMORIES));
    expect(await row.locator('[data-field="progress.indexed"]').textContent()).toBe('0');
    expect(await row.locator('[data-field="progress.skipped"]').textContent()).toBe(String(MEMORIES));
    await screenshot(page, 'operations-reindex-done');

    // The same job as the JSON the row polls.
    const json = await page.request.get(`${dashboard.url}/operations/reindex/${jobId}.json`);
    expect(json.status()).toBe(200);
    expect(await json.json()).toMatchObject({ jobId, state: 'completed', percent: 100, progress: { processed: MEMORIES } });
    // The page as served: nothing inline for the CSP to refuse, and well under 100 KB.
    const html = await (await page.request.get(`${dashboard.url}/operations`)).text();
    expect(html).not.toMatch(/\sstyle=|<script>|<style/);
    expect(Buffer.byteLength(html)).toBeLessThan(100_000);
    await page.close();
  });
});

if (!BROWSER_AVAILABLE) {
  describe('the operations page in Chromium', () => {
    it.skip(`SKIPPED LOUDLY: no Chromium at ${CHROMIUM} (apt-get install -y chromium); the browser tests did not run`, () => {});
  });
}
