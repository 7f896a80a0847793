import type { TenantId } from '../domain/tenant.js';
import { MemsvcError } from '../errors/memsvc-error.js';
import type { Clock } from '../ports/clock.js';
import type { ExportedMemory, ExportPage, ExportQuery, ExportStore } from '../ports/export-store.js';
import type { InMemoryMemoryStore } from './in-memory-memory-store.js';

/**
 * The ExportStore port over an InMemoryMemoryStore, for tests of export_memories and of your
 * own export code. It follows the SQL store's rules (id order, expired short-term rows never
 * read, any-of tags) but holds no vectors to hand out: `vector` is always null.
 */
export class InMemoryExportStore implements ExportStore {
  constructor(
    private readonly memories: InMemoryMemoryStore,
    private readonly clock: Clock,
  ) {}

  async exportPage(tenant: TenantId, query: ExportQuery): Promise<ExportPage> {
    if (query.after !== undefined && !/^[0-9a-f-]{36}$/i.test(query.after)) {
      throw new MemsvcError('INVALID_INPUT', 'cursor is not one this server returned (expected the nextCursor of a previous page)', {
        field: 'cursor',
      });
    }
    const now = this.clock.now();
    const contents = this.memories.contents(tenant);
    const matching = contents.memories
      .filter((memory) => memory.tier === 'ltm' || (memory.expiresAt !== null && memory.expiresAt > now))
      .filter((memory) => query.includeDeleted || memory.deletedAt === null)
      .filter((memory) => query.includeSuperseded || memory.supersededBy === null)
      .filter((memory) => query.tier === undefined || memory.tier === query.tier)
      .filter((memory) => query.scope === undefined || memory.scope === query.scope)
      .filter((memory) => !query.tags?.length || memory.tags.some((tag) => query.tags?.includes(tag)))
      .filter((memory) => !query.createdFrom || memory.createdAt >= query.createdFrom)
      .filter((memory) => !query.createdTo || memory.createdAt <= query.createdTo)
      .filter((memory) => query.after === undefined || memory.id > query.after)
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const memories: ExportedMemory[] = matching
      .slice(0, query.limit)
      .map((memory) => ({ ...memory, embeddedAt: null, ...(query.includeVectors ? { vector: null } : {}) }));
    const ids = new Set(memories.map((memory) => memory.id));
    return {
      memories,
      links: contents.links
        .filter((link) => ids.has(link.sourceMemoryId))
        .sort((a, b) => (a.id < b.id ? -1 : 1))
        .map((link) => ({
          id: link.id,
          sourceMemoryId: link.sourceMemoryId,
          targetMemoryId: link.targetMemoryId,
          targetLocator: `id:${link.targetMemoryId}`,
          rel: link.relType,
          origin: 'derived' as const,
          score: link.score,
          note: null,
          metadata: {},
          createdAt: link.createdAt,
        })),
      audit: query.includeAudit ? contents.audit.filter((entry) => ids.has(entry.memoryId)) : [],
      nextCursor: matching.length > query.limit ? memories.at(-1)?.id : undefined,
    };
  }
}
