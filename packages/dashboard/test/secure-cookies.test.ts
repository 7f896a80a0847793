import { loadConfig } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { cookiesMustBeSecure } from '../src/index.js';

const configOf = (env: Record<string, string>) =>
  loadConfig({ DATABASE_URL: 'pglite://memory', DEPLOYMENT_PROFILE: 'lite', ...env }, { homeDir: '/tmp' }).config;

describe('cookiesMustBeSecure', () => {
  it('is Secure everywhere but plain-HTTP development, whatever NODE_ENV says when memsvc is reached over HTTPS', () => {
    expect(cookiesMustBeSecure(configOf({}))).toBe(false);
    expect(cookiesMustBeSecure(configOf({ NODE_ENV: 'development', MEMSVC_MCP_URL: 'http://localhost:3000/mcp' }))).toBe(false);
    expect(cookiesMustBeSecure(configOf({ NODE_ENV: 'production' }))).toBe(true);
    expect(cookiesMustBeSecure(configOf({ NODE_ENV: 'test' }))).toBe(true);
    expect(cookiesMustBeSecure(configOf({ MEMSVC_MCP_URL: 'HTTPS://memory.example.com/mcp' }))).toBe(true);
    expect(cookiesMustBeSecure(configOf({ OAUTH_REDIRECT_BASE_URL: 'https://memory.example.com' }))).toBe(true);
  });
});
