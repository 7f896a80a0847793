import packageJson from '../package.json' with { type: 'json' };

/** This package's version: what `memsvc-worker --version` prints. */
export const WORKER_VERSION: string = packageJson.version;

/** `memsvc-worker --help`. */
export const WORKER_HELP = `Usage: memsvc-worker [--port <n>] [--host <address>]

Runs memsvc's scheduled jobs (short-term sweep and promotion, auth-store sweep, decay scan,
corpus consolidation) and the reindex-job runner. Configuration comes from the environment,
as for the server (DATABASE_URL, the *_INTERVAL_MS variables, EMBEDDING_PROVIDER, ...).
Run any number of workers: each job runs once per interval across all of them.

Examples:
  # Beside HTTP servers on PostgreSQL, with its own health endpoint on port 9464:
  DATABASE_URL=postgres://memsvc:secret@localhost:5432/memsvc memsvc-worker --port 9464

  # Check it:
  curl http://127.0.0.1:9464/health

Options:
  --port <n>        serve GET /health and GET /health/metrics on this port (default: no HTTP)
  --host <address>  address to bind with --port (default 127.0.0.1)
  -h, --help        show this help
  -v, --version     print the version
`;
