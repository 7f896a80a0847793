import type { CallContext, Clock, Grantee, GrantRequest, MemoryGrant } from '@memsvc/core';
import type { GranteeDirectory } from './access-stores.js';

/** The memory engine's grant operations: what a grant admits stays a rule of the memory kernel. */
export interface GrantOperations {
  grant(context: CallContext, request: GrantRequest & { readonly owner?: string | undefined }): Promise<MemoryGrant>;
  revokeGrant(context: CallContext, grantId: string): Promise<MemoryGrant>;
  grants(
    context: CallContext,
    limit?: number,
  ): Promise<{ readonly given: readonly MemoryGrant[]; readonly received: readonly MemoryGrant[] }>;
}

/**
 * Sharing a space of one's memories: every operation goes through the engine, as the owner in
 * `context`, so the CLI, the dashboard and the tools meet the same rules and the same audit.
 */
export class GrantAccess {
  readonly #engine: GrantOperations;
  readonly #grantees: GranteeDirectory;
  readonly #clock: Clock;

  constructor(engine: GrantOperations, grantees: GranteeDirectory, clock: Clock) {
    this.#engine = engine;
    this.#grantees = grantees;
    this.#clock = clock;
  }

  /** Shares a space; the answer is the same whether or not the grantee exists (R-GRANT-NO-ENUMERATION). */
  create(context: CallContext, request: GrantRequest): Promise<MemoryGrant> {
    return this.#engine.grant(context, request);
  }

  /** Ends one of the owner's grants now; NOT_FOUND for one it does not own or that has ended. */
  revoke(context: CallContext, grantId: string): Promise<MemoryGrant> {
    return this.#engine.revokeGrant(context, grantId);
  }

  /** What the caller shared (ended grants too) and what is shared with it now. */
  list(context: CallContext, limit?: number) {
    return this.#engine.grants(context, limit);
  }

  /**
   * Whether a grantee exists yet: for an operator, who reads the database anyway and may have made
   * a typo. Never for a tenant's surface, or a grant would tell which ids exist.
   */
  isKnown(grantee: Grantee): Promise<boolean> {
    return this.#grantees.isKnownGrantee(grantee, this.#clock.now());
  }
}
