import type { Clock, ErasureStore, GrantStore, MemoryStore, TenantId } from '@memsvc/core';
import { InMemoryErasureStore, InMemoryGrantStore, InMemoryMemoryStore, InMemoryVectorSpace } from '@memsvc/core/testing';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, it } from 'vitest';
import type { MemsvcStore } from '../../src/index.js';
import { describeEachEngine, type Engine } from './each-engine.js';
import { openTestStore } from './open-test-store.js';

export type StoreName = 'pglite' | 'postgres' | 'in-memory';

/**
 * What a contract case may need beyond the MemoryStore port. A store without one runs the case
 * as skipped, the reason in its title ("No skipped test without a reason in its name").
 */
export type StoreFeature = 'english-stemming';

const MISSING: Record<StoreFeature, string> = {
  'english-stemming': 'no English stemming or stop words in the in-memory full-text list',
};

/** A link between two memories, as both kinds of store record it. */
export interface StoredLinkRow {
  readonly source: string;
  readonly target: string | null;
  readonly rel: string;
}

/**
 * One MemoryStore implementation under the contract suite, with the few looks behind the port
 * that the cases check (row counts, audit rows, links, the search context): SQL for the
 * databases, `contents()` for the in-memory store.
 */
export interface StoreUnderTest {
  readonly name: StoreName;
  /** The store of the current test (valid from beforeAll; a new one after each `reset`). */
  readonly memories: MemoryStore;
  /** The grant and erasure stores beside it, so an engine built on it is complete. */
  readonly grants: GrantStore;
  readonly erasures: ErasureStore;
  /** Empties the store: TRUNCATE for the databases, a fresh instance in memory. */
  reset(): Promise<void>;
  /** Memory rows held (deleted and expired ones included), of one tenant or all. */
  rowCount(tenant?: TenantId): Promise<number>;
  /** Audit rows held, of every memory and tenant. */
  auditRowCount(): Promise<number>;
  links(): Promise<readonly StoredLinkRow[]>;
  /** The search context stored with a memory (never returned through the port). */
  searchContext(id: string): Promise<string | null | undefined>;
  /** Checks that any lexical statistics the store keeps agree with its memories. */
  checkLexicalIndex(): Promise<void>;
  has(feature: StoreFeature): boolean;
}

/** How a suite asks for its store: its clock and the vector size. */
export interface StoreOptions {
  readonly clock: Clock;
  readonly dimensions: number;
  /** Run against the PostgreSQL store after it is opened (the lexical index checks). */
  readonly checkLexicalIndex?: (store: MemsvcStore) => Promise<void>;
}

/** A store implementation that a suite opens (in its beforeAll) and closes (in its afterAll). */
export interface StoreKind {
  readonly name: StoreName;
  use(options: StoreOptions): StoreUnderTest;
}

/**
 * The store contract suite's loop: the same port-level cases on PGlite, on a real PostgreSQL
 * (describeEachEngine's databases) and on core's InMemoryMemoryStore. SQL-only cases (plans,
 * migrations, a failing database, reopening) stay in describeEachEngine suites.
 */
export function describeEachStore(title: string, suite: (kind: StoreKind) => void): void {
  describeEachEngine(title, (engine) => suite(sqlStore(engine)));
  describe(`${title} [in-memory]`, () => suite(inMemoryStore()));
}

/** `it`, or on a store without `feature` a skipped case whose title says what is missing. */
export function itNeeding(store: StoreUnderTest, feature: StoreFeature) {
  return (title: string, body: () => Promise<void>) =>
    store.has(feature) ? it(title, body) : it.skip(`${title} (skipped on ${store.name}: ${MISSING[feature]})`, body);
}

function sqlStore(engine: Engine): StoreKind {
  return {
    name: engine.name,
    use: (options) => {
      let store: MemsvcStore | undefined;
      beforeAll(async () => {
        store = await openTestStore({
          database: await engine.freshDatabaseUrl(),
          clock: options.clock,
          vector: { dimensions: options.dimensions },
        });
      });
      afterAll(async () => {
        await store?.close();
      });
      const db = () => {
        if (!store) throw new Error('the store opens in beforeAll');
        return store.connection.db;
      };
      return {
        name: engine.name,
        get memories() {
          if (!store) throw new Error('the store opens in beforeAll');
          return store.memories;
        },
        get grants() {
          if (!store) throw new Error('the store opens in beforeAll');
          return store.grants;
        },
        get erasures() {
          if (!store) throw new Error('the store opens in beforeAll');
          return store.erasures;
        },
        reset: async () => {
          await sql`TRUNCATE memories, memory_audit, memory_links CASCADE`.execute(db());
        },
        rowCount: async (tenant) =>
          (
            await db()
              .selectFrom('memories')
              .select(sql<number>`count(*)::int`.as('n'))
              .$if(tenant !== undefined, (query) => query.where('user_id', '=', tenant ?? ''))
              .executeTakeFirstOrThrow()
          ).n,
        auditRowCount: async () =>
          (await db().selectFrom('memory_audit').select(sql<number>`count(*)::int`.as('n')).executeTakeFirstOrThrow()).n,
        links: async () =>
          (await db().selectFrom('memory_links').select(['source_memory_id', 'target_memory_id', 'rel_type']).execute()).map((row) => ({
            source: row.source_memory_id,
            target: row.target_memory_id,
            rel: row.rel_type,
          })),
        searchContext: async (id) =>
          (await db().selectFrom('memories').select('search_context').where('id', '=', id).executeTakeFirst())?.search_context,
        checkLexicalIndex: async () => {
          if (store && options.checkLexicalIndex) await options.checkLexicalIndex(store);
        },
        has: () => true,
      };
    },
  };
}

function inMemoryStore(): StoreKind {
  return {
    name: 'in-memory',
    use: (options) => {
      const open = () =>
        new InMemoryMemoryStore({ clock: options.clock, vectorSpace: new InMemoryVectorSpace({ dimensions: options.dimensions }) });
      let store = open();
      let grants = new InMemoryGrantStore();
      let erasures = new InMemoryErasureStore(store, options.clock);
      return {
        name: 'in-memory',
        get memories() {
          return store;
        },
        get grants() {
          return grants;
        },
        get erasures() {
          return erasures;
        },
        reset: async () => {
          store = open();
          grants = new InMemoryGrantStore();
          erasures = new InMemoryErasureStore(store, options.clock);
        },
        rowCount: async (tenant) => store.contents(tenant).memories.length,
        auditRowCount: async () => store.contents().audit.length,
        links: async () =>
          store.contents().links.map((link) => ({ source: link.sourceMemoryId, target: link.targetMemoryId, rel: link.relType })),
        searchContext: async (id) => store.contents().memories.find((memory) => memory.id === id)?.searchContext,
        // The statistics are computed from the memories at every query: nothing to drift.
        checkLexicalIndex: async () => undefined,
        has: (feature) => feature !== 'english-stemming',
      };
    },
  };
}
