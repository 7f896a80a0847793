import type { ScheduledJob } from '@memsvc/runtime';
import type { SchedulerRun } from '@memsvc/store-pg';
import { shortTime } from '../../views/format.js';

/**
 * The scheduled jobs of spec §1.9 with their last run from scheduler_state, which every process
 * that runs the jobs (memsvc-worker, or the server: MEMSVC_SERVER_JOBS) shares: this page shows
 * the runs wherever they happened. A job never run has no row yet.
 */
export function SchedulerPanel(props: { jobs: readonly ScheduledJob[]; runs: readonly SchedulerRun[] }) {
  const runOf = new Map(props.runs.map((run) => [run.job, run]));
  return (
    <section aria-labelledby="scheduler-heading" class="ops-section">
      <h2 id="scheduler-heading">Scheduled jobs</h2>
      <table class="scheduler">
        <caption class="sr-only">Scheduled jobs and their last runs</caption>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">Every</th>
            <th scope="col">Last started</th>
            <th scope="col">Last finished</th>
            <th scope="col">Outcome</th>
            <th scope="col">Runs</th>
          </tr>
        </thead>
        <tbody>
          {props.jobs.map((job) => {
            const run = runOf.get(job.name);
            return (
              <tr>
                <th scope="row">
                  <code>{job.name}</code>
                </th>
                <td>{job.enabled ? interval(job.intervalMs) : 'off'}</td>
                <td>{run?.lastStartedAt ? shortTime(run.lastStartedAt) : 'never'}</td>
                <td>{run?.lastFinishedAt ? shortTime(run.lastFinishedAt) : '—'}</td>
                <td>
                  {outcome(run)}
                  {run?.lastError ? <p class="job-error">{run.lastError}</p> : null}
                </td>
                <td>{run?.runCount ?? 0}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

/** How the last run ended; a run with a start after its finish is still going (or died mid-run). */
function outcome(run: SchedulerRun | undefined): string {
  if (!run?.lastStartedAt) return '—';
  if (!run.lastFinishedAt || run.lastFinishedAt < run.lastStartedAt) return 'running';
  return run.lastStatus ?? '—';
}

/** `30 s`, `5 min`, `6 h`, `1 d`. */
function interval(ms: number): string {
  if (ms % 86_400_000 === 0) return `${ms / 86_400_000} d`;
  if (ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms % 60_000 === 0) return `${ms / 60_000} min`;
  return `${Math.round(ms / 1000)} s`;
}
