import { loadConfig } from '@memsvc/config';
import { describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { cookiesMustBeSecure } from '../src/index.js';

const configOf = (env: Record<string, string>) =>
  loadConfig({ DATABASE_URL: 'pglite://memory', DEPLOYMENT_PROFILE: 'lite', ...env }, { homeDir: '/tmp' }).config;

describe('cookiesMustBeSecure', () => {
  it(verifies('R-EDGE-SECURE-COOKIES', 'the decision table: Secure unless plain-HTTP development bound to loopback'), () => {
    const table: [Record<string, string>, boolean][] = [
      // The shared-server posture of docs/security.md and the container: NODE_ENV unset, every interface.
      [{}, true],
      [{ HOST: '0.0.0.0' }, true],
      [{ HOST: '::' }, true],
      [{ HOST: '192.168.1.20' }, true],
      [{ NODE_ENV: 'development', HOST: '0.0.0.0', MEMSVC_MCP_URL: 'http://memory.lan:3000/mcp' }, true],
      // Plain-HTTP local development: only this machine can reach the port.
      [{ HOST: '127.0.0.1' }, false],
      [{ HOST: 'localhost' }, false],
      [{ HOST: '::1' }, false],
      [{ HOST: '[::1]' }, false],
      [{ NODE_ENV: 'development', HOST: '127.0.0.1', MEMSVC_MCP_URL: 'http://localhost:3000/mcp' }, false],
      // Production or test, or an HTTPS URL, is Secure wherever it is bound.
      [{ NODE_ENV: 'production', HOST: '127.0.0.1' }, true],
      [{ NODE_ENV: 'test', HOST: '127.0.0.1' }, true],
      [{ HOST: '127.0.0.1', MEMSVC_MCP_URL: 'HTTPS://memory.example.com/mcp' }, true],
      [{ HOST: '127.0.0.1', OAUTH_REDIRECT_BASE_URL: 'https://memory.example.com' }, true],
    ];
    for (const [env, secure] of table) expect({ env, secure: cookiesMustBeSecure(configOf(env)) }).toEqual({ env, secure });
  });
});
