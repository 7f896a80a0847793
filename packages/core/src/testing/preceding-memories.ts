import type { JsonObject, JsonValue } from '../domain/memory.js';
import type { PrecedingMemoryQuery } from '../ports/memory-store.js';
import type { InMemoryTenant } from './in-memory-tenant.js';
import { inScope, isLiveAt, newestFirst } from './memory-visibility.js';
import type { StoredMemory } from './stored-memory.js';

/**
 * MemoryStore.precedingMemories over one tenant's rows, bounded as the port says: only the
 * tenant's `window` most recent memories that are not deleted are looked through (expired ones
 * take their place in the window, as in SQL), and of those the live ones that match.
 */
export function precedingMemories(tenant: InMemoryTenant, query: PrecedingMemoryQuery, now: Date): StoredMemory[] {
  // The turns before `beforeTurn`, as text ("12"), so a turn written as a number or a string matches.
  const turns =
    query.beforeTurn === undefined
      ? undefined
      : Array.from({ length: Math.min(query.count, query.beforeTurn) }, (_, i) => String((query.beforeTurn ?? 0) - 1 - i));
  if (turns?.length === 0) return [];
  const recent = [...tenant.rows.values()]
    .filter((row) => row.deletedAt === null)
    .sort(newestFirst)
    .slice(0, query.window);
  const { conversationId } = query;
  const matches = (row: StoredMemory): boolean => {
    if (conversationId === undefined) return inScope(row, query.scope) && row.createdAt.getTime() >= query.since.getTime();
    const conversation = row.metadata.conversation;
    const nested: JsonObject =
      typeof conversation === 'object' && conversation !== null && !Array.isArray(conversation) ? (conversation as JsonObject) : {};
    const turnIs = (turn: JsonValue | undefined) => turns === undefined || turns.includes(jsonText(turn) ?? '');
    return (
      (jsonText(row.metadata.conversationId) === conversationId && turnIs(row.metadata.turn)) ||
      (jsonText(nested.id) === conversationId && turnIs(nested.turn))
    );
  };
  return recent.filter((row) => isLiveAt(row, now) && matches(row)).slice(0, query.count);
}

/** A JSON value as PostgreSQL's `->>` gives it: strings as they are, other scalars as their text, null as SQL NULL. */
function jsonText(value: JsonValue | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  return typeof value === 'object' ? JSON.stringify(value) : String(value);
}
