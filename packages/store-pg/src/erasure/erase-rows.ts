import { type Actor, type ErasureCounts, quotedText, quotesOfVersions, searchContextWithout, type TenantId } from '@memsvc/core';
import { type Kysely, sql } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/** A memory about to be erased: its id and what later memories may quote of it. */
export interface ErasedRow {
  readonly id: string;
  readonly content: string;
}

/** What one erasure of rows did: the counts per place, and every quote of them it looked for. */
export interface ErasedRows {
  readonly counts: ErasureCounts;
  /** The quotes of every version of the rows (core's quotesOfVersions), found or not. */
  readonly quotes: readonly string[];
}

/** A regular expression matching any of the ids (UUIDs: no character of them is special). */
export function idPattern(ids: readonly string[]): string {
  return `(${ids.join('|')})`;
}

/**
 * Erases `rows` of `tenant` everywhere memsvc keeps them, in the caller's transaction (which holds
 * their rows): links, import-ledger entries, the audit's copies of their words (each event stays,
 * word-free, and an `erase` event is added), other memories' quotes of them and references to
 * their ids, the rows themselves with their vectors and — once the deferred lexical trigger has
 * run — their postings and the term statistics nothing else needs. Other memories quote the text
 * each version had when they were written, so the quotes of every version go, not only the
 * current one's. Returns the counts per place and the quotes looked for.
 */
export async function eraseRows(
  trx: Kysely<MemsvcDatabase>,
  tenant: TenantId,
  rows: readonly ErasedRow[],
  actor: Actor,
  now: Date,
): Promise<ErasedRows> {
  const ids = rows.map((row) => row.id);
  const quotes = quotesOfVersions(await versionContents(trx, tenant, rows));
  const count = async (query: ReturnType<typeof sql<{ n: string }>>) => Number((await query.execute(trx)).rows[0]?.n ?? 0);
  const vectors = await count(
    sql`SELECT count(*) AS n FROM memories WHERE user_id = ${tenant} AND id = ANY(${ids}::uuid[]) AND embedding IS NOT NULL`,
  );
  const lexicalPostings = await count(sql`SELECT count(*) AS n FROM memory_terms WHERE memory_id = ANY(${ids}::uuid[])`);
  // The words of the memories whatever their state (a deleted one has no postings left, but its
  // words may still sit in the statistics at a count of zero), by the index's own tokenizer.
  // Earlier versions' words too (the audit keeps them until now): an edit left them at zero.
  const terms = (
    await sql<{ term: string }>`
      SELECT DISTINCT terms.term FROM memories AS m
        CROSS JOIN LATERAL memsvc_memory_terms(m.content, m.search_context) AS terms
        WHERE m.user_id = ${tenant} AND m.id = ANY(${ids}::uuid[])
      UNION
      SELECT DISTINCT terms.term FROM memory_audit AS a
        CROSS JOIN LATERAL (VALUES (a.before ->> 'content'), (a.after ->> 'content')) AS version(content)
        CROSS JOIN LATERAL memsvc_memory_terms(version.content, NULL) AS terms
        WHERE a.user_id = ${tenant} AND a.memory_id = ANY(${ids}::uuid[]) AND version.content IS NOT NULL`.execute(trx)
  ).rows.map((row) => row.term);

  const links = Number(
    (
      await sql`DELETE FROM memory_links WHERE user_id = ${tenant}
        AND (source_memory_id = ANY(${ids}::uuid[]) OR target_memory_id = ANY(${ids}::uuid[])
             OR target_locator = ANY(${ids.map((id) => `id:${id}`)}::text[]))`.execute(trx)
    ).numAffectedRows ?? 0n,
  );
  const importLedger = (
    await sql`DELETE FROM memory_import_ledger WHERE user_id = ${tenant} AND memory_id = ANY(${ids}::uuid[]) RETURNING memory_id`.execute(
      trx,
    )
  ).rows.length;
  const versions = Number(
    (
      await sql`UPDATE memory_audit SET before = NULL, after = NULL
        WHERE user_id = ${tenant} AND memory_id = ANY(${ids}::uuid[]) AND (before IS NOT NULL OR after IS NOT NULL)`.execute(trx)
    ).numAffectedRows ?? 0n,
  );
  const searchContexts = await rewriteQuotes(trx, tenant, ids, quotes);
  const references = await dropReferences(trx, tenant, ids);

  await trx
    .insertInto('memory_audit')
    .values(
      ids.map((id) => ({
        memory_id: id,
        user_id: tenant,
        actor: actor.id,
        action: 'erase',
        version: null,
        before: null,
        after: null,
        created_at: now,
      })),
    )
    .execute();
  const memories = Number(
    (await sql`DELETE FROM memories WHERE user_id = ${tenant} AND id = ANY(${ids}::uuid[])`.execute(trx)).numAffectedRows ?? 0n,
  );
  // The lexical index is kept by deferred triggers: run them now, so the postings are gone and
  // the statistics counted down before the terms nobody needs are removed.
  await sql`SET CONSTRAINTS ALL IMMEDIATE`.execute(trx);
  // Every stripe of a term no live memory of the tenant has any more: the word leaves the statistics.
  const emptied =
    terms.length === 0
      ? []
      : (
          await sql<{ term: string }>`DELETE FROM lexical_terms WHERE user_id = ${tenant} AND term IN (
              SELECT term FROM lexical_terms WHERE user_id = ${tenant} AND term = ANY(${terms}::text[])
              GROUP BY term HAVING sum(documents) <= 0)
            RETURNING term`.execute(trx)
        ).rows;
  const termStatistics = new Set(emptied.map((row) => row.term)).size;
  return {
    counts: { memories, vectors, versions, lexicalPostings, termStatistics, links, importLedger, searchContexts, references, grants: 0 },
    quotes,
  };
}

/**
 * The text of every version of the rows memsvc still holds: the current one, and each the audit
 * kept (`before` has the content an edit replaced, `after` the content it wrote). Read before the
 * audit loses its words.
 */
async function versionContents(trx: Kysely<MemsvcDatabase>, tenant: TenantId, rows: readonly ErasedRow[]): Promise<string[]> {
  const ids = rows.map((row) => row.id);
  const { rows: audited } = await sql<{ content: string }>`
    SELECT DISTINCT version.content FROM memory_audit AS a
      CROSS JOIN LATERAL (VALUES (a.before ->> 'content'), (a.after ->> 'content')) AS version(content)
      WHERE a.user_id = ${tenant} AND a.memory_id = ANY(${ids}::uuid[]) AND version.content IS NOT NULL`.execute(trx);
  return [...new Set([...rows.map((row) => row.content), ...audited.map((row) => row.content)])];
}

/** Other memories' search contexts without their quotes of the erased memories (search-context.ts). */
async function rewriteQuotes(
  trx: Kysely<MemsvcDatabase>,
  tenant: TenantId,
  ids: readonly string[],
  quotes: readonly string[],
): Promise<number> {
  // Narrowed by the quoted text alone: a turn sent with white space around it is quoted with it.
  const texts = [...new Set(quotes.map(quotedText).filter((text) => text.length > 0))];
  const quoting = await sql<{ id: string; search_context: string }>`
    SELECT id, search_context FROM memories
    WHERE user_id = ${tenant} AND NOT (id = ANY(${ids}::uuid[])) AND search_context IS NOT NULL
      AND EXISTS (SELECT 1 FROM unnest(${texts}::text[]) AS quote(text) WHERE strpos(search_context, quote.text) > 0)
    FOR UPDATE`.execute(trx);
  let rewritten = 0;
  for (const row of quoting.rows) {
    const rest = searchContextWithout(row.search_context, quotes);
    // A quote's text inside a longer part is someone else's quote: that context stays as it is.
    if (rest === row.search_context) continue;
    await trx.updateTable('memories').set({ search_context: rest }).where('id', '=', row.id).where('user_id', '=', tenant).execute();
    rewritten++;
  }
  return rewritten;
}

/**
 * Other rows of the tenant that name an erased id: a replacement or supersession marker (cleared:
 * the older memory is current again), an audit snapshot or metadata that mentions it (the id
 * replaced by `erased`). Ids are UUIDs, so a textual replacement keeps the JSON valid.
 */
async function dropReferences(trx: Kysely<MemsvcDatabase>, tenant: TenantId, ids: readonly string[]): Promise<number> {
  const pattern = idPattern(ids);
  const markers = await sql`
    UPDATE memories SET
      replaced_by = CASE WHEN replaced_by = ANY(${ids}::uuid[]) THEN NULL ELSE replaced_by END,
      superseded_by = CASE WHEN superseded_by = ANY(${ids}::uuid[]) THEN NULL ELSE superseded_by END
    WHERE user_id = ${tenant} AND NOT (id = ANY(${ids}::uuid[]))
      AND (replaced_by = ANY(${ids}::uuid[]) OR superseded_by = ANY(${ids}::uuid[]))`.execute(trx);
  const metadata = await sql`
    UPDATE memories SET metadata = regexp_replace(metadata::text, ${pattern}, 'erased', 'g')::jsonb
    WHERE user_id = ${tenant} AND NOT (id = ANY(${ids}::uuid[])) AND metadata::text ~ ${pattern}`.execute(trx);
  const audit = await sql`
    UPDATE memory_audit SET
      before = regexp_replace(before::text, ${pattern}, 'erased', 'g')::jsonb,
      after = regexp_replace(after::text, ${pattern}, 'erased', 'g')::jsonb
    WHERE user_id = ${tenant} AND NOT (memory_id = ANY(${ids}::uuid[]))
      AND (before::text ~ ${pattern} OR after::text ~ ${pattern})`.execute(trx);
  return [markers, metadata, audit].reduce((sum, result) => sum + Number(result.numAffectedRows ?? 0n), 0);
}
