import type { ErasureReceipt } from '../domain/erasure.js';
import type { MemoryRecord } from '../domain/memory.js';
import type { SharedSpace } from '../domain/memory-grants.js';
import type { RecallFilters } from '../domain/recall-filters.js';
import type { ContextEntry } from '../domain/replacement-order.js';
import type { MemoryLinkRecord, MemoryPage } from '../ports/memory-store.js';
import type { AsOfGaps } from './as-of-reads.js';
import type { CreateMemoryInput, CreateResult } from './create-memory.js';
import type { CallContext } from './engine-parts.js';
import type { ListInput } from './list-memories.js';
import type { RecallInput, RecallResult } from './recall.js';
import type { SharedSelection, SpaceName } from './shared-spaces.js';

/**
 * The engine's operations on single memories, which the composed use-cases (remember, forget,
 * the context builders, ingest) are written with. MemoryEngine implements it; the composed
 * use-cases name this interface rather than the class so the class can offer them as methods.
 */
export interface MemoryOperations {
  create(context: CallContext, input: CreateMemoryInput & { readonly owner?: string | undefined }): Promise<CreateResult>;
  getUncounted(context: CallContext, id: string, options?: { includeDeleted?: boolean }): Promise<MemoryRecord>;
  recall(context: CallContext, input: RecallInput): Promise<RecallResult>;
  list(context: CallContext, input: ListInput): Promise<MemoryPage & { readonly asOf?: AsOfGaps }>;
  mostImportant(
    context: CallContext,
    input: { limit: number; scope?: string; tags?: readonly string[]; shared?: SpaceName },
  ): Promise<readonly MemoryRecord[]>;
  sharedSpaces(context: CallContext, selection?: SharedSelection): Promise<readonly SharedSpace[]>;
  delete(context: CallContext, id: string): Promise<boolean>;
  erase(context: CallContext, ids: readonly string[]): Promise<ErasureReceipt>;
  links(context: CallContext, id: string, limit?: number): Promise<readonly MemoryLinkRecord[]>;
  inReadingOrder(
    context: CallContext,
    memories: readonly MemoryRecord[],
    filters: RecallFilters,
    spaces: readonly SharedSpace[],
  ): Promise<ContextEntry[]>;
  now(): Date;
}
