import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JWT_SECRET, startTestDashboard, type TestDashboard } from './support/dashboard-harness.js';
import { csrfOf, visitor } from './support/http-visitor.js';

const SHARED_KEY = 'a-pre-shared-key-for-the-lite-test-0123456789';

/**
 * The access page of a lite server (spec §5.5: no per-agent keys, no organizations), served
 * inside memsvc-server as the lite quick start runs it, over a real listening socket: the
 * address it shows is the one the request reached, and it offers nothing lite refuses.
 */
describe('the access page on the lite profile', () => {
  let open: TestDashboard;
  let keyed: TestDashboard;

  beforeAll(async () => {
    const lite = { DEPLOYMENT_PROFILE: 'lite', MCP_TRANSPORT: 'streamable-http', MEMSVC_DEFAULT_USER_ID: 'dev' };
    open = await startTestDashboard('pglite://memory', { basePath: '/dashboard', env: lite });
    keyed = await startTestDashboard('pglite://memory', {
      basePath: '/dashboard',
      env: { ...lite, AUTH_REQUIRED: 'true', JWT_SECRET, MEMSVC_API_KEY: SHARED_KEY },
    });
  });
  afterAll(async () => {
    await open?.close();
    await keyed?.close();
  });

  it('shows the MCP address this request reached, configurations without a key, and no key form', async () => {
    const browser = visitor(open.url);
    const response = await browser.get('/access');
    expect(response.status).toBe(200);
    const html = await response.text();
    const address = `${new URL(open.url).origin}/mcp`;
    expect(address).toMatch(/^http:\/\/localhost:\d+\/mcp$/);
    expect(html).toContain(`<code class="mcp-url">${address}</code>`);
    expect(html).toContain(`claude mcp add --transport http memsvc ${address}</code>`);
    expect(html).not.toContain('memsvc-host');
    expect(html).not.toMatch(/Authorization|Bearer|your-api-key/);
    expect(html).not.toContain('class="create-key"');
    expect(html).not.toContain('Organizations');
    expect(html).toContain('no per-agent API keys');

    // The same page reached by another name shows that name: what the request reached, not a guess.
    const byAddress = await fetch(`${open.url.replace('localhost', '127.0.0.1')}/access`, {
      headers: { cookie: browser.cookieHeader() },
    });
    expect(await byAddress.text()).toContain(`<code class="mcp-url">${address.replace('localhost', '127.0.0.1')}</code>`);

    // A key posted anyway is refused and none is made.
    const refused = await browser.post('/access/keys', { _csrf: csrfOf(html), name: 'agent', expires_in_days: '30' });
    expect(refused.status).toBe(403);
    expect(await refused.text()).toContain('accepts no per-agent keys');
    expect(await open.runtime.store.apiKeys.list({ userId: 'dev' as never })).toEqual([]);

    // Lite has one person: no one to share a space with, so no section and no share.
    expect(html).not.toContain('Shared spaces');
    const share = await browser.post('/access/grants', {
      _csrf: csrfOf(html),
      space: 'project:x',
      grantee_kind: 'user',
      grantee_id: 'someone',
      access: 'read',
    });
    expect([share.status, (await share.text()).includes('there is no one to share a space with')]).toEqual([403, true]);
    expect(await open.runtime.store.grants.given('dev' as never, 10)).toEqual([]);
  });

  it('with AUTH_REQUIRED, names the pre-shared MEMSVC_API_KEY and never prints it', async () => {
    const html = await (await visitor(keyed.url).get('/access')).text();
    expect(html).toContain('Bearer &lt;MEMSVC_API_KEY&gt;');
    expect(html).not.toContain(SHARED_KEY);
    expect(html).not.toContain('your-api-key');
    expect(html).not.toContain('class="create-key"');
  });
});
