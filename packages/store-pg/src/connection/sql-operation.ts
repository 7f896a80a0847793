/** Statement keywords a span may name; anything else is reported as OTHER. */
const KNOWN_OPERATIONS = new Set([
  'ALTER',
  'ANALYZE',
  'BEGIN',
  'CALL',
  'COMMIT',
  'COPY',
  'CREATE',
  'DELETE',
  'DO',
  'DROP',
  'EXPLAIN',
  'INSERT',
  'LOCK',
  'MERGE',
  'REINDEX',
  'RELEASE',
  'RESET',
  'ROLLBACK',
  'SAVEPOINT',
  'SELECT',
  'SET',
  'SHOW',
  'TRUNCATE',
  'UPDATE',
  'VACUUM',
  'VALUES',
  'WITH',
]);

/**
 * The operation keyword of a statement (`SELECT`, `INSERT`, `WITH`, …), the one thing about a
 * statement a span carries: the rest of the text stays in the process, parameterized or not.
 * Leading whitespace, comments and parentheses are skipped; an unknown word becomes OTHER, so
 * no identifier or literal can ever come out of here.
 */
export function sqlOperation(sql: string): string {
  const start = sql.replace(/^(?:\s|--[^\n]*\n?|\/\*[\s\S]*?\*\/|\()*/, '');
  const word = /^[A-Za-z]+/.exec(start)?.[0]?.toUpperCase();
  return word !== undefined && KNOWN_OPERATIONS.has(word) ? word : 'OTHER';
}
