import { createHash } from 'node:crypto';
import { type Scope, Secret } from '@memsvc/access';
import { mintApiKey, SessionTokens } from '@memsvc/auth';
import { type CallContext, erasedIdsText, type TenantId, toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { FRESH_SIGN_IN_SECONDS } from '../src/auth/fresh-sign-in.js';
import { dashboardEngines, JWT_SECRET, startTestDashboard, type TestDashboard } from './support/dashboard-harness.js';
import { person } from './support/form-person.js';

const EVERY_SCOPE: readonly Scope[] = ['memories:read', 'memories:write', 'memories:delete', 'keys:manage'];

/**
 * "Erase all my memories" on the Access page, in process, on both engines, signed in with API
 * keys: only the viewer's own user id, typed, erases, and then every memory of theirs (live and
 * deleted) and none of anyone else's, with the receipt; it needs memories:delete besides the
 * page's keys:manage, a recent sign-in, the CSRF token and this origin, and otherwise erases nothing.
 */
describe.each(dashboardEngines('memsvc_dashboard_erase_all'))('erasing all my memories on the access page [$name]', (engine) => {
  let dashboard: TestDashboard;
  let app: Hono<never>;

  const contextOf = (tenant: TenantId): CallContext => ({ tenant, actor: { id: 'agent:test' } });
  const signedIn = async (userId: TenantId, scopes: readonly Scope[] = EVERY_SCOPE) => {
    const minted = mintApiKey();
    await dashboard.runtime.store.apiKeys.create({
      userId,
      name: `${userId} dashboard`,
      scopes,
      prefix: minted.prefix,
      keyHash: minted.keyHash,
    });
    const visitor = person(app);
    await visitor.get('/sign-in');
    expect((await visitor.post('/sign-in/key', { key: minted.key })).status).toBe(303);
    await visitor.get('/access');
    return visitor;
  };
  /** Memories of `tenant`, the last one deleted: an erasure of the whole user takes both kinds. */
  const seed = async (tenant: TenantId, contents: readonly string[]) => {
    const ids: string[] = [];
    for (const content of contents)
      ids.push((await dashboard.runtime.engine.create(contextOf(tenant), { content, tier: 'ltm' })).memory.id);
    await dashboard.runtime.engine.delete(contextOf(tenant), ids.at(-1) ?? '');
    return ids;
  };
  /** Which of `ids` the tenant still has, deleted or not. */
  const kept = async (tenant: TenantId, ids: readonly string[]) => {
    const found = await Promise.all(
      ids.map((id) =>
        dashboard.runtime.engine.getUncounted(contextOf(tenant), id, { includeDeleted: true }).then(
          () => id,
          () => undefined,
        ),
      ),
    );
    return found.filter((id) => id !== undefined);
  };

  beforeAll(async () => {
    dashboard = await startTestDashboard(await engine.database(), {
      env: { MEMSVC_DASHBOARD_DEV_AUTH: 'false', DEPLOYMENT_PROFILE: 'standard', JWT_SECRET },
    });
    app = dashboard.app as unknown as Hono<never>;
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  it(
    verifies(
      'R-ERASE-USER',
      'a wrong confirmation erases nothing; the user id typed erases every memory of that user and none of another, and shows the receipt',
    ),
    async () => {
      const carol = toTenantId('carol');
      const dave = toTenantId('dave');
      const carols = await seed(carol, ['Carol likes green tea', 'Carol’s desk is on floor 3', 'Carol once lived in Oslo']);
      const daves = await seed(dave, ['Dave takes the 8:10 train', 'Dave’s old phone number']);
      const carolPage = await signedIn(carol);

      const page = await carolPage.get('/access');
      expect(page.body).toContain('Erase all my memories');
      expect(page.body).toContain('action="/access/erase-all"');
      expect(page.body).toContain('type your user id, <code>carol</code>');

      for (const typed of ['', 'dave', 'caro', 'CAROL', 'carol carol']) {
        const refused = await carolPage.post('/access/erase-all', { confirm_user_id: typed });
        expect(refused.status, typed).toBe(400);
        expect(refused.body, typed).toMatch(/<p class="notice error" role="alert">Nothing was erased: the id typed is not your user id\./);
        expect(refused.body, typed).toMatch(/name="confirm_user_id"[^>]*aria-invalid="true"/);
      }
      expect((await carolPage.post('/access/erase-all', {})).status).toBe(400);
      expect(await kept(carol, carols)).toEqual(carols);

      const erased = await carolPage.post('/access/erase-all', { confirm_user_id: ' carol ' });
      expect(erased.status).toBe(200);
      expect(erased.body).toContain('Erased for good: 3 memories');
      const digest = `sha256:${createHash('sha256').update(erasedIdsText(carols)).digest('hex')}`;
      expect(erased.body).toContain(digest);
      expect(erased.body).toMatch(/<tr data-place="memories"><th scope="row">[^<]*<\/th><td>3<\/td>/);
      expect(erased.body).toContain('href="/access"');
      expect(await kept(carol, carols)).toEqual([]);
      expect(await kept(dave, daves)).toEqual(daves);

      const erasureId = /<code class="erasure-id">([^<]+)<\/code>/.exec(erased.body)?.[1] ?? '';
      const check = await carolPage.get(`/erasures/${erasureId}`);
      expect([check.status, check.body.includes('<dd class="verified">yes</dd>')]).toEqual([200, true]);
      expect((await carolPage.get(`/memories/${carols[0]}`)).status).toBe(410);
      // Once more finds nothing left, and says so; dave's memories are still untouched.
      const empty = await carolPage.post('/access/erase-all', { confirm_user_id: 'carol' });
      expect([empty.status, empty.body.includes('There were no memories to erase')]).toEqual([200, true]);
      expect(await kept(dave, daves)).toEqual(daves);
      // Another user's check of it is "not found".
      expect((await (await signedIn(dave)).get(`/erasures/${erasureId}`)).status).toBe(404);
    },
  );

  it('needs memories:delete besides keys:manage: a session without it erases nothing, here or on a memory', async () => {
    const erin = toTenantId('erin');
    const erins = await seed(erin, ['Erin runs on Tuesdays', 'Erin’s deleted note']);
    const manager = await signedIn(erin, ['memories:read', 'keys:manage']);
    const refused = await manager.post('/access/erase-all', { confirm_user_id: 'erin' });
    expect([refused.status, refused.body.includes('needs the memories:delete scope')]).toEqual([403, true]);
    const reader = await signedIn(erin, ['memories:read', 'memories:delete']);
    expect((await reader.post('/access/erase-all', { confirm_user_id: 'erin' })).status).toBe(403);
    const readOnly = await signedIn(erin, ['memories:read']);
    expect((await readOnly.get(`/memories/${erins[0]}/erase`)).status).toBe(403);
    expect((await readOnly.post(`/memories/${erins[0]}/erase`, { confirmed: '1' })).status).toBe(403);
    expect(await kept(erin, erins)).toEqual(erins);
  });

  it(
    verifies('R-ERASE-REFUSED', 'refuses an erasure of everything without the CSRF token or from another origin, and erases nothing'),
    async () => {
      const frank = toTenantId('frank');
      const franks = await seed(frank, ['Frank’s locker is 42', 'Frank’s deleted note']);
      const frankPage = await signedIn(frank);
      for (const token of ['', 'A'.repeat(43)]) {
        expect((await frankPage.post('/access/erase-all', { confirm_user_id: 'frank' }, token)).status).toBe(403);
      }
      expect((await frankPage.post('/access/erase-all', { confirm_user_id: 'frank' }, undefined, 'https://evil.example')).status).toBe(403);
      expect(await kept(frank, franks)).toEqual(franks);
    },
  );

  it('needs a sign-in from the last ten minutes, as the other Access actions do; nothing is erased until then', async () => {
    const gina = toTenantId('gina');
    const ginas = await seed(gina, ['Gina’s badge number is 7', 'Gina’s deleted note']);
    const earlier = new SessionTokens({
      secret: new Secret(JWT_SECRET),
      expiresInSeconds: 7 * 86_400,
      sessions: dashboard.runtime.store.sessions,
      clock: new ManualClock(new Date(Date.now() - (FRESH_SIGN_IN_SECONDS + 60) * 1000)),
    });
    const stale = await earlier.issue({ userId: gina, organizationId: null, scopes: [...EVERY_SCOPE], origin: 'github' });
    const ginaPage = person(app);
    ginaPage.setCookie('memsvc_session', stale.token);
    expect((await ginaPage.get('/access')).status).toBe(200);
    const refused = await ginaPage.post('/access/erase-all', { confirm_user_id: 'gina' });
    expect([refused.status, refused.body.includes('needs a sign-in from the last 10 minutes')]).toEqual([403, true]);
    expect(await kept(gina, ginas)).toEqual(ginas);
  });
});
