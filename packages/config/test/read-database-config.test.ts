/// <reference types="node" />
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { ConfigError, loadConfig } from '../src/index.js';

const context = { homeDir: '/home/agent' };
const PRIMARY = 'postgres://memsvc:primary-pw@db-primary:5432/memsvc';
const STANDBY = 'postgres://memsvc:standby-pw@db-standby:5432/memsvc';

function issuesOf(env: Record<string, string>) {
  try {
    loadConfig(env, context);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues;
  }
  throw new Error('expected the configuration to be rejected');
}

describe('DATABASE_READ_URL', () => {
  it(verifies('CFG-DB-READ', 'is off unless set; set, it names a standby of a PostgreSQL primary with a lag bound'), () => {
    expect(loadConfig({ DATABASE_URL: PRIMARY }, context).config.database.read).toBeUndefined();
    expect(loadConfig({ DATABASE_URL: PRIMARY, DATABASE_READ_URL: '  ' }, context).config.database.read).toBeUndefined();

    const read = loadConfig({ DATABASE_URL: PRIMARY, DATABASE_READ_URL: STANDBY }, context).config.database.read;
    expect(read?.target.engine).toBe('postgres');
    expect(read?.url.reveal()).toBe(STANDBY);
    expect(read?.displayUrl).toBe('postgres://memsvc:*****@db-standby:5432/memsvc');
    expect(read?.maxLagMs).toBe(10_000);
    const bounded = loadConfig({ DATABASE_URL: PRIMARY, DATABASE_READ_URL: STANDBY, DATABASE_READ_MAX_LAG_MS: '2500' }, context);
    expect(bounded.config.database.read?.maxLagMs).toBe(2500);
  });

  it(verifies('CFG-DB-READ', 'refuses pglite://, a pglite primary, the primary’s own URL and a bad lag bound, naming the variable'), () => {
    expect(issuesOf({ DATABASE_URL: PRIMARY, DATABASE_READ_URL: 'pglite://memory' })).toEqual([
      {
        variable: 'DATABASE_READ_URL',
        message: 'must be a postgres:// or postgresql:// URL of a PostgreSQL hot standby: an embedded pglite:// database has no replicas',
      },
    ]);
    expect(issuesOf({ DATABASE_URL: 'pglite://./data', DATABASE_READ_URL: STANDBY })).toEqual([
      {
        variable: 'DATABASE_READ_URL',
        message: 'needs DATABASE_URL to be PostgreSQL: a read replica is a hot standby of a PostgreSQL primary, and pglite:// has none',
      },
    ]);
    const [same] = issuesOf({ DATABASE_URL: PRIMARY, DATABASE_READ_URL: ` ${PRIMARY} ` });
    expect(same).toEqual({
      variable: 'DATABASE_READ_URL',
      message: 'is the same as DATABASE_URL: name the hot standby that replicates it, or leave DATABASE_READ_URL unset',
    });
    expect(issuesOf({ DATABASE_URL: PRIMARY, DATABASE_READ_URL: STANDBY, DATABASE_READ_MAX_LAG_MS: '100' })).toEqual([
      { variable: 'DATABASE_READ_MAX_LAG_MS', message: 'must be at least 500 (got 100)' },
    ]);
  });

  it(verifies('CFG-DB-READ', 'never repeats a password, in an error or in the loaded configuration'), () => {
    const error = (() => {
      try {
        loadConfig({ DATABASE_URL: PRIMARY, DATABASE_READ_URL: 'mysql://root:hunter2@db/memsvc' }, context);
      } catch (caught) {
        return caught as Error;
      }
      throw new Error('expected the configuration to be rejected');
    })();
    expect(error.message).toContain('DATABASE_READ_URL: unsupported scheme "mysql"');
    expect(error.message).not.toContain('hunter2');

    const { config } = loadConfig({ DATABASE_URL: PRIMARY, DATABASE_READ_URL: STANDBY }, context);
    for (const printed of [JSON.stringify(config), inspect(config, { depth: 10 }), String(config.database.read?.url)]) {
      expect(printed).not.toContain('standby-pw');
      expect(printed).not.toContain('primary-pw');
    }
  });
});
