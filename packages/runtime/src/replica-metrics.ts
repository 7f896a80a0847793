import type { ReadRoute, ReplicaState, ReplicaStatus } from '@memsvc/store-pg';
import { Counter, Gauge, type Registry } from 'prom-client';

const STATES: readonly ReplicaState[] = ['ready', 'lagging', 'unavailable', 'promoted'];

/**
 * The read replica's metrics, registered only when DATABASE_READ_URL is set (names are ours;
 * the spec has no replicas):
 * - memsvc_replica_reads_total{target, reason}: routed reads by the server that served them
 *   (`replica`, `primary`) and why (`caught-up`, `recent-write`, `lagging`, `unavailable`,
 *   `promoted`, `replica-error`);
 * - memsvc_replica_lag_seconds: how far behind the primary the standby was at its last check
 *   (NaN while it cannot be measured: down or promoted);
 * - memsvc_replica_state{state}: 1 for the standby's current state, 0 for the others.
 * Returns what counts a read (the store's `onRead`).
 */
export function registerReplicaMetrics(registry: Registry, status: () => ReplicaStatus | undefined): (route: ReadRoute) => void {
  const reads = new Counter({
    name: 'memsvc_replica_reads_total',
    help: 'Reads the read replica could serve, by the server that served them and why',
    labelNames: ['target', 'reason'],
    registers: [registry],
  });
  new Gauge({
    name: 'memsvc_replica_lag_seconds',
    help: 'How far behind the primary the read replica was at its last check, in seconds (NaN when unknown)',
    registers: [registry],
    collect() {
      this.set(status()?.lagSeconds ?? Number.NaN);
    },
  });
  new Gauge({
    name: 'memsvc_replica_state',
    help: 'The read replica state: ready (serves reads), lagging, unavailable or promoted (1 for the current one)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      const current = status()?.state;
      for (const state of STATES) this.set({ state }, state === current ? 1 : 0);
    },
  });
  return (route) => reads.inc({ target: route.target, reason: route.reason });
}
