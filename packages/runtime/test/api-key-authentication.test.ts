import { mintApiKey } from '@memsvc/auth';
import { loadConfig } from '@memsvc/config';
import { toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, type MemsvcRuntime, openRuntime } from '../src/index.js';

describe("the runtime's API key authenticator (over PGlite)", () => {
  const clock = new ManualClock('2026-07-01T09:00:00.000Z');
  let runtime: MemsvcRuntime;
  beforeAll(async () => {
    const { config } = loadConfig({ DATABASE_URL: 'pglite://memory', EMBEDDING_PROVIDER: 'local' }, { homeDir: '/h' });
    runtime = await openRuntime(config, { applicationName: 'auth-test', logger: createLogger('error'), clock });
  });
  afterAll(async () => {
    await runtime?.close();
  });

  const issue = async (options: { expiresAt?: Date } = {}) => {
    const minted = mintApiKey();
    const record = await runtime.store.apiKeys.create({
      userId: toTenantId('alice'),
      name: 'laptop agent',
      scopes: ['memories:read'],
      prefix: minted.prefix,
      keyHash: minted.keyHash,
      ...options,
    });
    return { ...minted, id: record.id };
  };
  const lastUsed = async (id: string) =>
    (await runtime.store.apiKeys.list({ userId: toTenantId('alice') })).find((key) => key.id === id)?.lastUsedAt;

  it('finds a usable key by its token, and nothing for a wrong, malformed, revoked or expired one', async () => {
    const key = await issue();
    expect(await runtime.apiKeys.authenticate(key.key)).toMatchObject({ id: key.id, userId: 'alice', scopes: ['memories:read'] });
    expect(await runtime.apiKeys.authenticate(`${key.key.slice(0, -1)}${key.key.endsWith('A') ? 'B' : 'A'}`)).toBeUndefined();
    expect(await runtime.apiKeys.authenticate('not a key')).toBeUndefined();
    expect(await runtime.apiKeys.authenticate(key.prefix)).toBeUndefined();

    const expiring = await issue({ expiresAt: new Date(clock.now().getTime() + 60_000) });
    expect(await runtime.apiKeys.authenticate(expiring.key)).toBeDefined();
    clock.advance(60_000);
    expect(await runtime.apiKeys.authenticate(expiring.key)).toBeUndefined();

    await runtime.store.apiKeys.revoke(key.id, clock.now());
    expect(await runtime.apiKeys.authenticate(key.key)).toBeUndefined();
  });

  it('records last use in one write per flush, not per call', async () => {
    const key = await issue();
    for (let i = 0; i < 5; i++) await runtime.apiKeys.authenticate(key.key);
    expect(await lastUsed(key.id)).toBeNull();
    clock.advance(1000);
    await runtime.apiKeys.flush();
    expect(await lastUsed(key.id)).toEqual(clock.now());
  });
});
