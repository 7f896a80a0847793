import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { mintApiKey } from '@memsvc/auth';
import { toTenantId } from '@memsvc/core';
import { openStore } from '@memsvc/store-pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testTemplates } from '../../../tooling/vitest/test-templates.ts';
import { type ServerProcess, startHttpServer } from './support/server-process.js';

const SHARED_KEY = 'lite-shared-key-for-this-machine-0123';

/**
 * The lite profile is single-user with no auth stack (spec §1.4, §5.5): AUTH_REQUIRED=true there
 * means the pre-shared MEMSVC_API_KEY and nothing else — a per-agent key found in its database
 * is not accepted, and no session endpoint exists.
 */
describe('AUTH_REQUIRED=true on the lite profile', () => {
  const directory = mkdtempSync(join(tmpdir(), 'memsvc-lite-auth-'));
  let server: ServerProcess;
  let agentKey: string;

  beforeAll(async () => {
    const database = `pglite://${join(directory, 'data')}`;
    // A key written by `memsvc keys create` (which warns that lite ignores it), before the server holds the directory.
    const store = await openStore({ database, ...testTemplates() });
    const minted = mintApiKey();
    await store.apiKeys.create({
      userId: toTenantId('me'),
      name: 'agent',
      scopes: ['memories:read'],
      prefix: minted.prefix,
      keyHash: minted.keyHash,
    });
    await store.close();
    agentKey = minted.key;
    server = await startHttpServer({
      DATABASE_URL: database,
      DEPLOYMENT_PROFILE: 'lite',
      AUTH_REQUIRED: 'true',
      JWT_SECRET: 'l'.repeat(40),
      MEMSVC_API_KEY: SHARED_KEY,
      MEMSVC_DEFAULT_USER_ID: 'me',
    });
  });
  afterAll(async () => {
    await server?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  const ping = async (bearer: string) =>
    (
      await fetch(`${server.url}/mcp`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${bearer}` },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', arguments: {} } }),
      })
    ).status;

  it('accepts the pre-shared key only: a per-agent key is refused, and there are no sessions', async () => {
    expect(await ping(SHARED_KEY)).toBe(200);
    expect(await ping(agentKey)).toBe(401);
    expect(await ping('')).toBe(401);
    const exchange = await fetch(`${server.url}/auth/session`, { method: 'POST', headers: { authorization: `Bearer ${agentKey}` } });
    expect(exchange.status).toBe(404);
  });
});
