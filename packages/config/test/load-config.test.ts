/// <reference types="node" />
import { inspect } from 'node:util';
import { Secret } from '@memsvc/access';
import { isValidTenantId } from '@memsvc/core';
import { describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { assertServerMayBoot, ConfigError, ENV_VARIABLES, LITE_DEFAULT_USER_ID, loadConfig, type MemsvcConfig } from '../src/index.js';

const context = { homeDir: '/home/agent' };
const BASE = { DATABASE_URL: 'pglite://memory' };

function load(env: Record<string, string | undefined>) {
  return loadConfig({ ...BASE, ...env }, context);
}

function issuesOf(env: Record<string, string | undefined>, withBase = true) {
  try {
    loadConfig(withBase ? { ...BASE, ...env } : env, context);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return (error as ConfigError).issues;
  }
  throw new Error('expected the configuration to be rejected');
}

function messageOf(env: Record<string, string | undefined>, withBase = true) {
  try {
    loadConfig(withBase ? { ...BASE, ...env } : env, context);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the configuration to be rejected');
}

describe('defaults', () => {
  it(verifies('CFG-DEFAULTS', 'gives every variable its documented default'), () => {
    const { config, warnings } = load({});
    expect(warnings).toEqual([]);
    expect(config).toMatchObject({
      nodeEnv: 'development',
      logLevel: 'debug',
      profile: 'standard',
      http: { port: 3000, host: '0.0.0.0', corsAllowedOrigins: [], trustedProxies: [], serveDashboard: false },
      mcp: { transport: 'stdio', publicUrl: undefined },
      database: { read: undefined },
      embedding: {
        provider: 'ollama',
        model: 'nomic-embed-text',
        ollamaUrl: 'http://localhost:11434',
        openaiApiKey: undefined,
        dimensions: undefined,
      },
      vectorIndex: { hnswM: undefined, hnswEfConstruction: undefined, hnswEfSearch: undefined },
      shortTerm: {
        consolidationAccessThreshold: 3,
        consolidationImportanceThreshold: undefined,
        consolidationIntervalMs: 300_000,
        sweepIntervalMs: 600_000,
      },
      decay: { intervalMs: 86_400_000, batchSize: 100, staleScoreThreshold: 0.3, pruneScoreThreshold: 0.15, pruneOlderThanDays: 30 },
      importance: { halfLifeDays: 14 },
      similarity: {
        duplicateThreshold: 0.97,
        mergeThreshold: 0.85,
        contradictionThreshold: 0.8,
        contradictionThresholdMax: 0.97,
        contradictionPolicy: 'flag',
      },
      corpusConsolidation: { intervalMs: 0 },
      authStore: { sweepIntervalMs: 900_000 },
      import: { allowedRoot: '/home/agent' },
      auth: {
        required: false,
        allowUnauthenticatedHttp: false,
        jwtSecret: undefined,
        jwtExpiresInSeconds: 7 * 86_400,
        github: undefined,
        google: undefined,
        adminEmails: [],
        adminToken: undefined,
        apiKey: undefined,
        defaultUserId: undefined,
        operatorTenants: [],
        dashboard: { github: undefined, google: undefined, devAuth: false },
      },
      rateLimit: {
        enabled: false,
        windowSeconds: 60,
        userPerWindow: 120,
        orgPerWindow: 6000,
        ipPerWindow: 60,
        ipv6Prefix: 64,
        toolOverrides: {},
      },
      metrics: { token: undefined },
      telemetry: { otlpEndpoint: undefined, serviceName: 'memsvc-mcp-server', resourceAttributes: {} },
    });
  });

  it(verifies('CFG-DEFAULTS', 'picks the embedding model per provider and the log level per NODE_ENV'), () => {
    expect(load({ EMBEDDING_PROVIDER: 'openai', OPENAI_API_KEY: 'sk-test' }).config.embedding.model).toBe('text-embedding-3-small');
    expect(load({ EMBEDDING_PROVIDER: 'local' }).config.embedding.model).toBe('memsvc-local-v1');
    expect(load({ EMBEDDING_PROVIDER: 'disabled' }).config.embedding.model).toBeUndefined();
    expect(load({ EMBEDDING_PROVIDER: 'ollama', EMBEDDING_MODEL: 'mxbai-embed-large' }).config.embedding.model).toBe('mxbai-embed-large');
    expect(load({ NODE_ENV: 'production' }).config.logLevel).toBe('info');
    expect(load({ NODE_ENV: 'test' }).config.logLevel).toBe('warn');
    expect(load({ NODE_ENV: 'production', LOG_LEVEL: 'debug' }).config.logLevel).toBe('debug');
  });

  it(verifies('CFG-DEFAULTS', 'knows exactly the variables of spec §2.5, and the ones memsvc adds'), () => {
    const SPEC_VARIABLES = [
      'NODE_ENV',
      'PORT',
      'HOST',
      'DATABASE_URL',
      'DEPLOYMENT_PROFILE',
      'EMBEDDING_PROVIDER',
      'EMBEDDING_MODEL',
      'OLLAMA_URL',
      'OPENAI_API_KEY',
      'VECTOR_DIMENSIONS',
      'PGVECTOR_HNSW_M',
      'PGVECTOR_HNSW_EF_CONSTRUCTION',
      'PGVECTOR_HNSW_EF_SEARCH',
      'MCP_TRANSPORT',
      'STM_CONSOLIDATION_ACCESS_THRESHOLD',
      'STM_CONSOLIDATION_IMPORTANCE_THRESHOLD',
      'STM_CONSOLIDATION_INTERVAL_MS',
      'STM_SWEEP_INTERVAL_MS',
      'AUTH_STORE_SWEEP_INTERVAL_MS',
      'MEMORY_DECAY_INTERVAL_MS',
      'MEMORY_DECAY_BATCH_SIZE',
      'MEMORY_DECAY_STALE_SCORE_THRESHOLD',
      'MEMORY_DECAY_PRUNE_SCORE_THRESHOLD',
      'MEMORY_DECAY_PRUNE_OLDER_THAN_DAYS',
      'MEMORY_DUPLICATE_THRESHOLD',
      'MEMORY_CONSOLIDATION_MERGE_THRESHOLD',
      'MEMORY_CONSOLIDATION_INTERVAL_MS',
      'MEMORY_CONTRADICTION_THRESHOLD',
      'MEMORY_CONTRADICTION_THRESHOLD_MAX',
      'MEMORY_CONTRADICTION_POLICY',
      'MEMORY_IMPORTANCE_HALF_LIFE_DAYS',
      'IMPORT_ALLOWED_ROOT',
      'AUTH_REQUIRED',
      'ALLOW_UNAUTHENTICATED_HTTP',
      'JWT_SECRET',
      'JWT_EXPIRES_IN',
      'OAUTH_REDIRECT_BASE_URL',
      'GITHUB_CLIENT_ID',
      'GITHUB_CLIENT_SECRET',
      'GOOGLE_CLIENT_ID',
      'GOOGLE_CLIENT_SECRET',
      'AUTH_GITHUB_ID',
      'AUTH_GITHUB_SECRET',
      'AUTH_GOOGLE_ID',
      'AUTH_GOOGLE_SECRET',
      'RATE_LIMIT_ENABLED',
      'RATE_LIMIT_WINDOW_SEC',
      'RATE_LIMIT_USER_RPM',
      'RATE_LIMIT_ORG_RPM',
      'RATE_LIMIT_IP_RPM',
      'RATE_LIMIT_TOOL_OVERRIDES',
      'MCP_ADMIN_TOKEN',
      'METRICS_TOKEN',
      'CORS_ALLOWED_ORIGINS',
      'MEMSVC_ADMIN_EMAILS',
      'MEMSVC_ALLOWED_HOSTS',
      'MEMSVC_API_KEY',
      'MEMSVC_DEFAULT_USER_ID',
      'MEMSVC_MCP_URL',
      'MEMSVC_OPERATOR_TENANTS',
      'MEMSVC_DASHBOARD_DEV_AUTH',
      'LOG_LEVEL',
      'WEB_DATABASE_URL',
      'OTEL_EXPORTER_OTLP_ENDPOINT',
      'OTEL_SERVICE_NAME',
      'OTEL_RESOURCE_ATTRIBUTES',
    ];
    // Where the spec leaves a choice to us (the client IP behind a proxy: docs/security.md; read
    // replicas: docs/scale-out.md; the embedded-database template cache and where the jobs run:
    // docs/configuration.md; the shutdown deadline: docs/operations.md; the IPv6 network counted as one address: docs/operations.md; the
    // tools a server offers: docs/tools.md).
    const OURS = [
      'MCP_TOOL_SETS',
      'MEMSVC_TRUSTED_PROXIES',
      'MEMSVC_SERVE_DASHBOARD',
      'DATABASE_READ_URL',
      'DATABASE_READ_MAX_LAG_MS',
      'MEMSVC_CACHE_DIR',
      'MEMSVC_SERVER_JOBS',
      'MEMSVC_SHUTDOWN_TIMEOUT_MS',
      'RATE_LIMIT_IPV6_PREFIX',
      'OAUTH_CLIENT_METADATA_ALLOWED_HOSTS',
    ];
    expect([...ENV_VARIABLES].sort()).toEqual([...SPEC_VARIABLES, ...OURS].sort());
  });
});

describe('types and values', () => {
  it(verifies('CFG-TYPES', 'rejects values of the wrong type with a message that says what is accepted'), () => {
    const issues = issuesOf({
      PORT: 'eighty',
      AUTH_REQUIRED: 'maybe',
      MCP_TRANSPORT: 'sse',
      MEMORY_DUPLICATE_THRESHOLD: '1.5',
      MEMORY_DECAY_BATCH_SIZE: '2.5',
      STM_SWEEP_INTERVAL_MS: '-1',
      MEMORY_CONTRADICTION_POLICY: 'ignore',
      LOG_LEVEL: 'trace',
    });
    expect(issues).toEqual([
      { variable: 'PORT', message: 'must be a number (got "eighty")' },
      { variable: 'MCP_TRANSPORT', message: 'must be one of stdio, streamable-http (got "sse")' },
      { variable: 'STM_SWEEP_INTERVAL_MS', message: 'must be at least 0 (got -1)' },
      { variable: 'MEMORY_DECAY_BATCH_SIZE', message: 'must be a whole number (got "2.5")' },
      { variable: 'MEMORY_DUPLICATE_THRESHOLD', message: 'must be at most 1 (got 1.5)' },
      { variable: 'MEMORY_CONTRADICTION_POLICY', message: 'must be one of supersede, flag (got "ignore")' },
      { variable: 'AUTH_REQUIRED', message: 'must be true or false (got "maybe")' },
      { variable: 'LOG_LEVEL', message: 'must be one of debug, info, warn, error (got "trace")' },
    ]);
  });

  it(verifies('R-SHUTDOWN-BOUNDED', 'MEMSVC_SHUTDOWN_TIMEOUT_MS: 10 s by default, a whole number from 1 s'), () => {
    expect(load({}).config.shutdownTimeoutMs).toBe(10_000);
    expect(load({ MEMSVC_SHUTDOWN_TIMEOUT_MS: '25000' }).config.shutdownTimeoutMs).toBe(25_000);
    expect(issuesOf({ MEMSVC_SHUTDOWN_TIMEOUT_MS: '500' })).toEqual([
      { variable: 'MEMSVC_SHUTDOWN_TIMEOUT_MS', message: 'must be at least 1000 (got 500)' },
    ]);
  });

  it(verifies('CFG-TYPES', 'accepts the usual spellings of booleans and mixed-case enumerations'), () => {
    expect(load({ AUTH_REQUIRED: 'YES', JWT_SECRET: 'x'.repeat(32) }).config.auth.required).toBe(true);
    expect(load({ RATE_LIMIT_ENABLED: '0' }).config.rateLimit.enabled).toBe(false);
    expect(load({ MCP_TRANSPORT: 'Streamable-HTTP' }).config.mcp.transport).toBe('streamable-http');
    expect(load({ PORT: '0' }).config.http.port).toBe(0);
  });

  it(verifies('CFG-EMPTY-IS-UNSET', 'treats FOO= and blank values as unset'), () => {
    const { config } = load({ PORT: '', OLLAMA_URL: '  ', JWT_SECRET: '', CORS_ALLOWED_ORIGINS: ' , ' });
    expect(config.http.port).toBe(3000);
    expect(config.embedding.ollamaUrl).toBe('http://localhost:11434');
    expect(config.auth.jwtSecret).toBeUndefined();
    expect(config.http.corsAllowedOrigins).toEqual([]);
  });

  it(verifies('CFG-ALL-AT-ONCE', 'reports every problem in one error, each naming its variable'), () => {
    const message = messageOf({ DEPLOYMENT_PROFILE: 'lite', OLLAMA_URL: 'localhost:11434', AUTH_REQUIRED: 'true', PORT: '99999' }, false);
    expect(message).toMatch(/^memsvc configuration is invalid \(profile: lite, 4 problems\):/);
    for (const variable of ['DATABASE_URL', 'OLLAMA_URL', 'JWT_SECRET', 'PORT']) expect(message).toContain(`  - ${variable}: `);
  });
});

describe('DATABASE_URL', () => {
  it(verifies('CFG-DB-REQUIRED', 'is required, and the error names the active profile'), () => {
    for (const profile of ['lite', 'standard']) {
      const issues = issuesOf({ DEPLOYMENT_PROFILE: profile }, false);
      expect(issues).toHaveLength(1);
      expect(issues[0]?.variable).toBe('DATABASE_URL');
      expect(issues[0]?.message).toContain(`is required in every profile (active profile: ${profile})`);
    }
    expect(messageOf({}, false)).toContain('(profile: standard, 1 problem)');
  });

  it(verifies('CFG-DB-URL', 'rejects an invalid URL or an unknown scheme, naming the profile and never the password'), () => {
    expect(issuesOf({ DATABASE_URL: 'not a url', DEPLOYMENT_PROFILE: 'lite' })).toEqual([
      { variable: 'DATABASE_URL', message: 'not a valid URL (active profile: lite)' },
    ]);
    const message = messageOf({ DATABASE_URL: 'mysql://root:hunter2@db/memsvc' });
    expect(message).toContain('unsupported scheme "mysql"');
    expect(message).toContain('(active profile: standard)');
    expect(message).not.toContain('hunter2');
    expect(issuesOf({ DATABASE_URL: 'pglite://' })[0]?.message).toMatch(/needs a directory or "memory"/);
  });

  it(verifies('CFG-DB-ENGINES', 'selects PostgreSQL or embedded PGlite from the URL and masks the password for display'), () => {
    const postgres = load({ DATABASE_URL: 'postgresql://memsvc:s3cret@db.internal:5432/memsvc' }).config.database;
    expect(postgres.target.engine).toBe('postgres');
    expect(postgres.target.engine === 'postgres' && postgres.target.url.reveal()).toBe(
      'postgresql://memsvc:s3cret@db.internal:5432/memsvc',
    );
    expect(postgres.displayUrl).toBe('postgresql://memsvc:*****@db.internal:5432/memsvc');
    expect(postgres.url.reveal()).toBe('postgresql://memsvc:s3cret@db.internal:5432/memsvc');
    expect(load({ DATABASE_URL: 'postgres://localhost/memsvc' }).config.database.target.engine).toBe('postgres');
    expect(load({ DATABASE_URL: 'pglite://memory' }).config.database.target).toEqual({ engine: 'pglite', storage: 'memory' });
    expect(load({ DATABASE_URL: 'pglite://./memsvc-data' }).config.database.target).toEqual({
      engine: 'pglite',
      storage: 'directory',
      directory: './memsvc-data',
    });
    expect(load({ DATABASE_URL: 'pglite:///var/lib/memsvc' }).config.database.target).toEqual({
      engine: 'pglite',
      storage: 'directory',
      directory: '/var/lib/memsvc',
    });
  });
});

describe('DEPLOYMENT_PROFILE', () => {
  it(verifies('CFG-PROFILE-MEMORY', 'rejects the removed memory profile with guidance'), () => {
    const [issue] = issuesOf({ DEPLOYMENT_PROFILE: 'memory' });
    expect(issue?.variable).toBe('DEPLOYMENT_PROFILE');
    expect(issue?.message).toMatch(/"memory" profile was removed\. Choose "lite" .* or "standard"/);
  });

  it(verifies('CFG-PROFILE-ALIAS', 'accepts enterprise as standard, with a deprecation warning'), () => {
    const { config, warnings } = load({ DEPLOYMENT_PROFILE: 'enterprise' });
    expect(config.profile).toBe('standard');
    expect(warnings).toEqual([expect.stringMatching(/DEPLOYMENT_PROFILE=enterprise is deprecated/)]);
    expect(load({ DEPLOYMENT_PROFILE: 'LITE' }).config.profile).toBe('lite');
  });

  it('runs the background jobs in the server on lite or an embedded database, in workers on standard over PostgreSQL, unless MEMSVC_SERVER_JOBS says otherwise (the server warns of false on an embedded one)', () => {
    const POSTGRES = 'postgres://memsvc@db.internal:5432/memsvc';
    expect(load({ DEPLOYMENT_PROFILE: 'lite' }).config.serverJobs).toBe(true);
    expect(load({}).config.serverJobs).toBe(true); // standard on pglite://memory: no worker can open it
    expect(load({ DATABASE_URL: POSTGRES, DEPLOYMENT_PROFILE: 'lite' }).config.serverJobs).toBe(true);
    expect(load({ DATABASE_URL: POSTGRES }).config.serverJobs).toBe(false);
    expect(load({ DATABASE_URL: POSTGRES, MEMSVC_SERVER_JOBS: 'true' }).config.serverJobs).toBe(true);
    expect(load({ DATABASE_URL: POSTGRES, DEPLOYMENT_PROFILE: 'lite', MEMSVC_SERVER_JOBS: 'off' }).config.serverJobs).toBe(false);
    expect(load({ MEMSVC_SERVER_JOBS: 'false' }).config.serverJobs).toBe(false);
    expect(issuesOf({ MEMSVC_SERVER_JOBS: 'sometimes' })).toEqual([
      { variable: 'MEMSVC_SERVER_JOBS', message: 'must be true or false (got "sometimes")' },
    ]);
  });

  it(verifies('CFG-PROFILE-UNKNOWN', 'rejects any other profile'), () => {
    expect(issuesOf({ DEPLOYMENT_PROFILE: 'cloud' })).toEqual([
      { variable: 'DEPLOYMENT_PROFILE', message: 'must be lite or standard ("enterprise" is a deprecated alias of standard); got "cloud"' },
    ]);
  });
});

describe('embedding and vector settings', () => {
  it(verifies('CFG-OLLAMA-SCHEME', 'rejects OLLAMA_URL without a scheme or with a bad one'), () => {
    for (const value of ['localhost:11434', 'ftp://ollama:11434', 'http://']) {
      const [issue] = issuesOf({ OLLAMA_URL: value });
      expect(issue?.variable).toBe('OLLAMA_URL');
    }
    expect(load({ OLLAMA_URL: 'https://ollama.example.com:11434/' }).config.embedding.ollamaUrl).toBe('https://ollama.example.com:11434');
  });

  it(verifies('CFG-OLLAMA-SCHEME', 'rejects OLLAMA_URL with a user name or password, without echoing it'), () => {
    for (const value of ['http://ops:s3cret-pw@ollama:11434', 'http://s3cret-pw@ollama:11434']) {
      const issues = issuesOf({ OLLAMA_URL: value });
      expect(issues).toEqual([{ variable: 'OLLAMA_URL', message: expect.stringContaining('user name or password') }]);
      expect(JSON.stringify(issues)).not.toContain('s3cret-pw');
    }
  });

  it(verifies('CFG-OPENAI-NO-KEY', 'accepts openai without a key: generation is disabled, with a warning, not an error'), () => {
    const { config, warnings } = load({ EMBEDDING_PROVIDER: 'openai' });
    expect(config.embedding.openaiApiKey).toBeUndefined();
    expect(warnings).toEqual([expect.stringMatching(/without OPENAI_API_KEY: embedding generation is disabled/)]);
  });

  it(verifies('CFG-HNSW-BOUNDS', "checks HNSW settings and VECTOR_DIMENSIONS against pgvector's limits"), () => {
    expect(issuesOf({ PGVECTOR_HNSW_M: '1', PGVECTOR_HNSW_EF_SEARCH: '1001', VECTOR_DIMENSIONS: '2001' }).map((i) => i.variable)).toEqual([
      'VECTOR_DIMENSIONS',
      'PGVECTOR_HNSW_M',
      'PGVECTOR_HNSW_EF_SEARCH',
    ]);
    expect(issuesOf({ PGVECTOR_HNSW_M: '32', PGVECTOR_HNSW_EF_CONSTRUCTION: '40' })).toEqual([
      { variable: 'PGVECTOR_HNSW_EF_CONSTRUCTION', message: 'must be at least twice PGVECTOR_HNSW_M (64), as pgvector requires' },
    ]);
    expect(
      load({ PGVECTOR_HNSW_M: '24', PGVECTOR_HNSW_EF_CONSTRUCTION: '96', PGVECTOR_HNSW_EF_SEARCH: '80', VECTOR_DIMENSIONS: '512' }).config
        .vectorIndex,
    ).toEqual({
      hnswM: 24,
      hnswEfConstruction: 96,
      hnswEfSearch: 80,
    });
  });

  it(verifies('CFG-MODEL-DIMS', 'asks for VECTOR_DIMENSIONS when the model is wider than the HNSW limit'), () => {
    const [issue] = issuesOf({ EMBEDDING_PROVIDER: 'openai', EMBEDDING_MODEL: 'text-embedding-3-large' });
    expect(issue).toMatchObject({ variable: 'EMBEDDING_MODEL' });
    expect(issue?.message).toMatch(/3072-dimensional.*set VECTOR_DIMENSIONS/);
    expect(
      load({ EMBEDDING_PROVIDER: 'openai', EMBEDDING_MODEL: 'text-embedding-3-large', VECTOR_DIMENSIONS: '1536' }).config.embedding
        .dimensions,
    ).toBe(1536);
  });
});

describe('auth settings', () => {
  it(verifies('CFG-JWT-SECRET', 'requires a JWT_SECRET of 32+ characters with AUTH_REQUIRED=true, never echoing it'), () => {
    expect(issuesOf({ AUTH_REQUIRED: 'true' })).toEqual([
      { variable: 'JWT_SECRET', message: 'is required when AUTH_REQUIRED=true (at least 32 characters)' },
    ]);
    const short = 'short-but-secret-value';
    const message = messageOf({ AUTH_REQUIRED: 'true', JWT_SECRET: short });
    expect(message).toContain(`JWT_SECRET: must be at least 32 characters when AUTH_REQUIRED=true (got ${short.length})`);
    expect(message).not.toContain(short);
    expect(load({ AUTH_REQUIRED: 'true', JWT_SECRET: 'k'.repeat(32) }).config.auth.jwtSecret?.reveal()).toBe('k'.repeat(32));
    expect(load({ JWT_SECRET: 'short' }).warnings).toEqual([expect.stringMatching(/JWT_SECRET is shorter than 32/)]);
  });

  it(verifies('CFG-JWT-EXPIRES', 'reads durations and rejects malformed ones'), () => {
    const seconds = (value: string) => load({ JWT_EXPIRES_IN: value }).config.auth.jwtExpiresInSeconds;
    expect([seconds('7d'), seconds('24h'), seconds('30m'), seconds('3600s'), seconds('900')]).toEqual([604_800, 86_400, 1800, 3600, 900]);
    for (const bad of ['7 days', '1w', '-5m', '0', '1.5h']) {
      expect(issuesOf({ JWT_EXPIRES_IN: bad })[0]?.variable).toBe('JWT_EXPIRES_IN');
    }
  });

  it(verifies('CFG-OAUTH-PAIR', 'enables an identity provider only when both its id and secret are set'), () => {
    const both = load({
      GITHUB_CLIENT_ID: 'gh-id',
      GITHUB_CLIENT_SECRET: 'gh-secret',
      OAUTH_REDIRECT_BASE_URL: 'https://memsvc.example.com',
      JWT_SECRET: 'k'.repeat(32),
    });
    expect(both.config.auth.github?.clientId).toBe('gh-id');
    expect(both.config.auth.github?.clientSecret.reveal()).toBe('gh-secret');
    const half = load({ GOOGLE_CLIENT_ID: 'g-id', AUTH_GITHUB_SECRET: 'x' });
    expect(half.config.auth.google).toBeUndefined();
    expect(half.config.auth.dashboard.github).toBeUndefined();
    expect(half.warnings).toEqual([
      'Google login stays disabled: GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET must both be set',
      'dashboard GitHub login stays disabled: AUTH_GITHUB_ID and AUTH_GITHUB_SECRET must both be set',
    ]);
  });

  it(verifies('CFG-OAUTH-LOGIN', 'refuses an enabled login with nowhere to come back to or no way to sign a session'), () => {
    const github = { GITHUB_CLIENT_ID: 'gh-id', GITHUB_CLIENT_SECRET: 'gh-secret' };
    expect(issuesOf(github)).toEqual([
      { variable: 'OAUTH_REDIRECT_BASE_URL', message: expect.stringContaining('required when GitHub login is enabled') },
      { variable: 'JWT_SECRET', message: expect.stringContaining('a login yields a session JWT') },
    ]);
    const both = {
      ...github,
      GOOGLE_CLIENT_ID: 'g-id',
      GOOGLE_CLIENT_SECRET: 'g-secret',
      OAUTH_REDIRECT_BASE_URL: 'https://m.example.com',
    };
    expect(issuesOf({ ...both, JWT_SECRET: 'short' })).toEqual([
      { variable: 'JWT_SECRET', message: expect.stringContaining('when GitHub and Google login are enabled') },
    ]);
    expect(load({ ...both, JWT_SECRET: 'k'.repeat(32) }).config.auth.google?.clientId).toBe('g-id');
    // Half a pair enables nothing, so it needs nothing; lite has no logins at all.
    expect(() => load({ GITHUB_CLIENT_ID: 'gh-id' })).not.toThrow();
    const lite = load({ ...github, DEPLOYMENT_PROFILE: 'lite' });
    expect(lite.warnings).toContain(
      'GitHub and Google login are ignored in the lite profile: it is single-user, with no sessions or per-agent keys',
    );
  });

  it(verifies('CFG-OAUTH-METADATA-HOSTS', 'reads OAUTH_CLIENT_METADATA_ALLOWED_HOSTS as host names, none by default'), () => {
    expect(load({}).config.auth.oauthClientMetadataAllowedHosts).toEqual([]);
    expect(
      load({ OAUTH_CLIENT_METADATA_ALLOWED_HOSTS: ' LocalHost, metadata.test ,[::1]' }).config.auth.oauthClientMetadataAllowedHosts,
    ).toEqual(['localhost', 'metadata.test', '[::1]']);
    for (const entry of ['http://localhost', 'localhost:8080', 'host/path']) {
      expect(issuesOf({ OAUTH_CLIENT_METADATA_ALLOWED_HOSTS: entry })).toEqual([
        { variable: 'OAUTH_CLIENT_METADATA_ALLOWED_HOSTS', message: expect.stringContaining('is not a host name') },
      ]);
    }
  });

  it(verifies('CFG-DEV-AUTH-PROD', 'refuses the dashboard dev-auth relaxation in production'), () => {
    expect(issuesOf({ NODE_ENV: 'production', MEMSVC_DASHBOARD_DEV_AUTH: 'true' })[0]?.variable).toBe('MEMSVC_DASHBOARD_DEV_AUTH');
    expect(load({ MEMSVC_DASHBOARD_DEV_AUTH: 'true' }).config.auth.dashboard.devAuth).toBe(true);
  });

  it('warns when the dashboard dev-auth relaxation listens beyond this machine', () => {
    const exposed = (host?: string) =>
      load({ MEMSVC_DASHBOARD_DEV_AUTH: 'true', ...(host === undefined ? {} : { HOST: host }) }).warnings.filter((w) =>
        w.startsWith('MEMSVC_DASHBOARD_DEV_AUTH'),
      );
    expect(exposed()).toEqual([expect.stringContaining('HOST 0.0.0.0 is not loopback')]);
    expect(exposed('192.168.1.4')).toHaveLength(1);
    expect(exposed('::')).toHaveLength(1);
    for (const loopback of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) expect(exposed(loopback)).toEqual([]);
    expect(load({ HOST: '0.0.0.0' }).warnings).toEqual([]);
  });

  it(verifies('TENANT-ID', 'checks MEMSVC_DEFAULT_USER_ID and MEMSVC_OPERATOR_TENANTS as tenant ids'), () => {
    expect(load({ MEMSVC_DEFAULT_USER_ID: 'agent-7@example.com' }).config.auth.defaultUserId).toBe('agent-7@example.com');
    expect(issuesOf({ MEMSVC_DEFAULT_USER_ID: 'has space', MEMSVC_OPERATOR_TENANTS: 'ok,-bad' }).map((i) => i.variable)).toEqual([
      'MEMSVC_OPERATOR_TENANTS',
      'MEMSVC_DEFAULT_USER_ID',
    ]);
  });

  it(verifies('R-LITE-USER-DEFAULT', 'acts as "me" on lite without MEMSVC_DEFAULT_USER_ID, and as no one on standard'), () => {
    expect(LITE_DEFAULT_USER_ID).toBe('me');
    expect(isValidTenantId(LITE_DEFAULT_USER_ID)).toBe(true);
    expect(load({ DEPLOYMENT_PROFILE: 'lite' }).config.auth.defaultUserId).toBe('me');
    expect(load({ DEPLOYMENT_PROFILE: 'lite', MEMSVC_DEFAULT_USER_ID: 'alice' }).config.auth.defaultUserId).toBe('alice');
    // A blank value is unset, so lite falls back to its default rather than to an empty tenant.
    expect(load({ DEPLOYMENT_PROFILE: 'lite', MEMSVC_DEFAULT_USER_ID: '  ' }).config.auth.defaultUserId).toBe('me');
    expect(load({}).config.auth.defaultUserId).toBeUndefined();
    expect(load({ DEPLOYMENT_PROFILE: 'standard', AUTH_REQUIRED: 'false' }).config.auth.defaultUserId).toBeUndefined();
    expect(load({ DEPLOYMENT_PROFILE: 'standard', MEMSVC_DEFAULT_USER_ID: 'alice' }).config.auth.defaultUserId).toBe('alice');
  });

  it(verifies('CFG-HTTP-GATE', 'refuses a standard streamable-http server without auth unless explicitly allowed'), () => {
    const http = { MCP_TRANSPORT: 'streamable-http' };
    expect(() => assertServerMayBoot(load(http).config)).toThrow(/will not serve MCP over streamable-http without authentication/);
    expect(() => assertServerMayBoot(load({ ...http, DEPLOYMENT_PROFILE: 'enterprise' }).config)).toThrow(ConfigError);
    expect(() => assertServerMayBoot(load({ ...http, AUTH_REQUIRED: 'true', JWT_SECRET: 's'.repeat(40) }).config)).not.toThrow();
    expect(() => assertServerMayBoot(load({ ...http, ALLOW_UNAUTHENTICATED_HTTP: 'true' }).config)).not.toThrow();
    expect(() => assertServerMayBoot(load({ ...http, DEPLOYMENT_PROFILE: 'lite' }).config)).not.toThrow();
    expect(() => assertServerMayBoot(load({}).config)).not.toThrow();
    const liteAuth = { ...http, DEPLOYMENT_PROFILE: 'lite', AUTH_REQUIRED: 'true', JWT_SECRET: 's'.repeat(40) };
    const liteIssues = (env: Record<string, string>) => {
      try {
        assertServerMayBoot(load(env).config);
        return [];
      } catch (error) {
        return (error as ConfigError).issues.map((issue) => issue.variable);
      }
    };
    // Lite accepts one credential, the pre-shared key acting as the default user (lite always has one): without it, nothing could be called.
    expect(liteIssues(liteAuth)).toEqual(['MEMSVC_API_KEY']);
    expect(liteIssues({ ...liteAuth, MEMSVC_API_KEY: 'k'.repeat(24) })).toEqual([]);
    expect(liteIssues({ ...liteAuth, MEMSVC_API_KEY: 'k'.repeat(24), MEMSVC_DEFAULT_USER_ID: 'alice' })).toEqual([]);
    expect(liteIssues({ ...liteAuth, MCP_TRANSPORT: 'stdio' })).toEqual([]);
    for (const env of ['development', 'production', 'test']) {
      expect(() => assertServerMayBoot(load({ ...http, NODE_ENV: env }).config)).toThrow(ConfigError);
    }
  });
});

describe('memory lifecycle settings', () => {
  it(verifies('CFG-MERGE-BELOW-DUP', 'requires the merge threshold strictly below the duplicate threshold'), () => {
    expect(issuesOf({ MEMORY_CONSOLIDATION_MERGE_THRESHOLD: '0.97' })).toEqual([
      {
        variable: 'MEMORY_CONSOLIDATION_MERGE_THRESHOLD',
        message: 'must be strictly below MEMORY_DUPLICATE_THRESHOLD (0.97 is not below 0.97)',
      },
    ]);
    expect(issuesOf({ MEMORY_DUPLICATE_THRESHOLD: '0.8' })[0]?.variable).toBe('MEMORY_CONSOLIDATION_MERGE_THRESHOLD');
    expect(load({ MEMORY_CONSOLIDATION_MERGE_THRESHOLD: '0.96999' }).config.similarity.mergeThreshold).toBe(0.96999);
  });

  it(verifies('CFG-CONTRADICTION-BAND', 'rejects an empty contradiction band'), () => {
    expect(issuesOf({ MEMORY_CONTRADICTION_THRESHOLD: '0.9', MEMORY_CONTRADICTION_THRESHOLD_MAX: '0.9' })[0]?.variable).toBe(
      'MEMORY_CONTRADICTION_THRESHOLD',
    );
  });

  it(verifies('CFG-IMPORT-ROOT', 'defaults the import root to the home directory and requires an absolute path'), () => {
    expect(load({ IMPORT_ALLOWED_ROOT: '/srv/imports' }).config.import.allowedRoot).toBe('/srv/imports');
    expect(issuesOf({ IMPORT_ALLOWED_ROOT: 'imports' })[0]?.variable).toBe('IMPORT_ALLOWED_ROOT');
  });

  it('keeps embedded-database templates in MEMSVC_CACHE_DIR, else the XDG cache directory, and `off` turns them off', () => {
    const templates = (env: Record<string, string | undefined>) => load(env).config.database.embeddedTemplates;
    expect(templates({})).toEqual({ directory: '/home/agent/.cache/memsvc' });
    expect(templates({ XDG_CACHE_HOME: '/var/cache/agent/' })).toEqual({ directory: '/var/cache/agent/memsvc' });
    // A relative XDG_CACHE_HOME is to be ignored (XDG base directory rules).
    expect(templates({ XDG_CACHE_HOME: 'cache' })).toEqual({ directory: '/home/agent/.cache/memsvc' });
    expect(templates({ MEMSVC_CACHE_DIR: '/srv/memsvc-cache', XDG_CACHE_HOME: '/var/cache' })).toEqual({ directory: '/srv/memsvc-cache' });
    expect(templates({ MEMSVC_CACHE_DIR: 'off' })).toBeUndefined();
    // Empty is unset (a shell's `MEMSVC_CACHE_DIR=`).
    expect(templates({ MEMSVC_CACHE_DIR: '' })).toEqual({ directory: '/home/agent/.cache/memsvc' });
    expect(issuesOf({ MEMSVC_CACHE_DIR: 'cache' })).toEqual([
      { variable: 'MEMSVC_CACHE_DIR', message: 'must be an absolute directory path or "off" (got "cache")' },
    ]);
  });
});

describe('rate limits', () => {
  it(verifies('CFG-RATE-OVERRIDES', 'parses tool overrides and rejects malformed JSON or shapes'), () => {
    expect(load({ RATE_LIMIT_TOOL_OVERRIDES: '{"recall":{"limit":30,"windowSeconds":10}}' }).config.rateLimit.toolOverrides).toEqual({
      recall: { limit: 30, windowSeconds: 10 },
    });
    expect(issuesOf({ RATE_LIMIT_TOOL_OVERRIDES: '{recall: 30}' })[0]?.message).toMatch(/^must be valid JSON/);
    expect(issuesOf({ RATE_LIMIT_TOOL_OVERRIDES: '[1,2]' })[0]?.message).toMatch(/must be a JSON object/);
    expect(issuesOf({ RATE_LIMIT_TOOL_OVERRIDES: '{"recall":{"limit":0,"windowSeconds":10}}' })[0]?.message).toMatch(/entry "recall"/);
    expect(issuesOf({ RATE_LIMIT_TOOL_OVERRIDES: '{"recall":{"limit":5,"windowSeconds":-1}}' })[0]?.message).toMatch(/entry "recall"/);
    expect(issuesOf({ RATE_LIMIT_TOOL_OVERRIDES: '{"recal":{"limit":5,"windowSeconds":10}}' })).toEqual([
      { variable: 'RATE_LIMIT_TOOL_OVERRIDES', message: expect.stringContaining('names "recal", which is not a memsvc tool') },
    ]);
    expect(issuesOf({ RATE_LIMIT_WINDOW_SEC: '-60' })[0]?.variable).toBe('RATE_LIMIT_WINDOW_SEC');
  });

  it(
    verifies('R-EDGE-IPV6-CONFIG', 'RATE_LIMIT_IPV6_PREFIX defaults to 64, takes 1 to 128, and refuses anything else naming the variable'),
    () => {
      expect(load({}).config.rateLimit.ipv6Prefix).toBe(64);
      expect(load({ RATE_LIMIT_IPV6_PREFIX: '56' }).config.rateLimit.ipv6Prefix).toBe(56);
      expect(load({ RATE_LIMIT_IPV6_PREFIX: '128' }).config.rateLimit.ipv6Prefix).toBe(128);
      for (const bad of ['0', '129', '64.5', '-1', 'sixty-four', '/64']) {
        expect(issuesOf({ RATE_LIMIT_IPV6_PREFIX: bad })).toEqual([{ variable: 'RATE_LIMIT_IPV6_PREFIX', message: expect.any(String) }]);
      }
    },
  );

  it(verifies('CFG-ALLOWED-HOSTS', 'reads allowed hosts as names with optional ports, naming a bad entry'), () => {
    expect(load({}).config.http.allowedHosts).toEqual([]);
    expect(
      load({ MEMSVC_ALLOWED_HOSTS: 'memory.example.com, internal.example:8443, 10.0.0.7, [fd00::7]:3000, *' }).config.http.allowedHosts,
    ).toEqual(['memory.example.com', 'internal.example:8443', '10.0.0.7', '[fd00::7]:3000', '*']);
    for (const bad of ['https://memory.example.com', 'memory.example.com/mcp', 'user@memory.example.com', 'memory example', 'host:99999']) {
      expect(issuesOf({ MEMSVC_ALLOWED_HOSTS: bad })[0], bad).toMatchObject({
        variable: 'MEMSVC_ALLOWED_HOSTS',
        message: expect.stringContaining('is not a host name'),
      });
    }
  });

  it(verifies('CFG-TRUSTED-PROXIES', 'reads trusted proxies as addresses or CIDR ranges, naming a bad entry'), () => {
    expect(load({ MEMSVC_TRUSTED_PROXIES: '127.0.0.1, 10.0.0.0/8, ::1, fd00::/8, ::ffff:192.0.2.1' }).config.http.trustedProxies).toEqual([
      '127.0.0.1',
      '10.0.0.0/8',
      '::1',
      'fd00::/8',
      '::ffff:192.0.2.1',
    ]);
    for (const bad of ['10.0.0.256', '10.0.0.0/33', 'proxy.internal', '1:2:3', '::1/129']) {
      expect(issuesOf({ MEMSVC_TRUSTED_PROXIES: bad })[0], bad).toMatchObject({
        variable: 'MEMSVC_TRUSTED_PROXIES',
        message: expect.stringContaining(`"${bad}" is not an IP address or CIDR range`),
      });
    }
  });

  it(verifies('CFG-RATE-LITE', 'ignores RATE_LIMIT_ENABLED in the lite profile, with a warning'), () => {
    expect(load({ RATE_LIMIT_ENABLED: 'true' }).config.rateLimit.enabled).toBe(true);
    const lite = load({ RATE_LIMIT_ENABLED: 'true', DEPLOYMENT_PROFILE: 'lite' });
    expect(lite.config.rateLimit.enabled).toBe(false);
    expect(lite.warnings).toEqual([expect.stringMatching(/ignored in the lite profile/)]);
  });
});

describe('safety of the loaded object', () => {
  const secretValues = {
    DATABASE_URL: 'postgres://memsvc:db-pass-1@localhost/memsvc',
    OPENAI_API_KEY: 'sk-live-abc',
    JWT_SECRET: 'jwt-secret-0123456789-0123456789-xyz',
    MCP_ADMIN_TOKEN: 'admin-token-xyz',
    METRICS_TOKEN: 'metrics-token-xyz',
    MEMSVC_API_KEY: 'api-key-xyz',
    GITHUB_CLIENT_ID: 'gh',
    GITHUB_CLIENT_SECRET: 'gh-secret-xyz',
    OAUTH_REDIRECT_BASE_URL: 'https://memsvc.example.com',
    WEB_DATABASE_URL: 'postgres://web:web-pass-2@localhost/web',
  };

  it(verifies('CFG-SECRETS', 'never prints a secret, as a string, as JSON or through util.inspect'), () => {
    const { config } = load(secretValues);
    const printed = [JSON.stringify(config), inspect(config, { depth: 10 }), String(config.auth.jwtSecret), `${config.metrics.token}`];
    for (const text of printed) {
      for (const [name, value] of Object.entries(secretValues)) {
        if (name === 'GITHUB_CLIENT_ID' || name === 'OAUTH_REDIRECT_BASE_URL') continue;
        expect(text, `${name} leaked`).not.toContain(name.endsWith('URL') ? value.split('@')[0]?.split(':')[2] : value);
      }
    }
    expect(config.auth.adminToken).toBeInstanceOf(Secret);
    expect(config.auth.adminToken?.reveal()).toBe('admin-token-xyz');
  });

  it(verifies('CFG-SECRETS', 'warns about an MCP_ADMIN_TOKEN short enough to guess, without printing it'), () => {
    const { warnings } = load({ MCP_ADMIN_TOKEN: 'admin-s3cret' });
    expect(warnings).toEqual([expect.stringMatching(/^MCP_ADMIN_TOKEN is 12 characters: a token this short can be guessed/)]);
    expect(warnings.join('\n')).not.toContain('admin-s3cret');
    expect(load({ MCP_ADMIN_TOKEN: 'x'.repeat(16) }).warnings).toEqual([]);
  });

  it(verifies('CFG-FROZEN', 'is deeply frozen'), () => {
    const { config } = load({ CORS_ALLOWED_ORIGINS: 'https://a.example' });
    expect(Object.isFrozen(config)).toBe(true);
    expect(Object.isFrozen(config.http)).toBe(true);
    expect(Object.isFrozen(config.http.corsAllowedOrigins)).toBe(true);
    expect(() => {
      (config as { profile: string }).profile = 'lite';
    }).toThrow(TypeError);
  });

  it(verifies('CFG-UNKNOWN-VAR', 'warns about unknown MEMSVC_* variables'), () => {
    expect(load({ MEMSVC_DEFAULT_USERID: 'x', PATH: '/usr/bin' }).warnings).toEqual([
      'unknown variables ignored (check for typos): MEMSVC_DEFAULT_USERID',
    ]);
    // The test runner's own variables live outside the MEMSVC_ namespace: memsvc knows nothing of them.
    expect(load({ TEST_MEMSVC_WORKERS: '1', TEST_MEMSVC_ENGINES: 'postgres' }).warnings).toEqual([]);
  });

  it(verifies('CFG-TYPES', 'parses list and key=value variables'), () => {
    const { config } = load({
      CORS_ALLOWED_ORIGINS: 'https://a.example, http://localhost:5173',
      MEMSVC_ADMIN_EMAILS: 'Ops@Example.com',
      OTEL_RESOURCE_ATTRIBUTES: 'deployment.environment=prod,team=memory%20core',
    });
    expect(config.http.corsAllowedOrigins).toEqual(['https://a.example', 'http://localhost:5173']);
    expect(config.auth.adminEmails).toEqual(['ops@example.com']);
    expect(config.telemetry.resourceAttributes).toEqual({ 'deployment.environment': 'prod', team: 'memory core' });
    expect(issuesOf({ CORS_ALLOWED_ORIGINS: 'https://a.example/path' })[0]?.variable).toBe('CORS_ALLOWED_ORIGINS');
    expect(issuesOf({ OTEL_RESOURCE_ATTRIBUTES: 'novalue' })[0]?.variable).toBe('OTEL_RESOURCE_ATTRIBUTES');
  });
});

// Type-level check: the config type is what the loader returns.
const _typed: (env: Record<string, string>) => MemsvcConfig = (env) => loadConfig(env, context).config;
void _typed;

describe('MCP_TOOL_SETS', () => {
  it(
    verifies('CFG-TOOL-SETS', 'defaults to the agent and admin sets, takes a list or all, and names the sets when a word is unknown'),
    () => {
      expect(load({}).config.mcp.toolSets).toEqual(['agent', 'admin']);
      expect(load({ MCP_TOOL_SETS: '  ' }).config.mcp.toolSets).toEqual(['agent', 'admin']);
      expect(load({ MCP_TOOL_SETS: 'export, agent' }).config.mcp.toolSets).toEqual(['agent', 'export']);
      expect(load({ MCP_TOOL_SETS: 'all' }).config.mcp.toolSets).toEqual(['agent', 'memories', 'export', 'admin', 'connectors', 'sharing']);
      expect(issuesOf({ MCP_TOOL_SETS: 'agent,crud' })).toEqual([
        {
          variable: 'MCP_TOOL_SETS',
          message: 'names "crud", which is not a tool set; the sets are agent, memories, export, admin, connectors, sharing (or all)',
        },
      ]);
    },
  );
});
