import type { SpanAttributes, Tracer, TraceSpan } from '@memsvc/core';
import type { CompiledQuery, DatabaseConnection, Dialect, Driver, QueryCompiler, QueryResult, TransactionSettings } from 'kysely';
import { sqlOperation } from './sql-operation.js';

/**
 * A dialect whose statements are spans (spec §6 rule 2), named by their operation keyword and
 * carrying `db.system` and the keyword only: never the statement text or its parameters, which
 * hold memory content, queries and key hashes. A statement is traced only inside a span already
 * in progress (a tool call, a create, a job run), so pollers, migrations and health probes add no
 * root traces of their own. Without tracing the dialect is returned untouched.
 */
export function tracedDialect(dialect: Dialect, tracer: Tracer, engine: 'postgres' | 'pglite'): Dialect {
  if (!tracer.enabled) return dialect;
  const statement = <T>(operation: string, work: () => Promise<T>): Promise<T> => {
    if (tracer.activeIds() === undefined) return work();
    const attributes: SpanAttributes = { 'db.system': 'postgresql', 'db.operation.name': operation, 'memsvc.db.engine': engine };
    return tracer.inSpan(operation, attributes, (span) => failWithCode(span, work));
  };
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: () => tracedDriver(dialect.createDriver(), statement),
  };
}

type Statement = <T>(operation: string, work: () => Promise<T>) => Promise<T>;

/** A connection whose queries are statements; the driver gets the one it made back. */
class TracedConnection implements DatabaseConnection {
  constructor(
    readonly inner: DatabaseConnection,
    private readonly statement: Statement,
  ) {}

  executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    return this.statement(sqlOperation(query.sql), () => this.inner.executeQuery<R>(query));
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

/**
 * The driver with its connections wrapped. Every driver method gets the driver's own connection
 * back (PostgresDriver releases a connection through a private member), so transaction control
 * is traced here, by name, rather than by letting the driver run it on the wrapper.
 */
function tracedDriver(driver: Driver, statement: Statement): Driver {
  const own = (connection: DatabaseConnection) => (connection instanceof TracedConnection ? connection.inner : connection);
  type Compile = QueryCompiler['compileQuery'];
  const traced: Driver = {
    init: () => driver.init(),
    acquireConnection: async () => new TracedConnection(await driver.acquireConnection(), statement),
    beginTransaction: (connection, settings: TransactionSettings) =>
      statement('BEGIN', () => driver.beginTransaction(own(connection), settings)),
    commitTransaction: (connection) => statement('COMMIT', () => driver.commitTransaction(own(connection))),
    rollbackTransaction: (connection) => statement('ROLLBACK', () => driver.rollbackTransaction(own(connection))),
    releaseConnection: (connection) => driver.releaseConnection(own(connection)),
    destroy: () => driver.destroy(),
  };
  const { savepoint, rollbackToSavepoint, releaseSavepoint } = driver;
  if (savepoint) {
    traced.savepoint = (connection, name, compile: Compile) =>
      statement('SAVEPOINT', () => savepoint.call(driver, own(connection), name, compile));
  }
  if (rollbackToSavepoint) {
    traced.rollbackToSavepoint = (connection, name, compile: Compile) =>
      statement('ROLLBACK', () => rollbackToSavepoint.call(driver, own(connection), name, compile));
  }
  if (releaseSavepoint) {
    traced.releaseSavepoint = (connection, name, compile: Compile) =>
      statement('RELEASE', () => releaseSavepoint.call(driver, own(connection), name, compile));
  }
  return traced;
}

/**
 * Runs a statement; a failure is marked with the driver's code when it has one (an SQLSTATE
 * such as 23505, or a socket code), which says what went wrong without quoting any row.
 */
async function failWithCode<T>(span: TraceSpan, work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    const code = (error as { code?: unknown } | null)?.code;
    if (typeof code === 'string' && /^[A-Z0-9_]{1,32}$/.test(code)) {
      span.setAttributes({ 'db.response.status_code': code });
      span.fail(code);
    }
    throw error;
  }
}
