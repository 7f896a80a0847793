import { type RateLimitBucketKind, type RateLimitCaller, type RateLimitStore, rateLimitBuckets } from '@memsvc/access';
import type { MemsvcConfig } from '@memsvc/config';
import { type Clock, MemsvcError } from '@memsvc/core';
import { isCredential, type Principal, type ToolHooks } from '@memsvc/mcp-tools';

export interface RateLimitHookDependencies {
  readonly settings: MemsvcConfig['rateLimit'];
  readonly store: RateLimitStore;
  readonly clock: Clock;
  /** MEMSVC_DEFAULT_USER_ID: the user the pre-shared key acts as, and is counted as. */
  readonly defaultUserId: string | undefined;
  /** Told of every refusal (the metric). */
  readonly onRefused?: ((kind: RateLimitBucketKind) => void) | undefined;
}

/** Who a call is counted as: a credential's user and organization; an anonymous caller's address. */
export function rateLimitCallerOf(
  principal: Principal,
  clientAddress: string | undefined,
  defaultUserId: string | undefined,
): RateLimitCaller | undefined {
  if (isCredential(principal)) return { userId: principal.tenant, organizationId: principal.organizationId };
  if (principal.kind === 'pre-shared-key') return defaultUserId ? { userId: defaultUserId } : undefined;
  // Stdio has no address and is not limited. Over HTTP, the request itself was already counted
  // against the address (rateLimitUnauthenticated): only a tool's own override is left to count.
  return clientAddress ? { ip: clientAddress } : undefined;
}

/** Whether an authenticated request may go on, or which limit refused it and for how long. */
export type CallerVerdict =
  | { readonly admitted: true }
  | { readonly admitted: false; readonly retryAfterSeconds: number; readonly message: string };

/**
 * Counts one HTTP request against an authenticated caller's user and organization buckets, as a
 * tool call would be: for a request refused before any tool ran (a body too large, too deeply
 * nested or not JSON), so a caller that floods the server with bodies it cannot use spends its
 * own budget doing so (issue 37 #6). Callers without a credential are counted by address elsewhere.
 */
export function rateLimitRequest(deps: RateLimitHookDependencies): (principal: Principal) => Promise<CallerVerdict> {
  return async (principal) => {
    if (principal.kind === 'anonymous') return { admitted: true };
    const caller = rateLimitCallerOf(principal, undefined, deps.defaultUserId);
    if (!caller) return { admitted: true };
    const buckets = rateLimitBuckets(caller, undefined, deps.settings);
    if (buckets.length === 0) return { admitted: true };
    const decision = await deps.store.take(buckets, deps.clock.now());
    if (decision.admitted) return { admitted: true };
    const kind = decision.refusedBy ?? 'user';
    deps.onRefused?.(kind);
    return { admitted: false, retryAfterSeconds: decision.retryAfterSeconds, message: refusalMessage(kind, decision.retryAfterSeconds) };
  };
}

function refusalMessage(kind: RateLimitBucketKind, retryAfterSeconds: number): string {
  return `rate limit reached (${LIMIT_NAMES[kind]}); retry after ${retryAfterSeconds} s`;
}

/**
 * The rate limiter in the tool pipeline (spec §8): before a tool runs, the call is counted in its
 * caller's buckets — user, organization, the tool's override — in one statement, shared by every
 * replica through the database. A call over any limit is refused with RATE_LIMITED and
 * `retryAfterSeconds`, runs nothing and counts nowhere.
 */
export function rateLimitHook(deps: RateLimitHookDependencies): ToolHooks {
  return {
    before: async (call) => {
      const caller = rateLimitCallerOf(call.principal, call.clientAddress, deps.defaultUserId);
      if (!caller) return;
      const buckets = rateLimitBuckets(caller, call.tool, deps.settings).filter(
        // An anonymous HTTP caller's address bucket was taken per request already.
        (bucket) => caller.userId !== undefined || bucket.kind === 'tool',
      );
      if (buckets.length === 0) return;
      const decision = await deps.store.take(buckets, deps.clock.now());
      if (decision.admitted) return;
      const kind = decision.refusedBy ?? 'user';
      deps.onRefused?.(kind);
      throw new MemsvcError('RATE_LIMITED', refusalMessage(kind, decision.retryAfterSeconds), {
        retryAfterSeconds: decision.retryAfterSeconds,
        limit: kind,
      });
    },
  };
}

const LIMIT_NAMES: Record<RateLimitBucketKind, string> = {
  user: 'calls per user, RATE_LIMIT_USER_RPM',
  org: "calls of the organization's users together, RATE_LIMIT_ORG_RPM",
  ip: 'calls per client address, RATE_LIMIT_IP_RPM',
  tool: "this tool's own limit, RATE_LIMIT_TOOL_OVERRIDES",
};
