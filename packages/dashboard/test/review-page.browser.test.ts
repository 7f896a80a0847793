import { type CallContext, isMemsvcError, type MemoryRecord, toTenantId } from '@memsvc/core';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BROWSER_AVAILABLE, CHROMIUM, launchBrowser, screenshot, seriousViolations } from './support/browser.js';
import { startTestDashboard, type TestDashboard } from './support/dashboard-harness.js';

const DAY = 86_400_000;

/**
 * Pairs whose `local` vectors fall in the contradiction band [0.8, 0.97) (0.95, 0.83, 0.93), and
 * unlike each other; the first carries markup an agent might have written.
 */
const PAIRS = [
  [
    'The staging database runs on port 5432 in the eu-west-1 region <script>window.__xss = 1</script>',
    'The staging database runs on port 6432 in the eu-west-1 region <script>window.__xss = 1</script>',
  ],
  ['Alice prefers her coffee black with no sugar every morning', 'Alice prefers her coffee with milk and no sugar every morning'],
  [
    'The release train leaves every second Tuesday at noon for the mobile app',
    'The release train leaves every second Thursday at noon for the mobile app',
  ],
] as const;
/** Near-duplicates in the merge band [0.85, 0.97) (0.93), stored without the write rules so they are not flagged. */
const KAYAK = [
  'The kayak is stored in the garage behind the blue bicycles',
  'The kayak is stored in the shed behind the blue bicycles',
] as const;

const dev: CallContext = { tenant: toTenantId('dev'), actor: { id: 'agent:test' } };
const other: CallContext = { tenant: toTenantId('someone-else'), actor: { id: 'agent:x' } };

/** The memory as the engine sees it now, or undefined once it is deleted. */
async function current(dashboard: TestDashboard, context: CallContext, id: string): Promise<MemoryRecord | undefined> {
  try {
    return await dashboard.runtime.engine.getUncounted(context, id);
  } catch (error) {
    if (isMemsvcError(error, 'NOT_FOUND')) return undefined;
    throw error;
  }
}

/** Writes a pair through the engine (its write rules flag the contradiction) and returns [older, newer]. */
async function contradict(dashboard: TestDashboard, context: CallContext, [first, second]: readonly [string, string]) {
  const older = await dashboard.runtime.engine.create(context, { content: first, tier: 'ltm' });
  const newer = await dashboard.runtime.engine.create(context, { content: second, tier: 'ltm' });
  expect(newer.contradictions.map((found) => found.memoryId)).toEqual([older.memory.id]);
  return [older.memory, newer.memory] as const;
}

/** Stores a long-term memory as it stands after months unread: created `daysAgo`, with the score the decay scan stored. */
async function faded(dashboard: TestDashboard, content: string, daysAgo: number, fields: { importance?: number; importanceScore: number }) {
  const { store } = dashboard.runtime;
  const memory = await store.memories.insertAsGiven(dev.tenant, { tier: 'ltm', content, ...fields }, dev.actor);
  const createdAt = new Date(Date.now() - daysAgo * DAY);
  await store.connection.db.updateTable('memories').set({ created_at: createdAt }).where('id', '=', memory.id).execute();
  return memory;
}

describe.skipIf(!BROWSER_AVAILABLE)('the review page in Chromium', () => {
  let dashboard: TestDashboard;
  let browser: Browser;
  const pairs: (readonly [MemoryRecord, MemoryRecord])[] = [];
  const kayaks: MemoryRecord[] = [];
  let pruneable: MemoryRecord;
  let stale: MemoryRecord;

  beforeAll(async () => {
    dashboard = await startTestDashboard('pglite://memory');
    for (const pair of PAIRS) pairs.push(await contradict(dashboard, dev, pair));
    await contradict(dashboard, other, PAIRS[1]);
    const { embedder, store } = dashboard.runtime;
    for (const content of KAYAK) {
      const [vector] = (await embedder.embed([content])) ?? [];
      if (!vector || !embedder.model) throw new Error('the local embedder gives a vector');
      kayaks.push(
        await store.memories.insertAsGiven(dev.tenant, { tier: 'ltm', content, embedding: { vector, model: embedder.model } }, dev.actor),
      );
    }
    pruneable = await faded(dashboard, 'A note about a printer that no longer exists', 60, { importance: 0, importanceScore: 0.05 });
    stale = await faded(dashboard, 'A reminder to water the office plants on Fridays', 40, { importanceScore: 0.25 });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await dashboard?.close();
  });

  it('shows pairs side by side with untrusted text inert, and resolves one with each outcome', async () => {
    const page = await browser.newPage();
    await page.goto(`${dashboard.url}/review`);
    const cards = page.locator('article.pair');
    expect(await cards.count()).toBe(3);
    // Newest pair first; the newer memory on the left.
    expect(await cards.first().locator('.side').first().textContent()).toContain('Thursday');
    expect(await page.textContent('main')).toContain('<script>window.__xss = 1</script>');
    expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined();
    expect(await page.locator('table.fading tbody tr').count()).toBe(2);
    expect(await page.locator('table.fading tbody tr').first().textContent()).toContain('prune-eligible');
    expect(await seriousViolations(page)).toEqual([]);
    const html = await (await page.request.get(`${dashboard.url}/review`)).text();
    expect(Buffer.byteLength(html)).toBeLessThan(100_000);
    await screenshot(page, 'review');

    const [releaseOlder, releaseNewer] = pairs[2] ?? [];
    await cards.filter({ hasText: 'Thursday' }).getByRole('button', { name: 'Keep both' }).click();
    await expect.poll(() => page.textContent('.notice')).toContain('Kept both memories');
    for (const memory of [releaseOlder, releaseNewer]) {
      const now = await current(dashboard, dev, memory?.id ?? '');
      expect([now?.contradicted, now?.version]).toEqual([false, (memory?.version ?? 0) + 1]);
    }
    expect((await dashboard.runtime.engine.audit(dev, releaseNewer?.id ?? '')).at(0)).toMatchObject({
      action: 'contradiction-resolve',
      actor: 'dashboard-dev',
    });

    const [coffeeOlder, coffeeNewer] = pairs[1] ?? [];
    await cards.filter({ hasText: 'coffee' }).getByRole('button', { name: 'Keep newer, delete older' }).click();
    await expect.poll(() => page.textContent('.notice')).toContain('Kept the newer memory');
    expect(await current(dashboard, dev, coffeeOlder?.id ?? '')).toBeUndefined();
    expect((await current(dashboard, dev, coffeeNewer?.id ?? ''))?.contradicted).toBe(false);

    const [portOlder, portNewer] = pairs[0] ?? [];
    await cards.filter({ hasText: 'staging database' }).getByRole('button', { name: 'Keep older, delete newer' }).click();
    await expect.poll(() => page.textContent('.notice')).toContain('Kept the older memory');
    expect(await current(dashboard, dev, portNewer?.id ?? '')).toBeUndefined();
    expect((await current(dashboard, dev, portOlder?.id ?? ''))?.contradicted).toBe(false);
    // Deleted, not gone: the engine restores it like any deleted memory.
    expect((await dashboard.runtime.engine.restore(dev, portNewer?.id ?? '')).deletedAt).toBeNull();
    await dashboard.runtime.engine.delete(dev, portNewer?.id ?? '');

    expect(await page.locator('article.pair').count()).toBe(0);
    expect(await page.textContent('section[aria-labelledby=contradictions]')).toContain('No open contradictions.');
    // The other tenant's pair was never shown nor touched.
    const [otherPair] = (await dashboard.runtime.store.review.contradictedPairs(other.tenant, { limit: 10 })).pairs;
    expect([otherPair?.newer.contradicted, otherPair?.older.contradicted]).toEqual([true, true]);
    expect(await page.evaluate(() => (globalThis as { __xss?: number }).__xss)).toBeUndefined();
    await page.close();
  });

  it('deletes stale and prune-eligible memories one by one or selected, each linked to its page', async () => {
    const page = await browser.newPage();
    await page.goto(`${dashboard.url}/review#fading`);
    const rows = page.locator('table.fading tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.first().locator('a').getAttribute('href')).toBe(`/memories/${pruneable.id}`);
    await rows.first().getByRole('button', { name: 'Delete' }).click();
    await expect.poll(() => page.textContent('.notice')).toContain('1 deleted.');
    expect(await current(dashboard, dev, pruneable.id)).toBeUndefined();
    expect(await current(dashboard, dev, stale.id)).toBeDefined();

    await page.check('table.fading thead input[data-select-all]');
    await page.click('#fading-delete > p.actions button[type=submit]');
    await expect.poll(() => page.textContent('.notice')).toContain('1 deleted.');
    expect(await current(dashboard, dev, stale.id)).toBeUndefined();
    expect(await page.textContent('section[aria-labelledby=fading]')).toContain('Nothing stale');
    await page.close();
  });

  it('shows a consolidation dry run of the viewer’s memories and merges what was approved', async () => {
    const page = await browser.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await page.goto(`${dashboard.url}/review`);
    await page.getByRole('link', { name: 'Show what would merge (dry run) →' }).click();
    await expect.poll(() => page.url()).toMatch(/\/review\/consolidation$/);
    const groups = page.locator('fieldset.cluster');
    // The kayak pair, and the release-train pair kept both above: no longer contradicted, so mergeable.
    const kayakGroup = groups.filter({ hasText: 'kayak' });
    expect(await kayakGroup.count()).toBe(1);
    expect(await kayakGroup.textContent()).toContain(KAYAK[0]);
    expect(await kayakGroup.textContent()).toContain(KAYAK[1]);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'review-consolidation');

    // Approve the kayak group only.
    for (const box of await groups.filter({ hasNotText: 'kayak' }).locator('input[name=cluster]').all()) await box.uncheck();
    await page.getByRole('button', { name: 'Approve: merge the selected groups' }).click();
    await expect.poll(() => page.textContent('.notice')).toContain('1 cluster merged.');
    expect(dialogs).toEqual(['Merge the selected groups?']);

    const after = await Promise.all(kayaks.map((kayak) => current(dashboard, dev, kayak.id)));
    const canonical = after.find((memory) => memory?.supersededBy === null);
    const merged = after.find((memory) => memory?.supersededBy !== null);
    expect(merged?.supersededBy).toBe(canonical?.id);
    expect((await dashboard.runtime.engine.audit(dev, merged?.id ?? '')).at(0)).toMatchObject({ action: 'merge', actor: 'dashboard-dev' });
    const listed = await dashboard.runtime.engine.list(dev, { limit: 100 });
    expect(listed.items.filter((memory) => memory.content.includes('kayak')).map((memory) => memory.id)).toEqual([canonical?.id]);
    expect(await page.locator('fieldset.cluster', { hasText: 'kayak' }).count()).toBe(0);
    await page.close();
  });
});

if (!BROWSER_AVAILABLE) {
  describe('the review page in Chromium', () => {
    it.skip(`SKIPPED LOUDLY: no Chromium at ${CHROMIUM} (apt-get install -y chromium); the browser tests did not run`, () => {});
  });
}
