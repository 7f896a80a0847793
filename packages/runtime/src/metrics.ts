import type { DeploymentProfile } from '@memsvc/config';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';

/**
 * Every metric of spec §4.2 with its exact name and labels, on a registry of its own (so tests
 * and several servers in one process do not collide). Process metrics come from prom-client's
 * defaults.
 */
export function createMetrics(profile: DeploymentProfile, readPgvector: () => Promise<boolean>) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const vectorBackend = new Gauge({
    name: 'memsvc_vector_backend_info',
    help: 'Vector backend in use (always pgvector)',
    labelNames: ['backend'],
    registers: [registry],
  });
  vectorBackend.set({ backend: 'pgvector' }, 1);
  const profileInfo = new Gauge({
    name: 'memsvc_deployment_profile_info',
    help: 'Active deployment profile',
    labelNames: ['profile'],
    registers: [registry],
  });
  profileInfo.set({ profile }, 1);
  new Gauge({
    name: 'memsvc_pgvector_ready',
    help: 'Whether the pgvector extension is reachable (1) or not (0)',
    registers: [registry],
    async collect() {
      this.set((await readPgvector()) ? 1 : 0);
    },
  });

  return {
    registry,
    memoryOperations: new Counter({
      name: 'memsvc_memory_operations_total',
      help: 'Memory operations',
      labelNames: ['op', 'tier', 'status'],
      registers: [registry],
    }),
    memoryOperationDuration: new Histogram({
      name: 'memsvc_memory_operation_duration_seconds',
      help: 'Latency of memory operations in seconds',
      labelNames: ['op', 'tier'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    memoriesPromoted: new Counter({
      name: 'memsvc_memories_promoted_total',
      help: 'Short-term memories promoted to long-term by the scheduler',
      registers: [registry],
    }),
    consolidationRuns: new Counter({
      name: 'memsvc_consolidation_runs_total',
      help: 'Consolidation scheduler runs',
      labelNames: ['status'],
      registers: [registry],
    }),
    reindexOperations: new Counter({
      name: 'memsvc_reindex_operations_total',
      help: 'Vector reindex operations',
      labelNames: ['status'],
      registers: [registry],
    }),
    activeMcpSessions: new Gauge({
      name: 'memsvc_active_mcp_sessions',
      help: 'Streamable-HTTP MCP requests in progress (memsvc serves MCP statelessly, so a request is the session)',
      registers: [registry],
    }),
    agentMemoryOperations: new Counter({
      name: 'memsvc_agent_memory_operations_total',
      help: 'Per-agent memory operations; agent is the API-key id, or "local" for unauthenticated and stdio calls',
      labelNames: ['agent', 'op', 'status'],
      registers: [registry],
    }),
    // Not in spec §4.2: refusals of the rate limiter by the limit that refused (user, org, ip,
    // tool) — what to alert on when an agent loops or a limit is too low. No label names a caller.
    rateLimited: new Counter({
      name: 'memsvc_rate_limited_total',
      help: 'Calls and requests refused by the rate limiter, by the limit that refused them',
      labelNames: ['kind'],
      registers: [registry],
    }),
    // Not in spec §4.2: how many spans never reached the OTLP collector. Zero while tracing is off.
    traceSpansDropped: new Counter({
      name: 'memsvc_trace_spans_dropped_total',
      help: 'Trace spans given up: the export queue was full (queue_full), the collector failed or timed out (export_failed), or shutdown left them unsent (shutdown)',
      labelNames: ['reason'],
      registers: [registry],
    }),
  };
}

export type Metrics = ReturnType<typeof createMetrics>;
