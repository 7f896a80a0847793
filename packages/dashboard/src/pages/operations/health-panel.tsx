import type { HealthReport } from '@memsvc/runtime';

/** The three indicators of the server's `/health` (spec §4.1), from the same checker, as cards. */
export function HealthPanel(props: { report: HealthReport }) {
  const { report } = props;
  const { database, pgvector } = report.indicators;
  const process = report.indicators['memory-store'];
  return (
    <section aria-labelledby="health-heading" class="ops-section">
      <h2 id="health-heading">Health</h2>
      <p>
        Overall <Status value={report.status} /> on the <code>{report.profile}</code> profile — the same report as <code>/health</code>.
      </p>
      <div class="grid health">
        <article class="card" aria-labelledby="health-memory-store">
          <h3 id="health-memory-store">
            memory-store <Status value={process.status} />
          </h3>
          <dl class="facts">
            <dt>Process</dt>
            <dd>{process.pid}</dd>
            <dt>Up for</dt>
            <dd>{duration(process.uptimeSeconds)}</dd>
            <dt>Heap used</dt>
            <dd>
              {mebibytes(process.heapUsedBytes)} of {mebibytes(process.heapTotalBytes)}
            </dd>
            <dt>Resident</dt>
            <dd>{mebibytes(process.rssBytes)}</dd>
          </dl>
        </article>
        <article class="card" aria-labelledby="health-database">
          <h3 id="health-database">
            database <Status value={database.status} />
          </h3>
          <dl class="facts">
            <dt>Engine</dt>
            <dd>{database.engine}</dd>
            <dt>Round trip</dt>
            <dd>{database.latencyMs} ms</dd>
            {database.error ? (
              <>
                <dt>Error</dt>
                <dd>{database.error}</dd>
              </>
            ) : null}
          </dl>
        </article>
        <article class="card" aria-labelledby="health-pgvector">
          <h3 id="health-pgvector">
            pgvector <Status value={pgvector.status} />
          </h3>
          <dl class="facts">
            {pgvector.version ? (
              <>
                <dt>Version</dt>
                <dd>{pgvector.version}</dd>
              </>
            ) : null}
            {pgvector.error ? (
              <>
                <dt>Error</dt>
                <dd>{pgvector.error}</dd>
              </>
            ) : null}
          </dl>
        </article>
      </div>
    </section>
  );
}

/** A status word with its class; the word carries the meaning, the colour only repeats it. */
function Status(props: { value: 'up' | 'down' | 'ok' | 'error' }) {
  const good = props.value === 'up' || props.value === 'ok';
  return <span class={`status ${good ? 'good' : 'bad'}`}>{props.value}</span>;
}

function mebibytes(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** `3 d 4 h`, `2 h 5 min`, `42 s`. */
function duration(seconds: number): string {
  if (seconds < 60) return `${seconds} s`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} d ${hours % 24} h`;
}
