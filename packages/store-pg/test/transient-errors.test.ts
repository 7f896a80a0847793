import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase } from '../../../tooling/vitest/test-databases.ts';
import { isTransientDatabaseError } from '../src/connection/transient-errors.js';

const failureOf = async (action: () => Promise<unknown>): Promise<unknown> => {
  try {
    await action();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
};

describe('isTransientDatabaseError: the database went away, or the statement was wrong', () => {
  it('knows the driver’s connection failures and never a statement’s own error', () => {
    expect(isTransientDatabaseError(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ECONNREFUSED' }))).toBe(true);
    expect(isTransientDatabaseError(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(isTransientDatabaseError(Object.assign(new Error('sorry, too many clients already'), { code: '53300' }))).toBe(true);
    expect(isTransientDatabaseError(Object.assign(new Error('syntax error at or near "SELEC"'), { code: '42601' }))).toBe(false);
    // 55000 is also a statement's error ("currval of sequence is not yet defined"): only its
    // refused-connection message counts.
    expect(isTransientDatabaseError(Object.assign(new Error('currval of sequence "s" is not yet defined'), { code: '55000' }))).toBe(false);
    expect(isTransientDatabaseError('Connection terminated')).toBe(false);
    expect(isTransientDatabaseError(undefined)).toBe(false);
  });

  const pgUrl = inject('pgvectorTestUrl');
  it.skipIf(!pgUrl)('counts a real PostgreSQL database closed to connections, and not a real bad statement', async () => {
    const database = await createTestDatabase(pgUrl ?? '', 'memsvc_transient');
    const admin = new pg.Client({ connectionString: pgUrl ?? '' });
    await admin.connect();
    try {
      const bad = new pg.Client({ connectionString: database.url });
      await bad.connect();
      expect(isTransientDatabaseError(await failureOf(() => bad.query('SELEC 1')))).toBe(false);
      await bad.end();

      await admin.query(`ALTER DATABASE "${new URL(database.url).pathname.slice(1)}" ALLOW_CONNECTIONS false`);
      const refused = new pg.Client({ connectionString: database.url });
      const error = await failureOf(() => refused.connect());
      expect(error).toMatchObject({ code: '55000' });
      expect(isTransientDatabaseError(error)).toBe(true);
    } finally {
      await admin.end();
      await database.drop();
    }
  });
});
