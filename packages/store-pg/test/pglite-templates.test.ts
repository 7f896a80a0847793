import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, afterEach, describe, expect, inject, it } from 'vitest';
import type {} from '../../../tooling/vitest/postgres-global-setup.ts';
import { createTestDatabase } from '../../../tooling/vitest/test-databases.ts';
import { embeddedSchemaFingerprint, PgliteTemplates } from '../src/connection/pglite-templates.js';
import { type MemsvcStore, openStore, pendingMigrations } from '../src/index.js';
import { embeddedTemplateFingerprint, KNOWN_MIGRATIONS } from '../src/migrations/migrate.js';

const roots: string[] = [];
afterAll(() => {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
});
function temporaryDirectory(): string {
  const root = mkdtempSync(join(tmpdir(), 'memsvc-templates-'));
  roots.push(root);
  return root;
}

/** What the migrations made: every table's columns, every index, function and trigger. */
async function schemaOf(store: MemsvcStore): Promise<string[]> {
  const rows = await sql<{ item: string }>`
    SELECT 'column ' || table_name || '.' || column_name || ' ' || data_type || ' ' || coalesce(column_default, '') AS item
    FROM information_schema.columns WHERE table_schema = 'public'
    UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = 'public'
    UNION ALL SELECT 'function ' || p.proname || ' ' || md5(p.prosrc) FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = 'public'
    UNION ALL SELECT 'trigger ' || tgname FROM pg_trigger WHERE NOT tgisinternal
    UNION ALL SELECT 'extension ' || extname || ' ' || extversion FROM pg_extension
    ORDER BY 1`.execute(store.connection.db);
  return rows.rows.map((row) => row.item);
}

async function memoryCount(store: MemsvcStore): Promise<number> {
  const rows = await sql<{ count: number }>`SELECT count(*)::int AS count FROM memories`.execute(store.connection.db);
  return rows.rows[0]?.count ?? -1;
}

async function insertMemory(store: MemsvcStore, content: string): Promise<void> {
  await sql`
    INSERT INTO memories (id, user_id, tier, content, content_hash)
    VALUES (gen_random_uuid(), 'alice', 'ltm', ${content}, md5(${content}))`.execute(store.connection.db);
}

describe('embedded-database templates [pglite]', () => {
  const open: MemsvcStore[] = [];
  /** A cache directory holding a good template, copied from the one the first test made (initdb is the slow part). */
  let made: string | undefined;
  const withTemplate = () => {
    if (!made) throw new Error('the first test makes the template the others copy');
    const directory = join(temporaryDirectory(), 'cache');
    mkdirSync(directory, { mode: 0o700 });
    copyFileSync(templateFile(made), templateFile(directory));
    return directory;
  };
  afterEach(async () => {
    for (const store of open.splice(0)) await store.close();
  });
  const openWith = async (database: string, directory: string, errors: unknown[] = [], migrate = true) => {
    const store = await openStore({ database, pgliteTemplates: { directory }, migrate, onUpkeepError: (error) => errors.push(error) });
    open.push(store);
    return store;
  };
  const templateFile = (directory: string) => new PgliteTemplates(directory, embeddedTemplateFingerprint()).file;

  it('keeps the first new database as the template (owner-only), and the next one starts from it with the same schema', async () => {
    const directory = join(temporaryDirectory(), 'cache');
    const errors: unknown[] = [];
    const first = await openWith('pglite://memory', directory, errors);
    expect(first.connection.embedded?.startedFrom).toBe('initdb');
    expect(readdirSync(directory)).toEqual([`pglite-${embeddedTemplateFingerprint()}.tar.gz`]);
    expect(statSync(templateFile(directory)).mode & 0o777).toBe(0o600);
    expect(statSync(directory).mode & 0o777).toBe(0o700);

    const second = await openWith('pglite://memory', directory, errors);
    expect(second.connection.embedded?.startedFrom).toBe('template');
    expect(await pendingMigrations(second.connection.db as never)).toEqual([]);
    expect(await schemaOf(second)).toEqual(await schemaOf(first));
    expect(errors).toEqual([]);
    made = directory;
  });

  it('never puts a tenant’s rows in the template, and a database made from it is never saved again', async () => {
    const directory = withTemplate();
    const before = readFileSync(templateFile(directory));
    const first = await openWith('pglite://memory', directory);
    expect(first.connection.embedded?.startedFrom).toBe('template');
    await insertMemory(first, 'written into a database made from the template');
    const second = await openWith('pglite://memory', directory);
    expect(await memoryCount(second)).toBe(0);
    expect(readFileSync(templateFile(directory)).equals(before)).toBe(true);
  });

  it('a directory database made from the template keeps its rows when opened again, as an existing database', async () => {
    const directory = withTemplate();
    const data = `pglite://${join(temporaryDirectory(), 'data')}`;
    const made = await openWith(data, directory);
    expect(made.connection.embedded?.startedFrom).toBe('template');
    await insertMemory(made, 'kept on disk');
    await made.close();
    open.splice(open.indexOf(made), 1);

    const reopened = await openWith(data, directory);
    expect(reopened.connection.embedded?.startedFrom).toBe('existing');
    expect(await memoryCount(reopened)).toBe(1);
  });

  it('a damaged template is reported, the database starts from initdb, and a good template replaces it', async () => {
    const directory = join(temporaryDirectory(), 'cache');
    mkdirSync(directory);
    const good = readFileSync(templateFile(withTemplate()));
    const damages: [string, Buffer, string][] = [
      ['not gzip at all', Buffer.from('this is not a template'), 'pglite://memory'],
      // A directory that a failed load wrote into is emptied again before initdb.
      ['a truncated data directory', gzipSync(gunzipSync(good).subarray(0, 1 << 20)), `pglite://${join(temporaryDirectory(), 'data')}`],
    ];
    for (const [damage, bytes, database] of damages) {
      writeFileSync(templateFile(directory), bytes);
      const errors: unknown[] = [];
      const store = await openWith(database, directory, errors);
      expect(store.connection.embedded?.startedFrom, damage).toBe('initdb');
      expect(await pendingMigrations(store.connection.db as never)).toEqual([]);
      expect(errors.map((error) => (error as Error).message)).toEqual([
        expect.stringMatching(/template .* could not be loaded; it will be made again/),
      ]);
      const next = await openWith('pglite://memory', directory);
      expect(next.connection.embedded?.startedFrom, `${damage}: replaced`).toBe('template');
    }
  });

  it('refuses a gzip file that holds no tar archive before PGlite sees it', async () => {
    const directory = join(temporaryDirectory(), 'cache');
    const templates = new PgliteTemplates(directory, embeddedTemplateFingerprint());
    mkdirSync(directory);
    writeFileSync(templates.file, gzipSync(Buffer.alloc(4096, 7)));
    await expect(templates.read()).rejects.toThrow(/holds no tar archive/);
  });

  it('kept in memory, a template is read from its file once; a file replaced since is read again', async () => {
    const directory = withTemplate();
    const file = templateFile(directory);
    const original = readFileSync(file);
    // A time in whole milliseconds, so that setting it again below gives the file the same time.
    const mtime = new Date('2026-01-01T00:00:00.000Z');
    utimesSync(file, mtime, mtime);
    const kept = new PgliteTemplates(directory, embeddedTemplateFingerprint(), { keepInMemory: true });
    const first = await kept.read();
    expect(first?.size).toBe(gunzipSync(original).byteLength);

    // Bytes that are no template, in a file of the same size and time: only a process that kept
    // the template in memory never notices.
    writeFileSync(file, Buffer.concat([Buffer.alloc(original.byteLength - 1, 0), Buffer.from([1])]));
    utimesSync(file, mtime, mtime);
    const again = Buffer.from(await ((await kept.read()) as Blob).arrayBuffer());
    expect(Buffer.compare(again, Buffer.from(await (first as Blob).arrayBuffer()))).toBe(0);

    // Replaced by a file of another time (a damaged template made again): read anew.
    const later = new Date(mtime.getTime() + 5_000);
    utimesSync(file, later, later);
    await expect(kept.read()).rejects.toThrow();
    writeFileSync(file, original);
    expect((await kept.read())?.size).toBe(first?.size);
    const store = await openStore({ database: 'pglite://memory', pgliteTemplates: { directory, keepInMemory: true } });
    open.push(store);
    expect(store.connection.embedded?.startedFrom).toBe('template');
    expect(await pendingMigrations(store.connection.db as never)).toEqual([]);
  });

  it('a template directory that cannot be written costs only the time: the database opens and the failure is reported', async () => {
    const blocked = join(temporaryDirectory(), 'a-file');
    writeFileSync(blocked, '');
    const errors: unknown[] = [];
    const store = await openWith('pglite://memory', join(blocked, 'cache'), errors);
    expect(store.connection.embedded?.startedFrom).toBe('initdb');
    expect(await pendingMigrations(store.connection.db as never)).toEqual([]);
    expect(errors.map((error) => (error as Error).message)).toEqual([expect.stringMatching(/template .* could not be saved/)]);
  });

  it('a store opened without migrating never loads a template', async () => {
    const directory = withTemplate();
    const bare = await openWith('pglite://memory', directory, [], false);
    expect(bare.connection.embedded?.startedFrom).toBe('initdb');
    expect(await pendingMigrations(bare.connection.db as never)).toEqual(KNOWN_MIGRATIONS);
  });

  it('two processes saving the template at once both succeed, and a reader meanwhile sees a whole template or none', async () => {
    const directory = join(temporaryDirectory(), 'cache');
    const templates = new PgliteTemplates(directory, embeddedTemplateFingerprint());
    const tarball = new Blob([gunzipSync(readFileSync(templateFile(withTemplate())))]);
    const reads: (Blob | undefined)[] = [];
    await Promise.all([
      templates.save(tarball),
      templates.save(tarball),
      (async () => {
        for (let i = 0; i < 20; i++) reads.push(await templates.read());
      })(),
    ]);
    expect(readdirSync(directory)).toEqual([`pglite-${embeddedTemplateFingerprint()}.tar.gz`]);
    for (const read of [...reads, await templates.read()]) if (read) expect(read.size).toBe(tarball.size);
    expect((await openWith('pglite://memory', directory)).connection.embedded?.startedFrom).toBe('template');
  });
});

describe('embedded-database template names', () => {
  const migrations = { '0001-a': { up: () => 'CREATE TABLE a ()' }, '0002-b': { up: () => 'CREATE TABLE b ()' } };

  it('are stable for the same migrations and change when one changes or is added', () => {
    const name = embeddedSchemaFingerprint(migrations);
    expect(embeddedSchemaFingerprint({ ...migrations })).toBe(name);
    expect(embeddedSchemaFingerprint({ ...migrations, '0002-b': { up: () => 'CREATE TABLE b (x int)' } })).not.toBe(name);
    expect(embeddedSchemaFingerprint({ ...migrations, '0003-c': { up: () => 'CREATE TABLE c ()' } })).not.toBe(name);
    expect(name).toMatch(/^[0-9a-f]{16}$/);
  });
});

const pgvectorTestUrl = inject('pgvectorTestUrl');
describe.skipIf(!pgvectorTestUrl)('embedded-database templates [postgres]', () => {
  it('are not used on PostgreSQL: nothing is read or written', async () => {
    const database = await createTestDatabase(pgvectorTestUrl ?? '');
    const directory = join(temporaryDirectory(), 'cache');
    const store = await openStore({ database: database.url, pgliteTemplates: { directory } });
    try {
      expect(store.connection.embedded).toBeUndefined();
      expect(await pendingMigrations(store.connection.db as never)).toEqual([]);
      expect(() => readdirSync(directory)).toThrow(/ENOENT/);
    } finally {
      await store.close();
      await database.drop();
    }
  });
});
