import { agentOf, type ToolHooks } from '@memsvc/mcp-tools';
import type { Metrics } from '@memsvc/runtime';

/**
 * The tool pipeline's metrics hook (spec §4.2): every memory tool call counted and timed by
 * operation, tier and status, admin tool calls counted under their tool name (tier `none`), and
 * `store` / `recall` calls per agent — a key's id, the key behind a session, `login:<provider>`,
 * `shared-key`, or `local` for unauthenticated and stdio calls (agentOf). `ping` is not counted.
 */
export function toolMetrics(metrics: Metrics): ToolHooks {
  return {
    after: (call, outcome) => {
      if (call.kind === 'admin') {
        metrics.memoryOperations.inc({ op: call.tool, tier: 'none', status: outcome.status });
        metrics.memoryOperationDuration.observe({ op: call.tool, tier: 'none' }, outcome.seconds);
        return;
      }
      if (call.kind !== 'memory') return;
      metrics.memoryOperations.inc({ op: call.op, tier: outcome.tier, status: outcome.status });
      metrics.memoryOperationDuration.observe({ op: call.op, tier: outcome.tier }, outcome.seconds);
      const agentOp = call.op === 'create' ? 'store' : call.op === 'recall' ? 'recall' : undefined;
      if (agentOp) metrics.agentMemoryOperations.inc({ agent: agentOf(call.principal), op: agentOp, status: outcome.status });
    },
  };
}
