import type { ToolHooks } from '@memsvc/mcp-tools';
import type { Metrics } from '@memsvc/runtime';

/**
 * The tool pipeline's metrics hook (spec §4.2): every memory tool call counted and timed by
 * operation, tier and status, and `store` / `recall` calls per agent — the principal's id,
 * `local` for unauthenticated and stdio calls. Admin and open tools are not memory operations.
 */
export function toolMetrics(metrics: Metrics): ToolHooks {
  return {
    after: (call, outcome) => {
      if (call.kind !== 'memory') return;
      metrics.memoryOperations.inc({ op: call.op, tier: outcome.tier, status: outcome.status });
      metrics.memoryOperationDuration.observe({ op: call.op, tier: outcome.tier }, outcome.seconds);
      const agentOp = call.op === 'create' ? 'store' : call.op === 'recall' ? 'recall' : undefined;
      if (agentOp) metrics.agentMemoryOperations.inc({ agent: call.principal.id, op: agentOp, status: outcome.status });
    },
  };
}
