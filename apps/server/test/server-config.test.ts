import { ConfigError } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { readServerConfig } from '../src/index.js';

describe('server boot configuration', () => {
  it('refuses a multi-tenant streamable-HTTP server without auth, and boots once it is required', () => {
    const env = { DATABASE_URL: 'pglite://memory', MCP_TRANSPORT: 'streamable-http' };
    expect(() => readServerConfig(env, '/home/x')).toThrow(ConfigError);
    expect(readServerConfig({ ...env, DEPLOYMENT_PROFILE: 'lite' }, '/home/x').config.profile).toBe('lite');
    expect(readServerConfig({ ...env, AUTH_REQUIRED: 'true', JWT_SECRET: 'j'.repeat(32) }, '/home/x').config.auth.required).toBe(true);
  });
});
