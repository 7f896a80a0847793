import { ConfigError } from '@memsvc/config';
import { describe, expect, it } from 'vitest';
import { readServerConfig } from '../src/index.js';

describe('server boot configuration', () => {
  it('refuses a multi-tenant streamable-HTTP server without auth, and boots once it is required', () => {
    const env = { DATABASE_URL: 'pglite://memory', MCP_TRANSPORT: 'streamable-http' };
    expect(() => readServerConfig(env, '/home/x')).toThrow(ConfigError);
    expect(readServerConfig({ ...env, DEPLOYMENT_PROFILE: 'lite' }, '/home/x').config.profile).toBe('lite');
    expect(readServerConfig({ ...env, AUTH_REQUIRED: 'true', JWT_SECRET: 'j'.repeat(32) }, '/home/x').config.auth.required).toBe(true);
  });

  it('warns when MEMSVC_SERVER_JOBS=false leaves an embedded database with nobody to run its jobs', () => {
    const env = { DATABASE_URL: 'pglite://memory', DEPLOYMENT_PROFILE: 'lite' };
    expect(readServerConfig(env, '/home/x').warnings).toEqual([]);
    expect(readServerConfig({ ...env, MEMSVC_SERVER_JOBS: 'false' }, '/home/x').warnings).toEqual([
      expect.stringMatching(
        /^MEMSVC_SERVER_JOBS=false on an embedded database: background jobs run only in the process hosting it, so none will run while this one does/,
      ),
    ]);
    const postgres = { DATABASE_URL: 'postgres://memsvc@db.internal:5432/memsvc', MEMSVC_SERVER_JOBS: 'false' };
    expect(readServerConfig(postgres, '/home/x').warnings).toEqual([]);
  });
});
