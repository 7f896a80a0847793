import type { ApiKeyRecord, Scope } from '@memsvc/access';
import { mintApiKey } from '@memsvc/auth';
import { type TenantId, toTenantId } from '@memsvc/core';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dashboardEngines, JWT_SECRET, startTestDashboard, type TestDashboard } from './support/dashboard-harness.js';
import { type Form, person } from './support/form-person.js';

const XSS_SPACE = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">';
const XSS_ESCAPED = '&lt;script&gt;window.__xss=1&lt;/script&gt;&lt;img src=x onerror=&quot;window.__xss=2&quot;&gt;';
const alice = toTenantId('alice');
const bob = toTenantId('bob');

/** One row of a grants table, by grant id; empty when the page does not list it. */
function rowOf(body: string, grantId: string): string {
  return new RegExp(`<tr data-grant-id="${grantId}"[^>]*>(.*?)</tr>`, 's').exec(body)?.[1] ?? '';
}

/** A date `days` from now, as the form's date field sends it. */
function dayFromNow(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/**
 * The Access page's "Shared spaces" in process, on both engines, signed in with API keys: sharing
 * lists the grant on both sides, revoking ends it for the grantee, choosing a default changes what
 * the grantee's reads include, a refused form says which field and writes nothing, every action
 * needs the CSRF token and this origin, and spaces and ids from others are inert text.
 */
describe.each(dashboardEngines('memsvc_dashboard_grants'))('shared spaces on the access page [$name]', (engine) => {
  let dashboard: TestDashboard;
  let app: Hono<never>;
  let acmeId = '';

  // A person's dashboard key holds keys:manage, as a GitHub or Google sign-in does.
  const signedIn = async (userId: TenantId, scopes: readonly Scope[] = ['memories:read', 'keys:manage']) => {
    const minted = mintApiKey();
    const record: ApiKeyRecord = await dashboard.runtime.store.apiKeys.create({
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
    return Object.assign(visitor, { key: record });
  };
  const given = (owner: TenantId) => dashboard.runtime.store.grants.given(owner, 500);
  const share = (page: Awaited<ReturnType<typeof signedIn>>, form: Form) =>
    page.post('/access/grants', { grantee_kind: 'user', access: 'read', expires_on: '', ...form });
  const grantOf = async (owner: TenantId, space: string) => {
    const grant = (await given(owner)).find((one) => one.space === space && one.revokedAt === null);
    if (!grant) throw new Error(`no live grant of ${space}`);
    return grant;
  };
  const readsByDefault = async (tenant: TenantId) =>
    (await dashboard.runtime.engine.sharedSpaces({ tenant, actor: { id: 'test' } }, 'default')).map((space) => space.space);

  beforeAll(async () => {
    dashboard = await startTestDashboard(await engine.database(), {
      env: { MEMSVC_DASHBOARD_DEV_AUTH: 'false', DEPLOYMENT_PROFILE: 'standard', JWT_SECRET },
    });
    app = dashboard.app as unknown as Hono<never>;
    const acme = await dashboard.runtime.store.organizations.create({ name: 'Acme <i>Robotics</i>', slug: 'acme', owner: alice });
    await dashboard.runtime.store.organizations.addMember({ organizationId: acme.id, userId: bob, role: 'member' });
    acmeId = acme.id;
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  it('R-GRANT-END: a shared space is listed on both sides; the grantee chooses to read it by default, and stops', async () => {
    const bobPage = await signedIn(bob);
    const alicePage = await signedIn(alice);
    const expires = dayFromNow(30);
    const shared = await share(alicePage, { space: 'project:payments', grantee_id: 'bob', access: 'read-write', expires_on: expires });
    expect([shared.status, shared.headers.get('location')]).toEqual([303, '/access?notice=grant-created']);
    const grant = await grantOf(alice, 'project:payments');
    expect(grant).toMatchObject({ owner: alice, grantee: { kind: 'user', id: 'bob' }, access: 'read-write' });
    expect(grant.expiresAt).toEqual(new Date(`${expires}T00:00:00Z`));
    expect(grant.grantedBy).toMatch(/^session:/);

    const owners = await alicePage.get('/access?notice=grant-created');
    expect(owners.body).toContain('The space is shared');
    const givenRow = rowOf(owners.body, grant.id);
    expect(givenRow).toContain('project:payments');
    expect(givenRow).toMatch(/user <code>bob<\/code>/);
    expect(givenRow).toContain('read-write');
    expect(givenRow).toContain(`${expires} 00:00`);
    expect(givenRow).toContain('>live<');
    expect(givenRow).toContain(`action="/access/grants/${grant.id}/revoke"`);

    const grantees = await bobPage.get('/access');
    const receivedRow = rowOf(grantees.body, grant.id);
    expect(receivedRow).toMatch(
      /<td class="key-name">alice<\/td><td class="key-name">project:payments<\/td><td class="key-name">you<\/td>/,
    );
    expect(receivedRow).toContain('>no<');
    expect(receivedRow).not.toContain('/revoke');
    expect(await readsByDefault(bob)).toEqual([]);

    const on = await bobPage.post(`/access/shared/${grant.id}/default`, { by_default: 'true' });
    expect(on.headers.get('location')).toBe('/access?notice=shared-default-on');
    expect(await readsByDefault(bob)).toEqual(['project:payments']);
    expect(rowOf((await bobPage.get('/access')).body, grant.id)).toContain('Stop including');
    await bobPage.post(`/access/shared/${grant.id}/default`, { by_default: 'false' });
    expect(await readsByDefault(bob)).toEqual([]);
    // The owner cannot choose for the grantee: the grant does not name alice.
    expect((await alicePage.post(`/access/shared/${grant.id}/default`, { by_default: 'true' })).status).toBe(404);
  });

  it('R-GRANT-END: a revoked grant is gone from the grantee’s list and shown revoked to the owner; only the owner can revoke it', async () => {
    const bobPage = await signedIn(bob);
    const alicePage = await signedIn(alice);
    await share(alicePage, { space: 'project:revoked', grantee_id: 'bob' });
    const grant = await grantOf(alice, 'project:revoked');
    expect(rowOf((await bobPage.get('/access')).body, grant.id)).toContain('project:revoked');

    // The grantee, or anyone else, revoking it is "no such grant", and nothing changes.
    const refused = await bobPage.post(`/access/grants/${grant.id}/revoke`, {});
    expect([refused.status, refused.body.includes('You share no space with that grant id')]).toEqual([404, true]);
    expect((await alicePage.post('/access/grants/not-a-grant/revoke', {})).status).toBe(404);
    expect((await grantOf(alice, 'project:revoked')).revokedAt).toBeNull();

    const revoked = await alicePage.post(`/access/grants/${grant.id}/revoke`, {});
    expect([revoked.status, revoked.headers.get('location')]).toEqual([303, '/access?notice=grant-revoked']);
    expect(rowOf((await bobPage.get('/access')).body, grant.id)).toBe('');
    expect((await dashboard.runtime.engine.grants({ tenant: bob, actor: { id: 'test' } })).received.map((one) => one.id)).not.toContain(
      grant.id,
    );
    const ownerRow = rowOf((await alicePage.get('/access')).body, grant.id);
    expect(ownerRow).toMatch(/revoked \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(ownerRow).not.toContain('/revoke');
    const again = await alicePage.post(`/access/grants/${grant.id}/revoke`, {});
    expect(again.headers.get('location')).toBe('/access?notice=grant-already-ended');
  });

  it('R-GRANT-REFUSED: a grant to oneself, a malformed grantee id, a bad space or expiry is refused with a notice naming the field, the form kept, nothing written', async () => {
    await signedIn(bob);
    const alicePage = await signedIn(alice);
    const before = await given(alice);
    const cases: [Form, string, string][] = [
      [
        { space: 'project:mine', grantee_id: 'alice' },
        'The space was not shared. Grantee: a grant to yourself changes nothing',
        'grantee_id',
      ],
      [{ space: 'project:mine', grantee_id: 'no body here' }, 'Grantee: grantee id must be a user id', 'grantee_id'],
      [{ space: '', grantee_id: 'bob' }, 'Space: space must be 1 to 256 characters', 'space'],
      [{ space: 'project:mine', grantee_id: 'bob', expires_on: '2020-01-01' }, 'Expires on: expiresAt is in the past', 'expires_on'],
      [
        { space: 'project:mine', grantee_id: 'bob', expires_on: dayFromNow(4000) },
        'Expires on: expiresAt is more than 3650 days',
        'expires_on',
      ],
      [{ space: 'project:mine', grantee_id: 'bob', expires_on: '2027-02-30' }, 'Expires on: the expiry must be a date', 'expires_on'],
      [
        { space: 'project:mine', grantee_id: 'bob', grantee_kind: 'tenant' },
        'Grantee: the grantee must be one of user, organization, api-key',
        '',
      ],
      [{ space: 'project:mine', grantee_id: 'bob', access: 'admin' }, 'Access: access must be one of read, read-write', ''],
    ];
    for (const [form, message, field] of cases) {
      const refused = await share(alicePage, form);
      expect(refused.status, message).toBe(400);
      expect(refused.body, message).toContain(message);
      expect(refused.body).toMatch(/<p class="notice error" role="alert">The space was not shared\./);
      if (field) expect(refused.body, message).toMatch(new RegExp(`name="${field}"[^>]*aria-invalid="true"`));
    }
    const kept = await share(alicePage, { space: 'project:kept', grantee_id: 'alice', access: 'read-write', grantee_kind: 'user' });
    expect(kept.body).toContain('name="space" value="project:kept"');
    expect(kept.body).toMatch(/<option value="read-write" selected="">/);
    expect(await given(alice)).toEqual(before);
  });

  it('refuses a share, a revoke and a default choice without the CSRF token or from another origin, and changes nothing', async () => {
    const bobPage = await signedIn(bob);
    const alicePage = await signedIn(alice);
    await share(alicePage, { space: 'project:csrf', grantee_id: 'bob' });
    const grant = await grantOf(alice, 'project:csrf');
    const before = await given(alice);
    const form = { space: 'project:forged', grantee_kind: 'user', grantee_id: 'bob', access: 'read-write' };
    for (const token of ['', 'A'.repeat(43)]) {
      expect((await alicePage.post('/access/grants', form, token)).status).toBe(403);
      expect((await alicePage.post(`/access/grants/${grant.id}/revoke`, {}, token)).status).toBe(403);
      expect((await bobPage.post(`/access/shared/${grant.id}/default`, { by_default: 'true' }, token)).status).toBe(403);
    }
    const elsewhere = await alicePage.post('/access/grants', form, undefined, 'https://evil.example');
    expect(elsewhere.status).toBe(403);
    expect(
      (await bobPage.post(`/access/shared/${grant.id}/default`, { by_default: 'true' }, undefined, 'https://evil.example')).status,
    ).toBe(403);
    expect(await given(alice)).toEqual(before);
    expect(await readsByDefault(bob)).toEqual([]);
  });

  it('shows a space, a grantee id and an organization name that hold markup as inert text, on both sides', async () => {
    const bobPage = await signedIn(bob);
    const alicePage = await signedIn(alice);
    expect((await share(alicePage, { space: XSS_SPACE, grantee_kind: 'organization', grantee_id: acmeId })).status).toBe(303);
    const refused = await share(alicePage, { space: 'project:x', grantee_kind: 'api-key', grantee_id: XSS_SPACE });
    expect(refused.status).toBe(400);
    for (const page of [await alicePage.get('/access'), await bobPage.get('/access'), refused]) {
      expect(page.body).not.toContain('<script>window.__xss');
      expect(page.body).not.toContain('<img src=x');
      expect(page.body).not.toContain('<i>Robotics</i>');
      expect(page.body).toContain(XSS_ESCAPED);
    }
    // Bob reads it through his organization, named as alice named it, escaped.
    const grant = await grantOf(alice, XSS_SPACE);
    expect(rowOf((await bobPage.get('/access')).body, grant.id)).toContain(
      `organization <code>${acmeId}</code><small> (Acme &lt;i&gt;Robotics&lt;/i&gt;)</small>`,
    );
  });

  it('stops reading a space by default however many grants reach it, and lists a grant to the key a session was opened with', async () => {
    const bobPage = await signedIn(bob);
    const alicePage = await signedIn(alice);
    await share(alicePage, { space: 'project:twice', grantee_id: 'bob' });
    await share(alicePage, { space: 'project:twice', grantee_kind: 'organization', grantee_id: acmeId, access: 'read-write' });
    const twice = (await given(alice)).filter((one) => one.space === 'project:twice');
    const toBob = twice.find((one) => one.grantee.kind === 'user');
    const toAcme = twice.find((one) => one.grantee.kind === 'organization');
    await bobPage.post(`/access/shared/${toBob?.id}/default`, { by_default: 'true' });
    expect(await readsByDefault(bob)).toEqual(['project:twice']);
    expect(rowOf((await bobPage.get('/access')).body, toAcme?.id ?? '')).toContain('Stop including');
    await bobPage.post(`/access/shared/${toAcme?.id}/default`, { by_default: 'false' });
    expect(await readsByDefault(bob)).toEqual([]);

    await share(alicePage, { space: 'project:for-a-key', grantee_kind: 'api-key', grantee_id: bobPage.key.id });
    const toKey = await grantOf(alice, 'project:for-a-key');
    expect(rowOf((await bobPage.get('/access')).body, toKey.id)).toContain(`API key <code>${bobPage.key.id}</code>`);
    // Another session of bob's, not opened with that key, is not its grantee.
    expect(rowOf((await (await signedIn(bob)).get('/access')).body, toKey.id)).toBe('');
  });

  it('needs keys:manage, as grant_access does: a read-only session neither sees nor changes shares', async () => {
    await signedIn(bob);
    const reader = await signedIn(alice, ['memories:read']);
    expect((await reader.get('/access')).status).toBe(403);
    const before = await given(alice);
    const refused = await reader.post('/access/grants', { space: 'project:nope', grantee_kind: 'user', grantee_id: 'bob', access: 'read' });
    expect([refused.status, refused.body.includes('needs the keys:manage scope')]).toEqual([403, true]);
    expect(await given(alice)).toEqual(before);
  });
});
