// The spec's metrics are defined once, with the worker, which exports them from its own
// process too; the server registers the same set.
export type { Metrics } from '@memsvc/worker';
export { createMetrics } from '@memsvc/worker';
