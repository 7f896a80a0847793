import { REINDEX_BATCH_SIZE, REINDEX_MAX_MEMORIES } from '@memsvc/core';
import { shortTime } from '../../views/format.js';
import { CsrfField, type PageFrame } from '../../views/layout.js';
import { ADMIN_TOKEN_FIELD } from './admin-token-check.js';
import type { JobView } from './job-progress.js';

/** Where a job's JSON lives, for its row's live refresh. */
export function jobJsonPath(jobId: string): string {
  return `/operations/reindex/${jobId}.json`;
}

/**
 * Reindex jobs: the queue form with the options of queue_reindex_memories (checked by the same
 * rule), and the recent jobs with their progress. A queued or running job's row refreshes itself
 * from its JSON (the dashboard script, while the job is active); cancel and retry are forms.
 * Every form carries the admin token (MCP_ADMIN_TOKEN), as the admin tools do.
 */
export function ReindexPanel(props: { frame: PageFrame; jobs: readonly JobView[]; maintenanceEnabled: boolean }) {
  const { frame, jobs, maintenanceEnabled } = props;
  return (
    <section aria-labelledby="reindex-heading" class="ops-section" id="reindex">
      <h2 id="reindex-heading">Reindex jobs</h2>
      {maintenanceEnabled ? <QueueForm frame={frame} /> : <MaintenanceOff />}

      <table class="jobs">
        <caption>Recent reindex jobs, newest first</caption>
        <thead>
          <tr>
            <th scope="col">Job</th>
            <th scope="col">State</th>
            <th scope="col">Progress</th>
            <th scope="col">Options</th>
            <th scope="col">Requested</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {jobs.length === 0 ? (
            <tr>
              <td colspan={6}>No reindex job has been queued yet.</td>
            </tr>
          ) : (
            jobs.map((job) => <JobRow frame={frame} job={job} maintenanceEnabled={maintenanceEnabled} />)
          )}
        </tbody>
      </table>
    </section>
  );
}

/** Where MCP_ADMIN_TOKEN is unset: said before anyone fills in a form that would be refused. */
function MaintenanceOff() {
  return (
    <p class="notice" role="note">
      Maintenance is off on this server: queueing, cancelling and retrying a reindex need <code>MCP_ADMIN_TOKEN</code>. Set it where the
      server runs (for example to the output of <code>openssl rand -base64 32</code>) and restart; the forms then ask for it.
    </p>
  );
}

/** The form of queue_reindex_memories, checked by the same rule. */
function QueueForm(props: { frame: PageFrame }) {
  const { frame } = props;
  return (
    <form method="post" action={`${frame.basePath}/operations/reindex`} class="reindex-form">
      <CsrfField token={frame.csrfToken} />
      <fieldset>
        <legend>Queue a reindex job</legend>
        <div class="filters">
          <label>
            User <input name="userId" maxlength={128} placeholder="every user" autocomplete="off" />
          </label>
          <label>
            Batch size
            <input
              type="number"
              name="batchSize"
              min={REINDEX_BATCH_SIZE.min}
              max={REINDEX_BATCH_SIZE.max}
              step={1}
              value={String(REINDEX_BATCH_SIZE.default)}
            />
          </label>
          <label>
            Max memories <input type="number" name="maxMemories" min={1} max={REINDEX_MAX_MEMORIES} step={1} placeholder="all" />
          </label>
          <label>
            Resume after (cursor) <input name="cursor" maxlength={64} placeholder="memory id" autocomplete="off" />
          </label>
          <AdminTokenInput label="Admin token (MCP_ADMIN_TOKEN)" />
        </div>
        <p class="checks">
          <label>
            <input type="checkbox" name="reuseExistingEmbeddings" checked /> Keep vectors already made by the current model
          </label>
          <label>
            <input type="checkbox" name="recreate" /> Recreate the vector index (full runs only: no user, cursor or max)
          </label>
        </p>
        <button type="submit" class="primary">
          Queue job
        </button>
      </fieldset>
    </form>
  );
}

function JobRow(props: { frame: PageFrame; job: JobView; maintenanceEnabled: boolean }) {
  const { frame, job, maintenanceEnabled } = props;
  const active = job.state === 'queued' || job.state === 'running';
  const base = `${frame.basePath}/operations/reindex/${job.jobId}`;
  return (
    <tr data-refresh={active ? `${frame.basePath}${jobJsonPath(job.jobId)}` : undefined} data-job={job.jobId}>
      <td>
        <code class="job-id">{job.jobId}</code>
      </td>
      <td>
        <span data-field="state" class="job-state">
          {job.state}
        </span>
        {job.cancelRequested && job.state === 'running' ? <small> (cancel requested)</small> : null}
        {job.error ? <p class="job-error">{job.error}</p> : null}
      </td>
      <td>
        {job.percent === undefined ? null : (
          <progress max={100} value={job.percent} data-field="percent" aria-label={`Progress of job ${job.jobId}`}>
            {job.percent}%
          </progress>
        )}
        <small class="counts">
          <span data-field="progress.processed">{job.progress.processed}</span> processed
          {job.total === undefined ? null : ` of ~${job.total}`} · <span data-field="progress.indexed">{job.progress.indexed}</span> indexed
          · <span data-field="progress.skipped">{job.progress.skipped}</span> skipped ·{' '}
          <span data-field="progress.failed">{job.progress.failed}</span> failed
        </small>
      </td>
      <td>
        <small>{optionsText(job)}</small>
      </td>
      <td>
        <small>
          {shortTime(new Date(job.createdAt))}
          {job.requestedBy ? ` by ${job.requestedBy}` : ''}
          {job.attempts > 1 ? ` · attempt ${job.attempts}` : ''}
        </small>
      </td>
      <td class="actions">
        {active && maintenanceEnabled ? (
          <form method="post" action={`${base}/cancel`} data-confirm="Cancel this reindex job?">
            <CsrfField token={frame.csrfToken} />
            <AdminTokenInput label={`Admin token to cancel job ${job.jobId}`} compact />
            <button type="submit" class="danger" aria-label={`Cancel job ${job.jobId}`}>
              Cancel
            </button>
          </form>
        ) : null}
        {maintenanceEnabled && (job.state === 'failed' || job.state === 'cancelled') ? (
          <form method="post" action={`${base}/retry`}>
            <CsrfField token={frame.csrfToken} />
            <AdminTokenInput label={`Admin token to retry job ${job.jobId}`} compact />
            <button type="submit" aria-label={`Retry job ${job.jobId}`}>
              Retry
            </button>
          </form>
        ) : null}
      </td>
    </tr>
  );
}

/**
 * The admin token a maintenance form carries (the admin tools' MCP_ADMIN_TOKEN). Never filled in
 * by the page and never remembered by the browser's form history. `compact`: in a table row,
 * labelled for screen readers and shown by its placeholder.
 */
function AdminTokenInput(props: { label: string; compact?: boolean }) {
  if (props.compact) {
    return (
      <input type="password" name={ADMIN_TOKEN_FIELD} required autocomplete="off" placeholder="admin token" aria-label={props.label} />
    );
  }
  return (
    <label>
      {props.label} <input type="password" name={ADMIN_TOKEN_FIELD} required autocomplete="off" />
    </label>
  );
}

function optionsText(job: JobView): string {
  const { options } = job;
  return [
    options.userId === null ? 'every user' : `user ${options.userId}`,
    `batch ${options.batchSize}`,
    options.maxMemories === null ? undefined : `max ${options.maxMemories}`,
    options.cursor === null ? undefined : `after ${options.cursor}`,
    options.reuseExistingEmbeddings ? 'keep vectors' : 'recompute vectors',
    options.recreate ? 'recreate index' : undefined,
  ]
    .filter((part) => part !== undefined)
    .join(' · ');
}
