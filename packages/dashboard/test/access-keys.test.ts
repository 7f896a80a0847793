import { type Scope, Secret } from '@memsvc/access';
import { mintApiKey, SessionTokens } from '@memsvc/auth';
import { type TenantId, toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import type { Hono } from 'hono';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRESH_SIGN_IN_SECONDS } from '../src/auth/fresh-sign-in.js';
import { dashboardEngines, JWT_SECRET, startTestDashboard, type TestDashboard } from './support/dashboard-harness.js';
import { type Form, person } from './support/form-person.js';

const MCP_URL = 'https://memory.example.test/mcp';
const XSS_NAME = '<script>window.__xss=1</script><img src=x onerror="window.__xss=2">';
const KEY_PATTERN = /msk_[A-Za-z0-9_-]{43}/g;
const alice = toTenantId('alice');
const bob = toTenantId('bob');

/**
 * The access page in process, on both engines, signed in with API keys (sessions, not dev auth,
 * so a viewer can hold fewer scopes than all): creating a key shows it once, revoking is
 * confined to the viewer's tenant and idempotent, forms are CSRF-protected, untrusted names are
 * inert text, and what the page says about sessions is what the server does.
 */
describe.each(dashboardEngines('memsvc_dashboard_access'))('the access page [$name]', (engine) => {
  let dashboard: TestDashboard;
  let app: Hono<never>;
  let acmeId = '';

  const mint = async (userId: TenantId, name: string, scopes: readonly Scope[]) => {
    const minted = mintApiKey();
    const record = await dashboard.runtime.store.apiKeys.create({ userId, name, scopes, prefix: minted.prefix, keyHash: minted.keyHash });
    return { key: minted.key, record };
  };
  // The person's own dashboard key: it holds keys:manage, as a GitHub or Google sign-in does.
  const signedIn = async (userId: TenantId, scopes: readonly Scope[], { manage = true } = {}) => {
    const { key } = await mint(userId, `${userId} dashboard`, manage ? [...scopes, 'keys:manage'] : scopes);
    const visitor = person(app);
    await visitor.get('/sign-in');
    expect((await visitor.post('/sign-in/key', { key })).status).toBe(303);
    await visitor.get('/access');
    return visitor;
  };
  const keysOf = async (userId: TenantId) => dashboard.runtime.store.apiKeys.list({ userId });
  const createdSecret = (body: string) => [...new Set(body.match(KEY_PATTERN))];

  beforeAll(async () => {
    dashboard = await startTestDashboard(await engine.database(), {
      env: { MEMSVC_DASHBOARD_DEV_AUTH: 'false', DEPLOYMENT_PROFILE: 'standard', JWT_SECRET, MEMSVC_MCP_URL: MCP_URL },
    });
    app = dashboard.app as unknown as Hono<never>;
    const { organizations } = dashboard.runtime.store;
    const acme = await organizations.create({ name: 'Acme <i>Robotics</i>', slug: 'acme', owner: alice });
    await organizations.addMember({ organizationId: acme.id, userId: bob, role: 'member' });
    await organizations.create({ name: 'Globex', slug: 'globex', owner: bob });
    acmeId = acme.id;
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  it('AUTH-KEY-USABLE: a created key is shown once, on the POST’s own uncached response, and works; the list never shows it again', async () => {
    const alicePage = await signedIn(alice, ['memories:read', 'memories:write', 'admin']);
    const created = await alicePage.post('/access/keys', {
      name: 'ci bot',
      scopes: ['memories:read'],
      organization: acmeId,
      expires_in_days: '30',
    });
    expect(created.status).toBe(200);
    expect(created.headers.get('cache-control')).toBe('no-store');
    const [secret, ...others] = createdSecret(created.body);
    expect(others).toEqual([]);
    const key = await dashboard.runtime.apiKeys.authenticate(secret ?? '');
    expect(key).toMatchObject({ userId: alice, name: 'ci bot', scopes: ['memories:read'], organizationId: acmeId });
    // Thirty days were asked for; the session it was made in ends sooner (JWT_EXPIRES_IN, 7 days), and so does the key.
    const [signIn] = await dashboard.runtime.store.sessions.listActive(alice, new Date());
    expect(key?.expiresAt).toEqual(signIn?.expiresAt);
    const lifetime = (key?.expiresAt?.getTime() ?? 0) - (key?.createdAt.getTime() ?? 0);
    expect(Math.abs(lifetime - 7 * 86_400_000)).toBeLessThan(5_000);
    // The filled-in configurations on the creation page carry it; nothing else ever does.
    expect(created.body).toContain(`&quot;Authorization&quot;: &quot;Bearer ${secret}&quot;`);

    const later = await alicePage.get('/access');
    expect(later.status).toBe(200);
    expect(later.body).toContain('ci bot');
    expect(later.body).toContain(key?.prefix);
    expect(createdSecret(later.body)).toEqual([]);
    expect(later.body).toContain('Bearer &lt;your-api-key&gt;');
    expect(later.body).toContain(MCP_URL);
    expect(Buffer.byteLength(later.body)).toBeLessThan(100_000);
  });

  it('AUTH-KEY-TENANT: revoking another tenant’s key id is 404 and changes nothing; the key still works and is never listed', async () => {
    const bobs = await mint(bob, 'bob’s agent', ['memories:read']);
    const alicePage = await signedIn(alice, ['memories:read', 'memories:write']);
    expect((await alicePage.get('/access')).body).not.toContain('bob’s agent');
    const refused = await alicePage.post(`/access/keys/${bobs.record.id}/revoke`, {});
    expect(refused.status).toBe(404);
    expect(refused.body).toContain('You have no API key with that id');
    expect((await dashboard.runtime.apiKeys.authenticate(bobs.key))?.id).toBe(bobs.record.id);
    expect((await keysOf(bob)).find((key) => key.id === bobs.record.id)?.revokedAt).toBeNull();
    expect((await alicePage.post('/access/keys/not-a-key/revoke', {})).status).toBe(404);
  });

  it('refuses a forged or missing CSRF token on create with 403, and creates no key', async () => {
    const alicePage = await signedIn(alice, ['memories:read', 'memories:write']);
    const before = (await keysOf(alice)).length;
    const forged = await alicePage.post('/access/keys', { name: 'forged', scopes: ['memories:read'] }, 'A'.repeat(43));
    expect(forged.status).toBe(403);
    expect((await alicePage.post('/access/keys', { name: 'forged', scopes: ['memories:read'] }, '')).status).toBe(403);
    expect((await keysOf(alice)).length).toBe(before);
  });

  it('renders a key name and an organization name that hold markup as inert text', async () => {
    const alicePage = await signedIn(alice, ['memories:read', 'memories:write']);
    const created = await alicePage.post('/access/keys', { name: XSS_NAME, scopes: ['memories:read'] });
    expect(created.status).toBe(200);
    for (const page of [created, await alicePage.get('/access')]) {
      expect(page.body).not.toContain('<script>window.__xss');
      expect(page.body).not.toContain('<img src=x');
      expect(page.body).toContain('&lt;script&gt;window.__xss=1&lt;/script&gt;&lt;img src=x onerror=&quot;window.__xss=2&quot;&gt;');
      expect(page.body).not.toContain('<i>Robotics</i>');
      expect(page.body).toContain('Acme &lt;i&gt;Robotics&lt;/i&gt;');
      expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    }
  });

  it('AUTH-KEY-USABLE: a revoked key is refused at once and listed as revoked; revoking it again, as from another tab, says so and changes nothing', async () => {
    const alicePage = await signedIn(alice, ['memories:read', 'memories:write']);
    const created = await alicePage.post('/access/keys', { name: 'to revoke', scopes: ['memories:read'] });
    const secret = createdSecret(created.body)[0] ?? '';
    const key = await dashboard.runtime.apiKeys.authenticate(secret);
    if (!key) throw new Error('the new key does not authenticate');

    const revoked = await alicePage.post(`/access/keys/${key.id}/revoke`, {});
    expect(revoked.status).toBe(303);
    expect(revoked.headers.get('location')).toBe('/access?notice=key-revoked');
    expect(await dashboard.runtime.apiKeys.authenticate(secret)).toBeUndefined();
    const revokedAt = (await keysOf(alice)).find((record) => record.id === key.id)?.revokedAt;
    expect(revokedAt).toBeInstanceOf(Date);

    const listed = await alicePage.get('/access?notice=key-revoked');
    expect(listed.body).toContain('The key is revoked');
    const row = new RegExp(`<tr data-key-id="${key.id}"[^>]*>(.*?)</tr>`, 's').exec(listed.body)?.[1] ?? '';
    expect(row).toMatch(/revoked \d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    expect(row).not.toContain('/revoke');

    const again = await alicePage.post(`/access/keys/${key.id}/revoke`, {});
    expect(again.status).toBe(303);
    expect(again.headers.get('location')).toBe('/access?notice=key-already-revoked');
    expect((await alicePage.get(again.headers.get('location') ?? '')).body).toContain('That key was already revoked');
    expect((await keysOf(alice)).find((record) => record.id === key.id)?.revokedAt).toEqual(revokedAt);
    expect((await alicePage.get('/access?notice=%3Cscript%3E')).body).not.toContain('notice ok');
  });

  it('AUTH-KEY-INPUT: a name over the limit, a blank name, a bad expiry or a foreign organization is refused with a clear message, the form kept, no key', async () => {
    const alicePage = await signedIn(alice, ['memories:read', 'memories:write']);
    const before = (await keysOf(alice)).length;
    const globex = (await dashboard.runtime.store.organizations.organizationsOf(bob)).find(
      (organization) => organization.slug === 'globex',
    );
    const cases: [Form, string][] = [
      [
        { name: 'n'.repeat(101), scopes: ['memories:read'] },
        'The key was not created: name must be 1 to 100 characters long and not blank.',
      ],
      [{ name: '   ', scopes: ['memories:read'] }, 'name must be 1 to 100 characters long'],
      [{ name: 'no scopes' }, 'scopes must name at least one scope'],
      [{ name: 'bad expiry', scopes: ['memories:read'], expires_in_days: '0' }, 'expiry must be a whole number of days from 1 to 3650'],
      [{ name: 'bad expiry', scopes: ['memories:read'], expires_in_days: '1.5' }, 'expiry must be a whole number of days from 1 to 3650'],
      [{ name: 'not mine', scopes: ['memories:read'], organization: globex?.id ?? '' }, 'an organization you are a member of'],
    ];
    for (const [form, message] of cases) {
      const refused = await alicePage.post('/access/keys', form);
      expect(refused.status, message).toBe(400);
      expect(refused.body).toContain(message);
      expect(refused.body).toContain('role="alert"');
      expect(createdSecret(refused.body)).toEqual([]);
    }
    const kept = await alicePage.post('/access/keys', { name: 'kept', scopes: ['memories:write'], expires_in_days: '99999' });
    expect(kept.body).toContain('name="name" value="kept"');
    expect(kept.body).toMatch(/value="memories:write" checked=""/);
    expect(kept.body).not.toMatch(/value="memories:read" checked=""/);
    expect((await keysOf(alice)).length).toBe(before);
  });

  it('never gives a key a scope its creator does not hold, and offers admin only to an admin', async () => {
    const reader = await signedIn(toTenantId('reader'), ['memories:read']);
    const page = await reader.get('/access');
    expect(page.body).toContain('value="memories:read"');
    for (const scope of ['memories:write', 'memories:delete', 'admin']) expect(page.body).not.toContain(`value="${scope}"`);
    const refused = await reader.post('/access/keys', { name: 'escalate', scopes: ['memories:read', 'admin'] });
    expect(refused.status).toBe(400);
    expect(refused.body).toContain('a key cannot have a scope you do not hold: admin');
    expect((await keysOf(toTenantId('reader'))).map((key) => key.name)).toEqual(['reader dashboard']);

    // The stdio configurations carry the database's address: for operators only.
    expect(page.body).not.toContain('Over stdio, on the database');
    expect(page.body).not.toContain('DATABASE_URL');
    const admin = await signedIn(toTenantId('operator'), ['memories:read', 'admin']);
    const adminPage = (await admin.get('/access')).body;
    expect(adminPage).toContain('value="admin"');
    expect(adminPage).toContain('Over stdio, on the database');
    expect(adminPage).toContain('DATABASE_URL');
  });

  it('a key made in a session opened with an expiring key expires no later than it, and is revoked with it; so is the session', async () => {
    const erin = toTenantId('erin');
    const minted = mintApiKey();
    const expiresAt = new Date(Date.now() + 2 * 86_400_000);
    const parent = await dashboard.runtime.store.apiKeys.create({
      userId: erin,
      name: 'erin for two days',
      scopes: ['memories:read', 'keys:manage'],
      expiresAt,
      prefix: minted.prefix,
      keyHash: minted.keyHash,
    });
    const erinPage = person(app);
    await erinPage.get('/sign-in');
    expect((await erinPage.post('/sign-in/key', { key: minted.key })).status).toBe(303);
    expect((await dashboard.runtime.store.sessions.listActive(erin, new Date())).map((session) => session.expiresAt.getTime())).toEqual([
      Math.floor(expiresAt.getTime() / 1000) * 1000,
    ]);
    await erinPage.get('/access');
    const children: string[] = [];
    for (const expires_in_days of ['', '30']) {
      const created = await erinPage.post('/access/keys', {
        name: `child ${expires_in_days || 'none'}`,
        scopes: ['memories:read'],
        expires_in_days,
      });
      expect(created.status).toBe(200);
      const child = (await keysOf(erin)).find((key) => key.name === `child ${expires_in_days || 'none'}`);
      // The session ends with its key (whole seconds, as its token says), and the child with the session.
      expect(child?.expiresAt).toEqual(new Date(Math.floor(expiresAt.getTime() / 1000) * 1000));
      children.push(createdSecret(created.body)[0] ?? '');
    }
    // Revoking the key the session was opened with revokes the keys made in it.
    for (const secret of children) expect(await dashboard.runtime.apiKeys.authenticate(secret)).toBeDefined();
    await dashboard.runtime.store.apiKeys.revoke(parent.id, new Date());
    for (const secret of children) expect(await dashboard.runtime.apiKeys.authenticate(secret)).toBeUndefined();
  });

  it('gives a session the pages and actions of its scopes only: a read-only key cannot change or delete a memory', async () => {
    const frank = toTenantId('frank');
    const memory = await dashboard.runtime.store.memories.insertAsGiven(
      frank,
      { tier: 'ltm', content: 'frank keeps this' },
      { id: 'test' },
    );
    const reader = await signedIn(frank, ['memories:read']);
    expect((await reader.get(`/memories/${memory.id}`)).status).toBe(200);
    for (const [action, form, scopes] of [
      ['edit', { content: 'rewritten', version: '1' }, 'memories:write'],
      ['pin', { version: '1' }, 'memories:write'],
      ['delete', { version: '1' }, 'memories:delete'],
    ] as const) {
      const refused = await reader.post(`/memories/${memory.id}/${action}`, form);
      expect([refused.status, refused.body.includes(`needs the ${scopes} scope`)], action).toEqual([403, true]);
    }
    expect((await reader.post('/memories/delete', { ids: memory.id })).status).toBe(403);
    expect((await reader.post('/review/contradictions/resolve', {})).body).toContain('needs the memories:write and memories:delete scopes');
    expect(await dashboard.runtime.store.memories.findById(frank, memory.id)).toMatchObject({
      content: 'frank keeps this',
      version: 1,
      pinned: false,
    });

    const writer = await signedIn(toTenantId('gina'), ['memories:write']);
    expect((await writer.get('/memories')).status).toBe(403);
    expect((await writer.get('/access')).status).toBe(200);
  });

  it('lists the viewer’s organizations with their members, read-only, and no one else’s', async () => {
    const bobPage = await signedIn(bob, ['memories:read']);
    const page = await bobPage.get('/access');
    expect(page.body).toContain('Acme &lt;i&gt;Robotics&lt;/i&gt;');
    expect(page.body).toContain('Globex');
    expect(page.body).toMatch(/alice<\/td><td>owner/);
    expect(page.body).toContain('memsvc orgs add-member');
    expect(page.body).not.toContain('action="/access/orgs');

    const carolPage = await signedIn(toTenantId('carol'), ['memories:read']);
    const carols = await carolPage.get('/access');
    expect(carols.body).toContain('You are not a member of any organization.');
    expect(carols.body).not.toContain('Globex');
  });

  it('AUTH-KEYS-MANAGE: a session without keys:manage can neither see nor change keys or sessions (an agent key cannot mint or revoke)', async () => {
    const hank = toTenantId('hank');
    const agent = await mint(hank, 'hank agent', ['memories:write']);
    const reader = await signedIn(hank, ['memories:read', 'memories:write', 'memories:delete'], { manage: false });
    const page = await reader.get('/access');
    expect([page.status, page.body.includes('needs the keys:manage scope')]).toEqual([403, true]);
    const before = await keysOf(hank);
    for (const [path, form] of [
      ['/access/keys', { name: 'outlives me', scopes: ['memories:read'] }],
      [`/access/keys/${agent.record.id}/revoke`, {}],
      ['/access/sessions/end', {}],
    ] as const) {
      const refused = await reader.post(path, form);
      expect([refused.status, refused.body.includes('needs the keys:manage scope')], path).toEqual([403, true]);
    }
    expect(await keysOf(hank)).toEqual(before);
    expect((await dashboard.runtime.apiKeys.authenticate(agent.key))?.id).toBe(agent.record.id);
    const memories = await reader.get('/memories');
    expect(memories.status).toBe(200);
    // The section it cannot open is not offered.
    expect(memories.body).not.toContain('href="/access"');
  });

  it('AUTH-KEYS-FRESH: a sign-in older than ten minutes cannot make or revoke a key or end sessions; nothing changes until the person signs in again', async () => {
    const ivy = toTenantId('ivy');
    const agent = await mint(ivy, 'ivy agent', ['memories:read']);
    // A GitHub sign-in from eleven minutes ago: the same secret and store, an earlier clock.
    const earlier = new SessionTokens({
      secret: new Secret(JWT_SECRET),
      expiresInSeconds: 7 * 86_400,
      sessions: dashboard.runtime.store.sessions,
      clock: new ManualClock(new Date(Date.now() - (FRESH_SIGN_IN_SECONDS + 60) * 1000)),
    });
    const stale = await earlier.issue({ userId: ivy, organizationId: null, scopes: ['memories:read', 'keys:manage'], origin: 'github' });
    const ivyPage = person(app);
    ivyPage.setCookie('memsvc_session', stale.token);
    expect((await ivyPage.get('/access')).status).toBe(200);
    for (const path of ['/access/keys', `/access/keys/${agent.record.id}/revoke`, '/access/sessions/end']) {
      const refused = await ivyPage.post(path, { name: 'stale', scopes: ['memories:read'] });
      expect([refused.status, refused.body.includes('needs a sign-in from the last 10 minutes')], path).toEqual([403, true]);
    }
    expect((await keysOf(ivy)).map((key) => [key.name, key.revokedAt])).toEqual([['ivy agent', null]]);
    expect(await dashboard.runtime.sessions?.verify(stale.token)).toBeDefined();

    const fresh = await dashboard.runtime.sessions?.issue({
      userId: ivy,
      organizationId: null,
      scopes: ['memories:read', 'keys:manage'],
      origin: 'github',
    });
    ivyPage.setCookie('memsvc_session', fresh?.token ?? '');
    await ivyPage.get('/access');
    expect((await ivyPage.post(`/access/keys/${agent.record.id}/revoke`, {})).status).toBe(303);
    expect(await dashboard.runtime.apiKeys.authenticate(agent.key)).toBeUndefined();
  });

  it('AUTH-KEYS-SESSION-BOUND: a key made in a GitHub sign-in expires no later than it and is revoked when it signs out; a key made before stays', async () => {
    const jack = toTenantId('jack');
    const operatorKey = await mint(jack, 'made by the operator', ['memories:read']);
    const signIn = await dashboard.runtime.sessions?.issue({
      userId: jack,
      organizationId: null,
      scopes: ['memories:read', 'keys:manage'],
      origin: 'github',
    });
    const jackPage = person(app);
    jackPage.setCookie('memsvc_session', signIn?.token ?? '');
    await jackPage.get('/access');
    const created = await jackPage.post('/access/keys', { name: 'for my agent', scopes: ['memories:read'], expires_in_days: '90' });
    expect(created.status).toBe(200);
    const secret = createdSecret(created.body)[0] ?? '';
    const made = await dashboard.runtime.apiKeys.authenticate(secret);
    expect(made?.expiresAt).toEqual(signIn?.expiresAt);

    expect((await jackPage.post('/sign-out', {})).status).toBe(303);
    expect(await dashboard.runtime.apiKeys.authenticate(secret)).toBeUndefined();
    expect((await keysOf(jack)).find((key) => key.name === 'for my agent')?.revokedAt).toBeInstanceOf(Date);
    expect((await dashboard.runtime.apiKeys.authenticate(operatorKey.key))?.id).toBe(operatorKey.record.id);
  });

  it('revoking the key a person signed in with ends that session; ending every session signs the person out', async () => {
    const dana = toTenantId('dana');
    const { key, record } = await mint(dana, 'dana laptop', ['memories:read', 'memories:write', 'keys:manage']);
    const danaPage = person(app);
    await danaPage.get('/sign-in');
    expect((await danaPage.post('/sign-in/key', { key })).status).toBe(303);
    const page = await danaPage.get('/access');
    expect(page.body).toContain('and so is every session exchanged for it');
    expect(page.body).toContain('up to 7 days after they began');

    // A second session of dana's, from a GitHub login, is not the key's and lives on.
    const other = await dashboard.runtime.sessions?.issue({
      userId: dana,
      organizationId: null,
      scopes: ['memories:read', 'keys:manage'],
      origin: 'github',
    });
    expect((await danaPage.post(`/access/keys/${record.id}/revoke`, {})).status).toBe(303);
    expect(await dashboard.runtime.apiKeys.authenticate(key)).toBeUndefined();
    const revokedSession = await danaPage.get('/access');
    expect([revokedSession.status, revokedSession.headers.get('location')]).toEqual([303, '/sign-in']);
    expect(await dashboard.runtime.sessions?.verify(other?.token ?? '')).toBeDefined();

    const fromLogin = person(app);
    fromLogin.setCookie('memsvc_session', other?.token ?? '');
    expect((await fromLogin.get('/access')).status).toBe(200);
    const ended = await fromLogin.post('/access/sessions/end', {});
    expect(ended.status).toBe(303);
    expect(ended.headers.get('location')).toBe('/sign-in');
    const after = await fromLogin.get('/access');
    expect(after.status).toBe(303);
    expect(after.headers.get('location')).toBe('/sign-in');
  });
});
