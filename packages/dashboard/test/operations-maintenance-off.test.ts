import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestDashboard, type TestDashboard } from './support/dashboard-harness.js';

/**
 * Without MCP_ADMIN_TOKEN the maintenance actions are refused: the operations page says so up
 * front, instead of a form that explains itself only after it was filled in and sent.
 */
describe('the operations page without MCP_ADMIN_TOKEN', () => {
  let dashboard: TestDashboard;
  beforeAll(async () => {
    dashboard = await startTestDashboard('pglite://memory', { env: { MCP_ADMIN_TOKEN: '' } });
  });
  afterAll(async () => {
    await dashboard?.close();
  });

  it('says maintenance is off and how to turn it on, and offers no reindex form', async () => {
    expect(dashboard.runtime.config.auth.adminToken).toBeUndefined();
    const page = await fetch(`${dashboard.url}/operations`);
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('Maintenance is off on this server');
    expect(html).toContain('<code>MCP_ADMIN_TOKEN</code>');
    expect(html).not.toContain('Queue a reindex job');
    expect(html).not.toContain('name="adminToken"');
    // The jobs table stays: what ran before is still worth seeing.
    expect(html).toContain('Recent reindex jobs, newest first');
  });

  it('with MCP_ADMIN_TOKEN set offers the form and no such notice', async () => {
    const enabled = await startTestDashboard('pglite://memory');
    try {
      const html = await (await fetch(`${enabled.url}/operations`)).text();
      expect(html).toContain('Queue a reindex job');
      expect(html).not.toContain('Maintenance is off on this server');
    } finally {
      await enabled.close();
    }
  });
});
