import packageJson from '../package.json' with { type: 'json' };

/** This package's version: what `memsvc-dashboard --version` prints. */
export const DASHBOARD_VERSION: string = packageJson.version;

/** `memsvc-dashboard --help`. */
export const DASHBOARD_HELP = `Usage: memsvc-dashboard [--help] [--version]

Runs the memsvc dashboard as its own process on the server's database, listening on PORT/HOST.
It reads the server's variables (docs/configuration.md); its database is WEB_DATABASE_URL, else
DATABASE_URL. It runs no scheduled jobs: the server or memsvc-worker does. On an embedded
(pglite://) directory it shares the database with the servers using it (or the server can
serve the dashboard itself: MEMSVC_SERVE_DASHBOARD=true).

Examples:
  # On PostgreSQL, people signing in with GitHub, Google or an API key:
  WEB_DATABASE_URL=postgres://memsvc:secret@localhost:5432/memsvc PORT=3001 JWT_SECRET=<32+ characters> memsvc-dashboard

  # Trying it alone on your machine, every visitor signed in as "me":
  MEMSVC_DASHBOARD_DEV_AUTH=true MEMSVC_DEFAULT_USER_ID=me HOST=127.0.0.1 PORT=3001 \\
    DATABASE_URL=pglite://~/.memsvc DEPLOYMENT_PROFILE=lite EMBEDDING_PROVIDER=local memsvc-dashboard

Options:
  -h, --help     show this help
  -v, --version  print the version
`;
