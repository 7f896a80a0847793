import type {
  ContradictionEffect,
  InsertUnlessRelevantResult,
  MemoryRecord,
  NewMemory,
  NewMemoryUnit,
  ReplacementEffect,
  SupersessionEffect,
  SupersessionInputs,
  WriteCandidateQuery,
  WriteCandidates,
} from '@memsvc/core';
import type { Kysely } from 'kysely';
import type { MemsvcDatabase } from '../schema/database-schema.js';
import { insertMemory, insertUnlessRelevantCandidates } from './insert-memory.js';
import { toMemoryRecord } from './memory-row.js';
import { applySupersessions, supersessionInputs, type WriteContext } from './retire-named.js';
import {
  applyContradictionEffects,
  applyReplacements,
  type CandidateQuery,
  candidatesSql,
  findCandidates,
  toWriteCandidates,
} from './write-path.js';

/** The memory a unit writes: its id (minted when the call arrived), content and content hash. */
export interface UnitMemory {
  readonly id: string;
  readonly memory: NewMemory;
  /** hashContent(memory.content), computed once: the write lock's key is made of it. */
  readonly contentHash: string;
}

/**
 * The unit of work of one new memory over PostgreSQL or PGlite, inside the transaction that holds
 * the write lock of its content (PgMemoryStore.writeUnit). Its fast path finds the candidates and
 * inserts in one statement; every other step is one statement or a few, in that transaction.
 */
export class PgNewMemoryUnit implements NewMemoryUnit {
  /** Whether the memory was stored, for the first-statistics count once the transaction commits. */
  stored = false;

  constructor(
    private readonly trx: Kysely<MemsvcDatabase>,
    private readonly context: WriteContext,
    private readonly unit: UnitMemory,
  ) {}

  private query(query: WriteCandidateQuery): CandidateQuery {
    const { memory, contentHash } = this.unit;
    return {
      tenant: this.context.tenant,
      scope: memory.scope ?? null,
      contentHash,
      vector: memory.embedding?.vector ?? null,
      tiers: query.tiers,
      now: this.context.now,
      ...(query.related ? { content: query.relatedText ?? memory.content } : {}),
    };
  }

  private get row() {
    const { tenant, actor, now } = this.context;
    return { id: this.unit.id, tenant, memory: this.unit.memory, contentHash: this.unit.contentHash, actor, now };
  }

  candidates(query: WriteCandidateQuery): Promise<WriteCandidates> {
    return findCandidates(this.trx, this.query(query));
  }

  async insertUnlessRelevant(query: WriteCandidateQuery, relevantFrom: number): Promise<InsertUnlessRelevantResult> {
    const candidates = candidatesSql(this.trx, this.query(query));
    const rows = await insertUnlessRelevantCandidates(this.trx, candidates, relevantFrom, { ...this.row, contradicted: false });
    const inserted = rows.find((row) => row.kind === 'inserted');
    if (inserted) this.stored = true;
    return { candidates: toWriteCandidates(rows), inserted: inserted ? toMemoryRecord(inserted) : undefined };
  }

  newId(): string {
    return this.unit.id;
  }

  async insert(marks: { readonly contradicted: boolean }): Promise<MemoryRecord> {
    const stored = await insertMemory(this.trx, { ...this.row, contradicted: marks.contradicted });
    this.stored = true;
    return stored;
  }

  applyContradictions(newer: MemoryRecord, effects: readonly ContradictionEffect[]): Promise<readonly MemoryRecord[]> {
    return applyContradictionEffects(this.trx, this.context, newer, effects);
  }

  applyReplacements(newer: MemoryRecord, effects: readonly ReplacementEffect[]): Promise<readonly MemoryRecord[]> {
    return applyReplacements(this.trx, this.context, newer, effects);
  }

  supersessionInputs(ids: readonly string[], successorId: string): Promise<SupersessionInputs> {
    return supersessionInputs(this.trx, this.context, ids, successorId);
  }

  applySupersessions(successorId: string, effects: readonly SupersessionEffect[]): Promise<readonly MemoryRecord[]> {
    return applySupersessions(this.trx, this.context, successorId, effects);
  }
}
