import type { MemoryPatch, MemoryRecord, NewMemory } from '../domain/memory.js';
import type { WriteCandidates } from '../domain/similarity-rules.js';
import type { SupersessionEffect } from '../domain/supersession-plan.js';
import type { ContradictionEffect, ReplacementEffect } from '../domain/write-plan.js';
import type { IdGenerator } from '../ports/id-generator.js';
import type { Actor } from '../ports/memory-store.js';
import type { NewMemoryUnit, PromotionUnit, SupersessionInputs, UpdateUnit, WriteCandidateQuery } from '../ports/write-unit.js';
import type { InMemoryTenant } from './in-memory-tenant.js';
import {
  applyContradictionEffects,
  applyReplacements,
  applySupersessionEffects,
  findWriteCandidates,
  namedRows,
  supersessionChain,
} from './in-memory-write-path.js';
import { changeRow, newStoredMemory, patchFields, type StoredMemory, toRecord } from './stored-memory.js';

/** What a unit works with: the tenant's rows, who writes, the ids, and the moment of the write. */
export interface InMemoryUnitContext {
  readonly tenant: InMemoryTenant;
  readonly actor: Actor;
  readonly ids: IdGenerator;
  readonly now: Date;
}

/** The unit's own memory as candidates are found for it. */
interface Compared {
  readonly scope: string | null;
  readonly contentKey: string;
  readonly content: string;
  readonly vector: readonly number[] | null;
  readonly excludeId?: string;
}

/** A caller's `supersedes`, read and applied: shared by the units of a write and of an edit. */
abstract class InMemoryUnit {
  constructor(protected readonly context: InMemoryUnitContext) {}

  async supersessionInputs(ids: readonly string[], successorId: string): Promise<SupersessionInputs> {
    const { tenant, now } = this.context;
    return { found: namedRows(tenant, ids, now), successorChain: supersessionChain(tenant, successorId) };
  }

  async applySupersessions(successorId: string, effects: readonly SupersessionEffect[]): Promise<readonly MemoryRecord[]> {
    return applySupersessionEffects(this.context.tenant, this.context, successorId, effects);
  }
}

/** Candidates and contradiction effects, shared by the units of a write and of a promotion. */
abstract class InMemoryCandidateUnit extends InMemoryUnit {
  protected abstract get compared(): Compared;

  async candidates(query: WriteCandidateQuery): Promise<WriteCandidates> {
    const { content, ...compared } = this.compared;
    return findWriteCandidates(this.context.tenant, {
      ...compared,
      tiers: query.tiers,
      now: this.context.now,
      ...(query.related ? { content: query.relatedText ?? content } : {}),
    });
  }

  async applyContradictions(newer: MemoryRecord, effects: readonly ContradictionEffect[]): Promise<readonly MemoryRecord[]> {
    return applyContradictionEffects(this.context.tenant, this.context, newer, effects);
  }

  async applyReplacements(newer: MemoryRecord, effects: readonly ReplacementEffect[]): Promise<readonly MemoryRecord[]> {
    return applyReplacements(this.context.tenant, this.context, newer, effects);
  }
}

/**
 * The unit of work of one new memory in process memory. It offers no fast path: finding the
 * candidates costs no round trip here. It needs no rollback either: core's use case plans every
 * refusal before its first change, and nothing here fails once a change has begun.
 */
export class InMemoryNewMemoryUnit extends InMemoryCandidateUnit implements NewMemoryUnit {
  #id: string | undefined;
  readonly #row: StoredMemory;

  constructor(context: InMemoryUnitContext, tenantId: StoredMemory['userId'], memory: NewMemory) {
    super(context);
    // The row as it would be stored; its id is minted only when the plan needs one.
    this.#row = newStoredMemory({ id: '', tenant: tenantId, memory, now: context.now, contradicted: false });
  }

  protected get compared(): Compared {
    const row = this.#row;
    return { scope: row.scope, contentKey: row.contentKey, content: row.content, vector: row.vector };
  }

  newId(): string {
    this.#id ??= this.context.ids.next();
    return this.#id;
  }

  async insert(marks: { readonly contradicted: boolean }): Promise<MemoryRecord> {
    const row = { ...this.#row, id: this.newId(), contradicted: marks.contradicted };
    this.context.tenant.addRow(row, this.context.actor, this.context.now);
    return toRecord(row);
  }
}

/** The unit of work of promoting one live memory in process memory. */
export class InMemoryPromotionUnit extends InMemoryCandidateUnit implements PromotionUnit {
  readonly memory: MemoryRecord;

  constructor(
    context: InMemoryUnitContext,
    private readonly row: StoredMemory,
  ) {
    super(context);
    this.memory = toRecord(row);
  }

  protected get compared(): Compared {
    const { row } = this;
    return { scope: row.scope, contentKey: row.contentKey, content: row.content, vector: row.vector, excludeId: row.id };
  }

  async toLongTerm(auditAction: string): Promise<MemoryRecord> {
    changeRow(this.row, { tier: 'ltm', expiresAt: null }, true, this.context.now);
    const after = toRecord(this.row);
    this.audit(auditAction, after);
    return after;
  }

  async collapseInto(into: MemoryRecord, auditAction: string): Promise<void> {
    changeRow(this.row, { deletedAt: this.context.now }, true, this.context.now);
    this.audit(auditAction, { ...toRecord(this.row), collapsedInto: into.id });
  }

  async markContradicted(): Promise<MemoryRecord> {
    this.row.contradicted = true;
    return toRecord(this.row);
  }

  private audit(action: string, after: object): void {
    const { tenant, actor, now } = this.context;
    tenant.writeAudit({ memoryId: this.row.id, actor, action, version: this.row.version, before: this.memory, after, at: now });
  }
}

/** The unit of work of an edit in process memory: the patch, applied to the live row; its candidates are the row's as edited. */
export class InMemoryUpdateUnit extends InMemoryCandidateUnit implements UpdateUnit {
  readonly memory: MemoryRecord;

  constructor(
    context: InMemoryUnitContext,
    private readonly row: StoredMemory,
    private readonly patch: MemoryPatch,
  ) {
    super(context);
    this.memory = toRecord(row);
  }

  protected get compared(): Compared {
    const { row } = this;
    return { scope: row.scope, contentKey: row.contentKey, content: row.content, vector: row.vector, excludeId: row.id };
  }

  async apply(change: { readonly action: string; readonly bumpVersion: boolean }): Promise<MemoryRecord> {
    const { tenant, actor, now } = this.context;
    changeRow(this.row, patchFields(this.patch), change.bumpVersion, now);
    const after = toRecord(this.row);
    tenant.writeAudit({
      memoryId: this.row.id,
      actor,
      action: change.action,
      version: this.row.version,
      before: this.memory,
      after,
      at: now,
    });
    return after;
  }
}
