import {
  type Clock,
  type MemsvcConfig,
  MemsvcError,
  type RateLimitBucketKind,
  type RateLimitCaller,
  type RateLimitStore,
  rateLimitBuckets,
} from '@memsvc/core';
import { isCredential, type ObservedCall, type ToolHooks } from '@memsvc/mcp-tools';

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
function callerOf(call: ObservedCall, defaultUserId: string | undefined): RateLimitCaller | undefined {
  const { principal } = call;
  if (isCredential(principal)) return { userId: principal.tenant, organizationId: principal.organizationId };
  if (principal.kind === 'pre-shared-key') return defaultUserId ? { userId: defaultUserId } : undefined;
  // Stdio has no address and is not limited. Over HTTP, the request itself was already counted
  // against the address (rateLimitUnauthenticated): only a tool's own override is left to count.
  return call.clientAddress ? { ip: call.clientAddress } : undefined;
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
      const caller = callerOf(call, deps.defaultUserId);
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
      throw new MemsvcError('RATE_LIMITED', `rate limit reached (${LIMIT_NAMES[kind]}); retry after ${decision.retryAfterSeconds} s`, {
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
