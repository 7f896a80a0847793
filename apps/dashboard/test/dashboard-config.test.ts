import { ConfigError } from '@memsvc/config';
import { describe, expect, it } from 'vitest';
import { readDashboardConfig } from '../src/dashboard-config.js';

describe('the dashboard configuration', () => {
  it('reads its database from WEB_DATABASE_URL when set, else DATABASE_URL', () => {
    const env = { DEPLOYMENT_PROFILE: 'lite', DATABASE_URL: 'pglite://memory' };
    expect(readDashboardConfig(env, '/tmp').config.database.displayUrl).toBe('pglite://memory');
    expect(readDashboardConfig({ ...env, WEB_DATABASE_URL: 'postgres://reader@db/memsvc' }, '/tmp').config.database.displayUrl).toBe(
      'postgres://reader@db/memsvc',
    );
  });

  it('names WEB_DATABASE_URL, not DATABASE_URL, when that is the URL it cannot use', () => {
    const refused = (env: Record<string, string>) => {
      try {
        readDashboardConfig({ DEPLOYMENT_PROFILE: 'lite', ...env }, '/tmp');
      } catch (error) {
        if (error instanceof ConfigError) return error;
      }
      throw new Error('expected a ConfigError');
    };
    const web = refused({ DATABASE_URL: 'postgres://h/db', WEB_DATABASE_URL: 'mysql://x/y' });
    expect(web.issues.map((issue) => issue.variable)).toEqual(['WEB_DATABASE_URL']);
    expect(web.message).toMatch(/WEB_DATABASE_URL: /);
    const plain = refused({ DATABASE_URL: 'mysql://x/y' });
    expect(plain.issues.map((issue) => issue.variable)).toEqual(['DATABASE_URL']);
  });
});
