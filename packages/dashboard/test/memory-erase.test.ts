import { createHash } from 'node:crypto';
import { type CallContext, ERASURE_PLACES, toTenantId } from '@memsvc/core';
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

/** A receipt's or a check's count for one place, from its table row. */
function countOf(html: string, place: string): number | undefined {
  const match = new RegExp(`<tr data-place="${place}"><th scope="row">[^<]*</th><td>([\\d,]+)</td>`).exec(html);
  return match?.[1] === undefined ? undefined : Number(match[1].replace(/,/g, ''));
}

/** The erasure id a receipt shows. */
function erasureIdOf(html: string): string {
  return /<code class="erasure-id">([^<]+)<\/code>/.exec(html)?.[1] ?? '';
}

/**
 * Erasing one memory for good from its page, in process, on both engines (dev auth: every
 * scope): the page asks first and says what erasing means, the receipt shows the id, time, counts
 * and digest, Verify checks it, and the memory's page then says it was erased. Forged or
 * cross-site posts and other tenants' ids erase nothing.
 */
for (const engine of dashboardEngines('memory_erase')) {
  describe(`erasing a memory for good from the dashboard [${engine.name}]`, () => {
    let dashboard: TestDashboard;

    beforeAll(async () => {
      dashboard = await startTestDashboard(await engine.database());
    });
    afterAll(async () => {
      await dashboard?.close();
    });

    const get = (path: string) => dashboard.app.request(path, { headers: { cookie: `memsvc_csrf=${CSRF}` } });
    /** `csrf` null: the form carries no token field at all. */
    const post = (path: string, form: Record<string, string>, csrf: string | null = CSRF, origin = ORIGIN) =>
      dashboard.app.request(path, {
        method: 'POST',
        headers: { origin, cookie: `memsvc_csrf=${CSRF}`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams(csrf === null ? form : { ...form, _csrf: csrf }).toString(),
      });
    const create = async (context: CallContext, content: string, tags: string[] = []) =>
      (await dashboard.runtime.engine.create(context, { content, tier: 'ltm', tags })).memory;
    const gone = (context: CallContext, id: string) =>
      expect(dashboard.runtime.engine.getUncounted(context, id, { includeDeleted: true })).rejects.toMatchObject({ code: 'NOT_FOUND' });

    it(
      verifies(
        'R-ERASE-EVERYWHERE',
        'asks first, then erases: the receipt shows the id, time, counts per place and digest; Verify says verified; the page then says erased',
      ),
      async () => {
        const memory = await create(dev, 'The vault combination is 12-34-56', ['vault']);
        await dashboard.runtime.engine.update(dev, memory.id, { content: 'The vault combination is 65-43-21' }, memory.version);

        const page = await (await get(`/memories/${memory.id}`)).text();
        expect(page).toContain(`href="/memories/${memory.id}/erase"`);
        const question = await get(`/memories/${memory.id}/erase`);
        expect(question.status).toBe(200);
        const asked = await question.text();
        expect(asked).toContain('It cannot be undone.');
        expect(asked).toContain('The vault combination is 65-43-21');
        expect(asked).toMatch(new RegExp(`<form method="post" action="/memories/${memory.id}/erase"`));
        expect(asked).toContain('name="confirmed" value="1"');

        // A post that did not come from the question is sent to it, and nothing changes.
        const unasked = await post(`/memories/${memory.id}/erase`, {});
        expect([unasked.status, unasked.headers.get('location')]).toEqual([303, `/memories/${memory.id}/erase`]);
        expect((await dashboard.runtime.engine.getUncounted(dev, memory.id)).version).toBe(2);

        const erased = await post(`/memories/${memory.id}/erase`, { confirmed: '1' });
        expect(erased.status).toBe(200);
        expect(erased.headers.get('cache-control')).toBe('no-store');
        const receipt = await erased.text();
        const erasureId = erasureIdOf(receipt);
        expect(erasureId).toMatch(/^[0-9a-f-]{36}$/);
        expect(receipt).toContain('Erased for good: 1 memory');
        expect(receipt).toContain(`sha256:${createHash('sha256').update(memory.id).digest('hex')}`);
        expect(receipt).toContain(`<code>${memory.id}</code>`);
        expect(receipt).toContain('dashboard-dev');
        expect(receipt).toMatch(/<time datetime="\d{4}-\d{2}-\d{2}T[^"]+Z">/);
        for (const place of ERASURE_PLACES) expect(countOf(receipt, place), place).toBeGreaterThanOrEqual(0);
        expect(countOf(receipt, 'memories')).toBe(1);
        expect(countOf(receipt, 'versions')).toBeGreaterThanOrEqual(2);
        expect(countOf(receipt, 'vectors')).toBe(memory.hasEmbedding ? 1 : 0);
        expect(receipt).toMatch(new RegExp(`<form method="get" action="/erasures/${erasureId}"`));
        expect(receipt).not.toContain('vault combination');
        await gone(dev, memory.id);

        const check = await get(`/erasures/${erasureId}`);
        expect(check.status).toBe(200);
        const checked = await check.text();
        expect(checked).toContain('Verified: nothing of the erased memories remains anywhere');
        expect(checked).toContain('<dd class="verified">yes</dd>');
        expect(checked).toContain('<dd class="digest-matches">yes</dd>');
        for (const place of ERASURE_PLACES) expect(countOf(checked, place), place).toBe(0);
        expect(await dashboard.runtime.engine.verifyErasure(dev, erasureId)).toMatchObject({ verified: true, digestMatches: true });

        // Its page, a second erase and a restore all say it is erased for good (410), and show nothing of it.
        const after = await get(`/memories/${memory.id}`);
        expect(after.status).toBe(410);
        const afterText = await after.text();
        expect(afterText).toContain('was erased for good');
        expect(afterText).toContain(`href="/erasures/${erasureId}"`);
        expect(afterText).not.toContain('vault combination');
        const again = await post(`/memories/${memory.id}/erase`, { confirmed: '1' });
        expect([again.status, (await again.text()).includes(`href="/erasures/${erasureId}"`)]).toEqual([410, true]);
        expect((await get(`/memories/${memory.id}/erase`)).status).toBe(410);
        expect((await post(`/memories/${memory.id}/restore`, {})).status).toBe(410);
      },
    );

    it('erases a deleted memory too, offered beside Restore', async () => {
      const memory = await create(dev, 'A deleted note about the old office');
      await dashboard.runtime.engine.delete(dev, memory.id);
      const page = await (await get(`/memories/${memory.id}`)).text();
      expect(page).toContain('Memory (deleted)');
      expect(page).toContain(`href="/memories/${memory.id}/erase"`);
      const asked = await (await get(`/memories/${memory.id}/erase`)).text();
      expect(asked).not.toContain('delete it</a> instead');
      const erased = await post(`/memories/${memory.id}/erase`, { confirmed: '1' });
      expect(erased.status).toBe(200);
      expect(countOf(await erased.text(), 'memories')).toBe(1);
      await gone(dev, memory.id);
    });

    it(
      verifies('R-ERASE-REFUSED', 'refuses an erasure without the CSRF token or from another origin (403), and erases nothing'),
      async () => {
        const memory = await create(dev, 'The deploy target is eu-west-1');
        for (const csrf of ['B'.repeat(43), null, '', CSRF.slice(1)]) {
          const response = await post(`/memories/${memory.id}/erase`, { confirmed: '1' }, csrf);
          expect(response.status, `token ${csrf}`).toBe(403);
        }
        const crossSite = await post(`/memories/${memory.id}/erase`, { confirmed: '1' }, CSRF, 'https://evil.example');
        expect(crossSite.status).toBe(403);
        expect(await dashboard.runtime.engine.getUncounted(dev, memory.id)).toMatchObject({ content: 'The deploy target is eu-west-1' });
        expect(await dashboard.runtime.store.erasures.erasureOf(dev.tenant, memory.id)).toBeUndefined();
      },
    );

    it(
      verifies(
        'R-ERASE-REFUSED',
        "answers another tenant's memory and erasure, and an unknown id, with 404: nothing shown, nothing erased",
      ),
      async () => {
        const theirs = await create(other, 'The other tenant’s launch code is 0000');
        const erasedOfTheirs = await create(other, 'Something they erased');
        const theirErasure = await dashboard.runtime.engine.erase(other, [erasedOfTheirs.id]);

        const question = await get(`/memories/${theirs.id}/erase`);
        expect(question.status).toBe(404);
        expect(await question.text()).not.toContain('launch code');
        expect((await post(`/memories/${theirs.id}/erase`, { confirmed: '1' })).status).toBe(404);
        // Their erased memory is "not found" to anyone else, not "erased".
        expect((await get(`/memories/${erasedOfTheirs.id}`)).status).toBe(404);
        const check = await get(`/erasures/${theirErasure.erasureId}`);
        expect([check.status, (await check.text()).includes('You have no erasure with that id')]).toEqual([404, true]);
        expect((await post(`/memories/${UNKNOWN_ID}/erase`, { confirmed: '1' })).status).toBe(404);
        expect((await get(`/erasures/${UNKNOWN_ID}`)).status).toBe(404);
        expect((await get('/erasures/not-an-erasure')).status).toBe(404);

        expect(await dashboard.runtime.engine.getUncounted(other, theirs.id)).toMatchObject({
          content: 'The other tenant’s launch code is 0000',
        });
        expect(await dashboard.runtime.engine.verifyErasure(other, theirErasure.erasureId)).toMatchObject({ verified: true });
      },
    );

    it('shows the memory on the question as inert text', async () => {
      const memory = await create(dev, `Stored by an agent: ${XSS}`);
      const asked = await (await get(`/memories/${memory.id}/erase`)).text();
      expect(asked).not.toContain('<script>window.__xss');
      expect(asked).not.toContain('<img src=x');
      expect(asked).toContain('&lt;script&gt;window.__xss=1&lt;/script&gt;');
    });
  });
}
