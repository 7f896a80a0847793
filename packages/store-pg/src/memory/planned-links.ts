import type { IdGenerator, PlannedLink, TenantId } from '@memsvc/core';
import type { Kysely } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';

/** The links core planned between one existing memory and the memory a write resolved to. */
export interface LinksBetween {
  readonly existingId: string;
  readonly links: readonly PlannedLink[];
  /** The similarity behind a derived link, when there is one. */
  readonly score?: number | null | undefined;
}

/**
 * Writes the links core planned for a write's effects (a contradiction, a changed fact, a named
 * supersession), each in the direction it names (`from: 'new'` starts at the new memory), in the
 * caller's transaction. A link already recorded is kept as it is.
 */
export async function insertPlannedLinks(
  trx: Kysely<MemsvcDatabase>,
  context: { readonly tenant: TenantId; readonly ids: IdGenerator; readonly now: Date },
  newId: string,
  between: readonly LinksBetween[],
  origin: 'authored' | 'derived',
): Promise<void> {
  const rows = between.flatMap(({ existingId, links, score }) =>
    links.map((link) => {
      const [source, target] = link.from === 'new' ? [newId, existingId] : [existingId, newId];
      return {
        id: context.ids.next(),
        user_id: context.tenant,
        source_memory_id: source,
        target_memory_id: target,
        target_locator: `id:${target}`,
        rel_type: link.rel,
        origin,
        score: score ?? null,
        metadata: '{}',
        created_at: context.now,
      };
    }),
  );
  if (rows.length === 0) return;
  await trx
    .insertInto('memory_links')
    .values(rows)
    .onConflict((conflict) => conflict.columns(['source_memory_id', 'target_locator', 'rel_type']).doNothing())
    .execute();
}
