import { HealthChecker, httpStatusOf, scheduledJobs } from '@memsvc/runtime';
import type { Context, Hono } from 'hono';
import type { DashboardDependencies, DashboardOptions } from '../../dashboard-dependencies.js';
import type { DashboardEnv } from '../../dashboard-env.js';
import { frameOf } from '../../views/frame.js';
import { pageUrl } from '../../views/urls.js';
import { adminTokenCheck } from './admin-token-check.js';
import { ReindexProgress } from './job-progress.js';
import { type ToolLatency, toolLatencies } from './latency-quantiles.js';
import { OperationsPage } from './operations-view.js';
import { errorText, noticeText, type OperationsError, type OperationsNotice, readReindexForm, refusalCode } from './reindex-form.js';

/** Jobs the page lists: the recent history an operator acts on, well under 100 KB. */
const JOBS_SHOWN = 20;
/** The spans of the charts. */
const ACTIVITY_HOURS = 48;
const TIER_DAYS = 30;

/**
 * `/operations` (admin scope): health, reindex jobs, scheduler runs, metrics over time. Queueing,
 * cancelling and retrying a job also need MCP_ADMIN_TOKEN in the form, as the admin tools do.
 */
export function registerOperationsRoutes(app: Hono<DashboardEnv>, dependencies: DashboardDependencies, options: DashboardOptions): void {
  const { runtime } = dependencies;
  const { maintenance, store, config, clock, logger } = runtime;
  const checkAdminToken = adminTokenCheck(config.auth.adminToken, logger);
  const health = new HealthChecker(store, config.profile);
  const progress = new ReindexProgress(store.operations);
  const back = (c: Context<DashboardEnv>, query: { notice?: OperationsNotice; error?: OperationsError }) =>
    c.redirect(`${pageUrl(options.basePath, '/operations', query)}#reindex`, 303);

  app.get('/operations', async (c) => {
    const now = clock.now();
    const [report, recent, runs, activity, tiers, latencies] = await Promise.all([
      health.check(),
      store.reindexJobs.recent(JOBS_SHOWN),
      store.operations.schedulerRuns(),
      store.operations.operationsPerHour({ until: now, hours: ACTIVITY_HOURS }),
      store.operations.memoriesByTierPerDay({ until: now, days: TIER_DAYS }),
      latenciesOf(runtime),
    ]);
    const jobs = await Promise.all(recent.map((job) => progress.view(job)));
    return c.html(
      <OperationsPage
        frame={frameOf(c, options)}
        health={report}
        jobs={jobs}
        maintenanceEnabled={config.auth.adminToken !== undefined}
        scheduled={scheduledJobs(config)}
        runs={runs}
        metrics={{ activity, tiers, latencies }}
        notice={noticeText(c.req.query('notice'))}
        error={errorText(c.req.query('error'))}
      />,
    );
  });

  // What a queued or running job's row polls (dashboard.js data-refresh): the job, with its percentage.
  app.get('/operations/reindex/:file{[0-9a-fA-F-]{36}\\.json}', async (c) => {
    const jobId = c.req.param('file').slice(0, -'.json'.length);
    try {
      return c.json(await progress.view(await maintenance.reindexStatus(jobId)));
    } catch (error) {
      if (refusalCode(error) !== 'not-found') throw error;
      return c.json({ error: 'NOT_FOUND' }, httpStatusOf('NOT_FOUND'));
    }
  });

  app.post('/operations/reindex', async (c) => {
    const form = await c.req.parseBody();
    const refused = checkAdminToken(form, 'queue_reindex_memories', c.get('viewer').actor);
    if (refused) return back(c, { error: refused });
    const request = readReindexForm(form);
    try {
      // Audited as the viewer: the job row records who asked for it.
      await maintenance.queueReindex(request, c.get('viewer').actor);
    } catch (error) {
      const code = refusalCode(error);
      if (code === undefined) throw error;
      return back(c, { error: code });
    }
    return back(c, { notice: 'queued' });
  });

  app.post('/operations/reindex/:jobId/cancel', async (c) => {
    const refused = checkAdminToken(await c.req.parseBody(), 'cancel_reindex_job', c.get('viewer').actor);
    if (refused) return back(c, { error: refused });
    try {
      const job = await maintenance.cancelReindex(c.req.param('jobId'));
      return back(c, { notice: job.state === 'cancelled' ? 'cancelled' : 'cancel-requested' });
    } catch (error) {
      const code = refusalCode(error);
      if (code === undefined) throw error;
      return back(c, { error: code });
    }
  });

  app.post('/operations/reindex/:jobId/retry', async (c) => {
    const refused = checkAdminToken(await c.req.parseBody(), 'retry_reindex_job', c.get('viewer').actor);
    if (refused) return back(c, { error: refused });
    try {
      await maintenance.retryReindex(c.req.param('jobId'));
      return back(c, { notice: 'retried' });
    } catch (error) {
      const code = refusalCode(error);
      if (code === undefined) throw error;
      return back(c, { error: code });
    }
  });
}

/**
 * P50/P95 per tool from the runtime's tool-call histogram: inside memsvc-server that registry
 * times every tool call; in the standalone dashboard it stays empty.
 */
async function latenciesOf(runtime: DashboardDependencies['runtime']): Promise<readonly ToolLatency[] | undefined> {
  const histogram = await runtime.metrics.memoryOperationDuration.get();
  return toolLatencies(histogram.values, 'op');
}
