import { type CallContext, toTenantId } from '@memsvc/core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { dashboardEngines, startTestDashboard, type TestDashboard } from './support/dashboard-harness.js';

/** The origin app.request() serves under: hono/csrf compares a POST's Origin with it. */
const ORIGIN = 'http://localhost';
/** A CSRF cookie of the shape the dashboard issues; a same-site form repeats it. */
const CSRF = 'A'.repeat(43);
const UNKNOWN_ID = '0196a6a0-0000-7000-8000-000000000000';
const XSS = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">';

const dev: CallContext = { tenant: toTenantId('dev'), actor: { id: 'agent:test' } };
const other: CallContext = { tenant: toTenantId('someone-else'), actor: { id: 'agent:other' } };

for (const engine of dashboardEngines('memory_page')) {
  describe(`the memory page over HTTP [${engine.name}]`, () => {
    let dashboard: TestDashboard;

    beforeAll(async () => {
      dashboard = await startTestDashboard(await engine.database());
    });
    afterAll(async () => {
      await dashboard?.close();
    });

    const get = (path: string) => dashboard.app.request(path, { headers: { cookie: `memsvc_csrf=${CSRF}` } });
    /** `csrf` null: the form carries no token field at all. */
    const post = (path: string, form: Record<string, string>, csrf: string | null = CSRF) =>
      dashboard.app.request(path, {
        method: 'POST',
        headers: { origin: ORIGIN, cookie: `memsvc_csrf=${CSRF}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(csrf === null ? form : { ...form, _csrf: csrf }).toString(),
      });
    const create = async (context: CallContext, content: string, extra: { tags?: string[]; scope?: string } = {}) =>
      (await dashboard.runtime.engine.create(context, { content, tier: 'ltm', ...extra })).memory;

    it("answers another tenant's memory id with the 404 page, shows none of it, and changes nothing", async () => {
      const theirs = await create(other, 'The other tenant’s launch code is 0000', { tags: ['their-tag'] });
      const page = await get(`/memories/${theirs.id}`);
      expect(page.status).toBe(404);
      const html = await page.text();
      expect(html).toContain('There is no such memory');
      expect(html).not.toContain('launch code');
      expect(html).not.toContain('their-tag');

      for (const [action, form] of [
        ['edit', { content: 'hijacked', tags: '', expectedVersion: '1' }],
        ['pin', { pinned: 'true', expectedVersion: '1' }],
        ['promote', {}],
        ['delete', {}],
        ['restore', { version: '1' }],
      ] as const) {
        const response = await post(`/memories/${theirs.id}/${action}`, form);
        expect(response.status, action).toBe(404);
        expect(await response.text()).not.toContain('launch code');
      }
      const untouched = await dashboard.runtime.engine.getUncounted(other, theirs.id);
      expect(untouched).toMatchObject({ content: 'The other tenant’s launch code is 0000', version: 1, pinned: false, deletedAt: null });
      expect(await dashboard.runtime.engine.audit(other, theirs.id)).toHaveLength(1);
    });

    it('refuses an edit with a forged or missing CSRF token (403) and changes nothing', async () => {
      const memory = await create(dev, 'The deploy target is eu-west-1');
      const edit = { content: 'The deploy target is attacker-controlled', tags: '', expectedVersion: '1' };
      for (const csrf of ['B'.repeat(43), null, '', CSRF.slice(1)]) {
        const response = await post(`/memories/${memory.id}/edit`, edit, csrf);
        expect(response.status, `token ${csrf}`).toBe(403);
      }
      // Without the Origin of the dashboard (a cross-site form), refused before the token is read.
      const crossSite = await dashboard.app.request(`/memories/${memory.id}/edit`, {
        method: 'POST',
        headers: { origin: 'https://evil.example', cookie: `memsvc_csrf=${CSRF}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ ...edit, _csrf: CSRF }).toString(),
      });
      expect(crossSite.status).toBe(403);
      const after = await dashboard.runtime.engine.getUncounted(dev, memory.id);
      expect(after).toMatchObject({ content: 'The deploy target is eu-west-1', version: 1 });
      expect(await dashboard.runtime.engine.audit(dev, memory.id)).toHaveLength(1);
    });

    it('renders a 10,240-character memory with its history in a page under 100 KB', async () => {
      const words = Array.from({ length: 2049 }, (_, i) => `w${(i % 1000).toString().padStart(3, '0')}`).join(' ');
      const content = words.slice(0, 10_240);
      expect(content).toHaveLength(10_240);
      const memory = await create(dev, content, { tags: ['long'] });
      let version = memory.version;
      // Ten versions, each rewriting a stretch: the history shows every diff, cut to its budget.
      for (let round = 0; round < 10; round++) {
        const next = `${content.slice(0, round * 900)}${'changed '.repeat(60)}${content.slice(round * 900 + 480)}`.slice(0, 10_240);
        version = (await dashboard.runtime.engine.update(dev, memory.id, { content: next }, version)).version;
      }
      const page = await get(`/memories/${memory.id}`);
      expect(page.status).toBe(200);
      const html = await page.text();
      expect(new TextEncoder().encode(html).length).toBeLessThan(100_000);
      expect(html).toContain('Version 11');
      expect(html).toContain('<ins>');
      expect(html).toContain('unchanged characters');
    });

    it(
      verifies(
        'R-FACT-WRITE',
        'marks a memory whose fact a newer one changed as probably outdated, linking to the newer one, on its page and in the list',
      ),
      async () => {
        const older = await create(dev, 'The staging server is at 10.0.3.12');
        const newer = await create(dev, 'Staging got a new IP: 10.0.7.40');
        const page = await (await get(`/memories/${older.id}`)).text();
        expect(page).toContain('probably outdated');
        expect(page).toContain(`href="/memories/${newer.id}"`);
        const newerPage = await (await get(`/memories/${newer.id}`)).text();
        expect(newerPage).not.toContain('probably outdated');
        const list = await (await get('/memories?q=staging%20server')).text();
        expect(list).toContain('probably outdated');
      },
    );

    it('answers an unknown id, and a path that is not a memory id, with 404', async () => {
      const unknown = await get(`/memories/${UNKNOWN_ID}`);
      expect(unknown.status).toBe(404);
      expect(await unknown.text()).toContain('There is no such memory');
      expect((await get('/memories/not-a-memory')).status).toBe(404);
      expect((await post(`/memories/${UNKNOWN_ID}/delete`, {})).status).toBe(404);
    });

    it('escapes untrusted text in the HTML, and shows only fixed notices', async () => {
      const memory = await create(dev, `Stored by an agent: ${XSS}`, { tags: [XSS], scope: `"><script>window.__xss=4</script>` });
      const html = await (await get(`/memories/${memory.id}?notice=${encodeURIComponent('<b>Your account is locked</b>')}`)).text();
      expect(html).not.toContain('<script>window.__xss');
      expect(html).not.toContain('<img src=x');
      expect(html).toContain('&lt;script&gt;window.__xss=1&lt;/script&gt;');
      expect(html).not.toContain('Your account is locked');
      const saved = await (await get(`/memories/${memory.id}?notice=saved`)).text();
      expect(saved).toContain('Saved as a new version.');
      expect(await (await get(`/memories/${memory.id}?notice=constructor`)).text()).not.toContain('class="notice ok"');
    });

    it('shows links both ways as pairs of memory pages, and an imported locator as text', async () => {
      const older = await create(dev, 'The office is in Leeds');
      const newer = await create(dev, 'The office moved to York');
      const db = dashboard.runtime.store.connection.db;
      const link = (id: string, source: string, target: string | null, rel: string, locator: string, note: string | null = null) => ({
        id,
        user_id: 'dev',
        source_memory_id: source,
        target_memory_id: target,
        target_locator: locator,
        rel_type: rel,
        origin: 'derived' as const,
        score: 0.91,
        note,
        metadata: '{}',
      });
      await db
        .insertInto('memory_links')
        .values([
          link('0196a6a0-0000-7000-8000-0000000000a1', newer.id, older.id, 'supersedes', `id:${older.id}`),
          link('0196a6a0-0000-7000-8000-0000000000a2', older.id, newer.id, 'superseded-by', `id:${newer.id}`),
          link('0196a6a0-0000-7000-8000-0000000000a3', older.id, null, 'relates-to', `javascript:alert(1)${XSS}`, XSS),
        ])
        // The write itself may have linked the pair already: York changes the office's city (R-FACT-WRITE).
        .onConflict((conflict) => conflict.columns(['source_memory_id', 'target_locator', 'rel_type']).doNothing())
        .execute();
      const html = await (await get(`/memories/${older.id}`)).text();
      expect(html).toContain(`href="/memories/${newer.id}"`);
      expect(html).toContain('supersedes');
      expect(html).toContain('is superseded by');
      expect(html).toContain('javascript:alert(1)&lt;script&gt;');
      expect(html).not.toContain('href="javascript:');
      expect(html).not.toContain('<script>window');
      const fromNewer = await (await get(`/memories/${newer.id}`)).text();
      expect(fromNewer).toContain(`href="/memories/${older.id}"`);
      expect(fromNewer).not.toContain('relates to');
    });

    it('edits, refuses a stale edit with the conflict page, pins, deletes and restores through the engine', async () => {
      const memory = await create(dev, 'Alice takes her coffee black', { tags: ['prefs'] });
      const saved = await post(`/memories/${memory.id}/edit`, {
        content: 'Alice takes her coffee with milk',
        tags: 'prefs\r\ncoffee',
        expectedVersion: '1',
      });
      expect(saved.status).toBe(303);
      expect(saved.headers.get('location')).toBe(`/memories/${memory.id}?notice=saved`);
      expect(await dashboard.runtime.engine.getUncounted(dev, memory.id)).toMatchObject({
        content: 'Alice takes her coffee with milk',
        tags: ['prefs', 'coffee'],
        version: 2,
      });

      const refused = await post(`/memories/${memory.id}/edit`, { content: '   ', tags: 'kept-draft-tag', expectedVersion: '2' });
      expect(refused.status).toBe(400);
      const refusedPage = await refused.text();
      expect(refusedPage).toContain('Not saved: content must not be empty');
      expect(refusedPage).toContain('kept-draft-tag');
      // The same text sent back (with a browser's CRLF line breaks) is no new version.
      const same = await post(`/memories/${memory.id}/edit`, {
        content: 'Alice takes her coffee with milk',
        tags: 'prefs\r\ncoffee',
        expectedVersion: '2',
      });
      expect(same.headers.get('location')).toBe(`/memories/${memory.id}?notice=unchanged`);
      expect((await dashboard.runtime.engine.getUncounted(dev, memory.id)).version).toBe(2);

      const stale = await post(`/memories/${memory.id}/edit`, { content: 'Alice quit coffee', tags: 'prefs', expectedVersion: '1' });
      expect(stale.status).toBe(409);
      const conflict = await stale.text();
      expect(conflict).toContain('Alice takes her coffee with milk');
      expect(conflict).toContain('Alice quit coffee');
      expect((await dashboard.runtime.engine.getUncounted(dev, memory.id)).version).toBe(2);

      const pinned = await post(`/memories/${memory.id}/pin`, { pinned: 'true', expectedVersion: '2' });
      expect(pinned.headers.get('location')).toBe(`/memories/${memory.id}?notice=pinned`);
      const stalePin = await post(`/memories/${memory.id}/pin`, { pinned: 'false', expectedVersion: '2' });
      expect(stalePin.headers.get('location')).toBe(`/memories/${memory.id}?notice=stale`);
      expect((await dashboard.runtime.engine.getUncounted(dev, memory.id)).pinned).toBe(true);

      expect((await post(`/memories/${memory.id}/delete`, {})).headers.get('location')).toBe(`/memories/${memory.id}?notice=deleted`);
      const deletedPage = await (await get(`/memories/${memory.id}`)).text();
      expect(deletedPage).toContain('Memory (deleted)');
      expect((await post(`/memories/${memory.id}/restore`, {})).headers.get('location')).toBe(`/memories/${memory.id}?notice=restored`);
      expect((await post(`/memories/${memory.id}/restore`, {})).headers.get('location')).toBe(`/memories/${memory.id}?notice=not-deleted`);
      expect((await post(`/memories/${memory.id}/restore`, { version: '99' })).headers.get('location')).toBe(
        `/memories/${memory.id}?notice=bad-version`,
      );
      expect((await post(`/memories/${memory.id}/restore`, { version: '1' })).headers.get('location')).toBe(
        `/memories/${memory.id}?notice=restored-version`,
      );
      expect(await dashboard.runtime.engine.getUncounted(dev, memory.id)).toMatchObject({
        content: 'Alice takes her coffee black',
        tags: ['prefs'],
      });
      const actors = (await dashboard.runtime.engine.audit(dev, memory.id)).map((entry) => [entry.action, entry.actor]);
      expect(actors).toEqual([
        ['restore', 'dashboard-dev'],
        ['restore', 'dashboard-dev'],
        ['delete', 'dashboard-dev'],
        ['update', 'dashboard-dev'],
        ['update', 'dashboard-dev'],
        ['create', 'agent:test'],
      ]);
    });
  });
}
