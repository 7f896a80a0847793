import { SCOPES } from '@memsvc/access';
import { isMemsvcError, type MemsvcError, toTenantId } from '@memsvc/core';
import { ManualClock } from '@memsvc/core/testing';
import { type MemsvcStore, openStore } from '@memsvc/store-pg';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase, type TestDatabase } from '../../../tooling/vitest/test-databases.ts';
import { testTemplates } from '../../../tooling/vitest/test-templates.ts';
import { hashApiKey, issueApiKey } from '../src/index.js';

const alice = toTenantId('alice');
const pgvectorTestUrl = inject('pgvectorTestUrl');

/** The MemsvcError a promise rejects with. */
async function refusal(promise: Promise<unknown>): Promise<MemsvcError> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!isMemsvcError(error)) throw new Error(`expected a MemsvcError, got ${String(error)}`);
  return error;
}

function suite(engine: string, databaseUrl: () => Promise<string>, cleanUp: () => Promise<void>) {
  describe(`issuing an API key [${engine}]`, () => {
    const clock = new ManualClock('2026-07-01T09:00:00.000Z');
    let store: MemsvcStore;
    beforeAll(async () => {
      store = await openStore({ database: await databaseUrl(), clock, ...testTemplates() });
    });
    afterAll(async () => {
      await store?.close();
      await cleanUp();
    });

    it('stores only the hash and prefix of the key it returns once, with the expiry counted in days', async () => {
      const { record, key } = await issueApiKey(
        store.apiKeys,
        { userId: alice, name: 'laptop agent', scopes: ['memories:read'], expiresInDays: 30 },
        { heldScopes: SCOPES },
        clock,
      );
      expect(record).toMatchObject({ userId: 'alice', name: 'laptop agent', scopes: ['memories:read'], prefix: key.slice(0, 12) });
      expect(record.expiresAt?.toISOString()).toBe('2026-07-31T09:00:00.000Z');
      expect((await store.apiKeys.findUsable(hashApiKey(key), clock.now()))?.id).toBe(record.id);
    });

    it('AUTH-KEY-SCOPES-HELD: gives no scope its maker does not hold, and writes nothing then', async () => {
      const before = (await store.apiKeys.list({ userId: alice })).length;
      const error = await refusal(
        issueApiKey(
          store.apiKeys,
          { userId: alice, name: 'escalation', scopes: ['memories:read', 'admin'] },
          { heldScopes: ['memories:read'] },
          clock,
        ),
      );
      expect([error.code, error.data.field, error.message]).toEqual([
        'INVALID_INPUT',
        'scopes',
        'a key cannot have a scope you do not hold: admin',
      ]);
      expect(await store.apiKeys.list({ userId: alice })).toHaveLength(before);
    });

    it("leaves the store's own rules to the store: a key joins only an organization its user is a member of", async () => {
      const error = await refusal(
        issueApiKey(
          store.apiKeys,
          { userId: alice, name: 'org bot', scopes: ['memories:read'], organizationId: '0196a0d4-0000-7000-8000-000000000000' },
          { heldScopes: SCOPES },
          clock,
        ),
      );
      expect(error.code).toBe('NOT_FOUND');
    });
  });
}

suite(
  'pglite',
  async () => 'pglite://memory',
  async () => undefined,
);

if (pgvectorTestUrl) {
  let database: TestDatabase | undefined;
  suite(
    'postgres',
    async () => {
      database = await createTestDatabase(pgvectorTestUrl);
      return database.url;
    },
    async () => {
      await database?.drop();
    },
  );
} else {
  describe.skip('issuing an API key [postgres] (skipped: no real PostgreSQL — run tooling/scripts/pg-local.sh or set PGVECTOR_TEST_URL)', () => {
    it('runs on PostgreSQL', () => undefined);
  });
}
