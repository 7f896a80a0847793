import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** A throw-away database on the test PostgreSQL, and how to drop it. */
export interface TestDatabase {
  readonly url: string;
  drop(): Promise<void>;
}

/**
 * Creates an empty database (named `<prefix>_<random>`) on the server of `baseUrl`, so test
 * files and test processes can run in parallel without sharing rows.
 */
export async function createTestDatabase(baseUrl: string, prefix = 'memsvc_t'): Promise<TestDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  await onServer(baseUrl, `CREATE DATABASE "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => onServer(baseUrl, `DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`) };
}

async function onServer(baseUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: baseUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}
