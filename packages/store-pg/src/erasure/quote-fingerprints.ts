import { createHash, randomBytes } from 'node:crypto';
import type { TenantId } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/** Where every quote in a search context begins (core's neighbourQuote). */
const QUOTE_START = 'after: ';
/** Search contexts read per statement while a check looks for quotes. */
const CHECK_PAGE = 1000;

/** A new random salt for one erasure's fingerprints. */
export function newQuoteSalt(): string {
  return randomBytes(16).toString('hex');
}

/** `<length>:<sha256 hex of salt + quote>`: what a record keeps of a quote, to know it again. */
export function quoteFingerprint(salt: string, quote: string): string {
  return `${quote.length}:${createHash('sha256').update(salt).update(quote).digest('hex')}`;
}

/**
 * How many of the tenant's memories hold, in their search context, a quote whose fingerprint is
 * in `fingerprints`: every "after: " is hashed over each fingerprinted length. A check is rare and
 * reads the tenant's quoting contexts a page at a time.
 */
export async function memoriesQuoting(
  db: Kysely<MemsvcDatabase>,
  tenant: TenantId,
  salt: string | null,
  fingerprints: readonly string[],
): Promise<number> {
  if (salt === null || fingerprints.length === 0) return 0;
  const wanted = new Set(fingerprints);
  const lengths = [...new Set(fingerprints.map((fingerprint) => Number(fingerprint.split(':')[0])))];
  let found = 0;
  let after = '00000000-0000-0000-0000-000000000000';
  for (;;) {
    const { rows } = await sql<{ id: string; search_context: string }>`
      SELECT id, search_context FROM memories
      WHERE user_id = ${tenant} AND id > ${after}::uuid AND strpos(search_context, ${QUOTE_START}) > 0
      ORDER BY id LIMIT ${CHECK_PAGE}`.execute(db);
    for (const row of rows) if (quotesAny(row.search_context, salt, lengths, wanted)) found++;
    const last = rows.at(-1);
    if (rows.length < CHECK_PAGE || last === undefined) return found;
    after = last.id;
  }
}

function quotesAny(context: string, salt: string, lengths: readonly number[], wanted: ReadonlySet<string>): boolean {
  for (let at = context.indexOf(QUOTE_START); at >= 0; at = context.indexOf(QUOTE_START, at + 1)) {
    for (const length of lengths) {
      if (at + length <= context.length && wanted.has(quoteFingerprint(salt, context.slice(at, at + length)))) return true;
    }
  }
  return false;
}
