import type { OperationsActivity, TierDay } from '@memsvc/store-pg';
import { shortTime } from '../../views/format.js';
import { BarChart, type ChartPoint, LineChart } from './charts.js';
import { formatQuantile, type ToolLatency } from './latency-quantiles.js';

const HOUR_MS = 3_600_000;

/** What the metrics section draws: the audit trail per hour, the tiers per day, and tool latency when this process times tools. */
export interface MetricsView {
  readonly activity: OperationsActivity;
  readonly tiers: readonly TierDay[];
  /** Undefined when this process keeps no metrics registry the dashboard can read. */
  readonly latencies: readonly ToolLatency[] | undefined;
}

/** Metrics as charts drawn on the server, each with its figures as a table, and tool latency as a table. */
export function MetricsPanel(props: { metrics: MetricsView }) {
  const { activity, tiers, latencies } = props.metrics;
  return (
    <section aria-labelledby="metrics-heading" class="ops-section">
      <h2 id="metrics-heading">Metrics</h2>
      <ActivityChart activity={activity} />
      <TierChart tiers={tiers} />
      <LatencyTable latencies={latencies} />
    </section>
  );
}

function ActivityChart(props: { activity: OperationsActivity }) {
  const { activity } = props;
  const totals = new Array<number>(activity.hours).fill(0);
  const byAction = new Map<string, number>();
  for (const { hour, action, count } of activity.counts) {
    totals[hour] = (totals[hour] ?? 0) + count;
    byAction.set(action, (byAction.get(action) ?? 0) + count);
  }
  const points: ChartPoint[] = totals.map((value, hour) => {
    const start = new Date(activity.since.getTime() + hour * HOUR_MS);
    return { label: shortTime(start), tick: `${shortTime(start).slice(5, 10)} ${start.toISOString().slice(11, 13)}h`, value };
  });
  const sum = totals.reduce((a, b) => a + b, 0);
  const busiest = points.reduce<ChartPoint | undefined>(
    (best, point) => (best === undefined || point.value > best.value ? point : best),
    undefined,
  );
  const until = new Date(activity.since.getTime() + activity.hours * HOUR_MS);
  return (
    <>
      <h3>Memory operations per hour</h3>
      <p class="hint">
        Every tenant, from the audit trail (creates, updates, deletes, restores, merges, prunes), for the {activity.hours} hours up to{' '}
        {shortTime(until)} UTC.
        {activity.complete
          ? null
          : ` Only the latest ${activity.scanned} operations were counted: the oldest hours show fewer than happened.`}
      </p>
      <BarChart
        id="chart-operations"
        title={`Memory operations per hour, last ${activity.hours} hours`}
        description={
          sum === 0
            ? `No memory operation in the last ${activity.hours} hours.`
            : `${sum} operations in ${activity.hours} hours; the busiest hour, ${busiest?.label ?? ''} UTC, had ${busiest?.value ?? 0}.`
        }
        points={points}
        labelEvery={Math.max(1, Math.ceil(activity.hours / 6))}
        valueHeading="Operations"
      />
      {byAction.size > 0 ? (
        <table class="compact">
          <caption>Operations by kind, last {activity.hours} hours</caption>
          <thead>
            <tr>
              <th scope="col">Kind</th>
              <th scope="col">Count</th>
            </tr>
          </thead>
          <tbody>
            {[...byAction].map(([action, count]) => (
              <tr>
                <th scope="row">{action}</th>
                <td>{count}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </>
  );
}

function TierChart(props: { tiers: readonly TierDay[] }) {
  const { tiers } = props;
  const labels = tiers.map((day) => day.day.toISOString().slice(0, 10));
  const last = tiers.at(-1);
  return (
    <>
      <h3>Memories by tier</h3>
      <p class="hint">
        Memories alive at the end of each day (UTC), every tenant, by their tier today, from when each was created and deleted.
      </p>
      <LineChart
        id="chart-tiers"
        title={`Memories by tier, last ${tiers.length} days`}
        description={
          last ? `At the end of ${labels.at(-1) ?? ''}: ${last.ltm} long-term and ${last.stm} short-term memories.` : 'No days to show.'
        }
        labels={labels}
        ticks={labels.map((label) => label.slice(5))}
        series={[
          { name: 'Long-term', className: 'series-ltm', values: tiers.map((day) => day.ltm) },
          { name: 'Short-term', className: 'series-stm', values: tiers.map((day) => day.stm) },
        ]}
        labelEvery={Math.max(1, Math.ceil(tiers.length / 8))}
      />
    </>
  );
}

function LatencyTable(props: { latencies: readonly ToolLatency[] | undefined }) {
  const { latencies } = props;
  return (
    <>
      <h3>Tool-call latency</h3>
      {latencies === undefined || latencies.length === 0 ? (
        <p class="hint empty-latency">
          No tool call has been timed in this process. Latency is measured where the MCP tools run: serve the dashboard from memsvc-server (
          <code>MEMSVC_SERVE_DASHBOARD=true</code>) to see it here, or read <code>memsvc_memory_operation_duration_seconds</code> from the
          server's <code>/health/metrics</code>.
        </p>
      ) : (
        <table class="compact latency">
          <caption>
            Per tool since this process started, estimated from the buckets of <code>memsvc_memory_operation_duration_seconds</code>
          </caption>
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Calls</th>
              <th scope="col">P50</th>
              <th scope="col">P95</th>
            </tr>
          </thead>
          <tbody>
            {latencies.map((latency) => (
              <tr>
                <th scope="row">{latency.tool}</th>
                <td>{latency.calls}</td>
                <td>{formatQuantile(latency.p50)}</td>
                <td>{formatQuantile(latency.p95)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </>
  );
}
