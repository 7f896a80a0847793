import { type CallContext, toTenantId } from '@memsvc/core';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { dashboardEngines, startTestDashboard, type TestDashboard } from './support/dashboard-harness.js';

/** The origin app.request() serves under: hono/csrf compares a POST's Origin with it. */
const ORIGIN = 'http://localhost';
/** A CSRF cookie of the shape the dashboard issues; a same-site form repeats it. */
const CSRF = 'B'.repeat(43);
const XSS = '<script>window.__xss=1</script>';

const dev: CallContext = { tenant: toTenantId('dev'), actor: { id: 'agent:test' } };
const other: CallContext = { tenant: toTenantId('someone-else'), actor: { id: 'agent:other' } };

for (const engine of dashboardEngines('memories_bulk')) {
  describe(`bulk delete, its undo, and the deleted memories over HTTP [${engine.name}]`, () => {
    let dashboard: TestDashboard;
    let counter = 0;

    beforeAll(async () => {
      dashboard = await startTestDashboard(await engine.database());
    });
    afterAll(async () => {
      await dashboard?.close();
    });
    beforeEach(async () => {
      // Each test's memories are its own: clear what the last one left.
      for (const context of [dev, other]) {
        const page = await dashboard.runtime.engine.list(context, { limit: 100 });
        if (page.items.length > 0)
          await dashboard.runtime.engine.bulkDelete(
            context,
            page.items.map((memory) => memory.id),
          );
      }
    });

    const get = (path: string) => dashboard.app.request(path, { headers: { cookie: `memsvc_csrf=${CSRF}` } });
    /** A form post; `ids` repeated as a browser sends ticked boxes. `csrf` null: no token field. */
    const post = (path: string, form: Record<string, string>, ids: readonly string[] = [], csrf: string | null = CSRF) => {
      const body = new URLSearchParams(csrf === null ? form : { ...form, _csrf: csrf });
      for (const id of ids) body.append('ids', id);
      return dashboard.app.request(path, {
        method: 'POST',
        headers: { origin: ORIGIN, cookie: `memsvc_csrf=${CSRF}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: body.toString(),
      });
    };
    /** Distinct enough that none is folded into another as a duplicate. */
    const create = async (context: CallContext, content: string) => {
      counter += 1;
      return (
        await dashboard.runtime.engine.create(context, { content: `${content} (#${counter} ${'xyzw'.repeat(counter % 7)})`, tier: 'ltm' })
      ).memory;
    };
    const isDeleted = async (context: CallContext, id: string) =>
      (await dashboard.runtime.engine.getUncounted(context, id, { includeDeleted: true })).deletedAt !== null;

    it('asks first, naming how many and which, and deletes nothing until the answer', async () => {
      const a = await create(dev, `Alpha ${XSS}`);
      const b = await create(dev, 'Bravo');
      const theirs = await create(other, 'Their secret plan');
      const response = await post('/memories/delete', {}, [a.id, b.id, theirs.id]);
      expect(response.status).toBe(200);
      const html = await response.text();
      expect(html).toContain('Delete 2 memories?');
      expect(html).toContain('&lt;script&gt;window.__xss=1&lt;/script&gt;');
      expect(html).not.toContain(XSS);
      // Another tenant's id is no part of the question, and no part of the answer's form.
      expect(html).not.toContain('Their secret plan');
      expect(html).not.toContain(theirs.id);
      expect(html).toContain('name="confirmed" value="1"');
      for (const id of [a.id, b.id]) expect(await isDeleted(dev, id)).toBe(false);
    });

    it('deletes on the answer and offers an undo that restores exactly what it deleted', async () => {
      const a = await create(dev, 'Alpha');
      const b = await create(dev, 'Bravo');
      const gone = await create(dev, 'Deleted before');
      const kept = await create(dev, 'Kept');
      await dashboard.runtime.engine.delete(dev, gone.id);
      const theirs = await create(other, 'Their plan');

      const deleted = await post('/memories/delete', { confirmed: '1' }, [a.id, b.id, gone.id, theirs.id]);
      expect(deleted.status).toBe(303);
      const location = new URL(deleted.headers.get('location') ?? '', ORIGIN);
      expect(location.pathname).toBe('/memories');
      expect(location.searchParams.get('deleted')).toBe('2');
      expect(location.searchParams.getAll('undo').sort()).toEqual([a.id, b.id].sort());
      expect(await isDeleted(dev, a.id)).toBe(true);
      expect(await isDeleted(other, theirs.id)).toBe(false);

      const page = await (await get(`${location.pathname}${location.search}`)).text();
      expect(page).toContain('2 deleted.');
      expect(page).toMatch(/<form method="post" action="\/memories\/restore" class="actions undo">/);
      expect(page).toContain(`name="ids" value="${a.id}"`);

      const undone = await post('/memories/restore', { from: 'undo' }, location.searchParams.getAll('undo'));
      expect(undone.status).toBe(303);
      expect(undone.headers.get('location')).toBe('/memories?restored=2&missed=0');
      expect(await isDeleted(dev, a.id)).toBe(false);
      expect(await isDeleted(dev, b.id)).toBe(false);
      // What was deleted before stays deleted; what was never touched is as it was.
      expect(await isDeleted(dev, gone.id)).toBe(true);
      expect(await dashboard.runtime.engine.getUncounted(dev, kept.id)).toMatchObject({ version: 1, deletedAt: null });
      expect(await (await get('/memories?restored=2&missed=0')).text()).toContain('2 memories restored.');

      // A second undo finds nothing to restore and says why.
      const again = await post('/memories/restore', { from: 'undo' }, [a.id, b.id]);
      expect(again.headers.get('location')).toBe('/memories?restored=0&missed=2');
      expect(await (await get('/memories?restored=0&missed=2')).text()).toContain('Nothing was restored: 2 memories could not be');
    });

    it("lists only the viewer's deleted memories, and restores one from its row or the ticked ones", async () => {
      const one = await create(dev, `One ${XSS}`);
      const two = await create(dev, 'Two');
      const live = await create(dev, 'Still here');
      const theirs = await create(other, 'Their deleted note');
      await dashboard.runtime.engine.bulkDelete(dev, [one.id, two.id]);
      await dashboard.runtime.engine.delete(other, theirs.id);

      const html = await (await get('/memories?view=deleted')).text();
      expect(html).toContain('<h1>Deleted memories</h1>');
      expect(html).toContain(`data-memory-id="${one.id}"`);
      expect(html).toContain(`data-memory-id="${two.id}"`);
      expect(html).not.toContain(live.id);
      expect(html).not.toContain('Their deleted note');
      expect(html).not.toContain(XSS);

      // A row's button restores that row only, whatever is ticked.
      const restored = await post('/memories/restore', { from: 'deleted', only: one.id }, [two.id]);
      expect(restored.headers.get('location')).toBe('/memories?view=deleted&restored=1&missed=0');
      expect(await isDeleted(dev, one.id)).toBe(false);
      expect(await isDeleted(dev, two.id)).toBe(true);

      // Another tenant's id restores nothing.
      const refused = await post('/memories/restore', { from: 'deleted' }, [theirs.id]);
      expect(refused.headers.get('location')).toBe('/memories?view=deleted&restored=0&missed=1');
      expect(await isDeleted(other, theirs.id)).toBe(true);
    });

    it('refuses a form without the CSRF token or from another site, and changes nothing', async () => {
      const a = await create(dev, 'Alpha');
      const noToken = await post('/memories/delete', { confirmed: '1' }, [a.id], null);
      expect(noToken.status).toBe(403);
      const crossSite = await dashboard.app.request('/memories/delete', {
        method: 'POST',
        headers: { origin: 'https://evil.example', cookie: `memsvc_csrf=${CSRF}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: `_csrf=${CSRF}&confirmed=1&ids=${a.id}`,
      });
      expect(crossSite.status).toBe(403);
      expect(await isDeleted(dev, a.id)).toBe(false);
      await dashboard.runtime.engine.delete(dev, a.id);
      expect((await post('/memories/restore', { from: 'undo' }, [a.id], 'C'.repeat(43))).status).toBe(403);
      expect(await isDeleted(dev, a.id)).toBe(true);
    });

    it('says beside the button when nothing or too much was selected, and changes nothing', async () => {
      const a = await create(dev, 'Alpha');
      const none = await post('/memories/delete', { confirmed: '1' }, ['not-an-id']);
      expect(none.headers.get('location')).toBe('/memories?problem=none-selected#bulk-actions');
      const page = await (await get('/memories?problem=none-selected')).text();
      expect(page).toMatch(/id="bulk-actions">[\s\S]*Nothing was selected\. Tick the box of each memory first/);
      const restoreNone = await post('/memories/restore', { from: 'deleted' });
      expect(restoreNone.headers.get('location')).toBe('/memories?view=deleted&problem=none-selected#bulk-actions');

      const many = Array.from({ length: 101 }, (_, i) => `0196a6a0-0000-7000-8000-${String(i).padStart(12, '0')}`);
      const tooMany = await post('/memories/delete', { confirmed: '1' }, many);
      expect(tooMany.headers.get('location')).toBe('/memories?problem=too-many#bulk-actions');
      expect(await (await get('/memories?problem=too-many')).text()).toContain('more than 100 memories at once');

      // Ids that are all gone already: nothing to ask about.
      await dashboard.runtime.engine.delete(dev, a.id);
      const gone = await post('/memories/delete', {}, [a.id]);
      expect(gone.headers.get('location')).toBe('/memories?problem=already-gone#bulk-actions');
      // An unknown problem code shows nothing.
      expect(await (await get('/memories?problem=%3Cscript%3E')).text()).not.toContain('action-problem');
    });
  });
}
