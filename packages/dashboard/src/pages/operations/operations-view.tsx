import type { HealthReport, ScheduledJob } from '@memsvc/runtime';
import type { SchedulerRun } from '@memsvc/store-pg';
import { Layout, Notice, type PageFrame } from '../../views/layout.js';
import { HealthPanel } from './health-panel.js';
import type { JobView } from './job-progress.js';
import { MetricsPanel, type MetricsView } from './metrics-panel.js';
import { ReindexPanel } from './reindex-panel.js';
import { SchedulerPanel } from './scheduler-panel.js';

/** What the operations page shows. */
export interface OperationsView {
  readonly frame: PageFrame;
  readonly health: HealthReport;
  readonly jobs: readonly JobView[];
  /** MCP_ADMIN_TOKEN is set: the maintenance forms can be used. */
  readonly maintenanceEnabled: boolean;
  readonly scheduled: readonly ScheduledJob[];
  readonly runs: readonly SchedulerRun[];
  readonly metrics: MetricsView;
  readonly notice?: string | undefined;
  readonly error?: string | undefined;
}

/** The operator's page: health, reindex jobs, the scheduler's runs and the metrics over time. */
export function OperationsPage(props: OperationsView) {
  return (
    <Layout frame={props.frame} title="Operations" section="operations">
      <Notice text={props.notice} />
      <Notice text={props.error} kind="error" />
      <HealthPanel report={props.health} />
      <ReindexPanel frame={props.frame} jobs={props.jobs} maintenanceEnabled={props.maintenanceEnabled} />
      <SchedulerPanel jobs={props.scheduled} runs={props.runs} />
      <MetricsPanel metrics={props.metrics} />
    </Layout>
  );
}
