import { parseDatabaseUrl, redactDatabaseUrl, Secret } from '@memsvc/access';
import { DEFAULT_EMBEDDING_MODEL } from '@memsvc/core';
import { ConfigError, type ConfigIssue } from './config-error.js';
import type { LogLevel, MemsvcConfig, NodeEnv, OAuthClient } from './config-types.js';
import { checkCrossVariableRules, checkLoginRules } from './cross-variable-rules.js';
import { defaultUserIdFor } from './default-user.js';
import { ENV_VARIABLES, envSchema, type ParsedEnv } from './env-schema.js';
import { resolveProfile } from './profile.js';
import { readDatabaseSettings } from './read-database.js';
import { ALL_TOOL_SETS, CALLABLE_BY_DEFAULT, DEFAULT_TOOL_SETS, TOOL_SET_NAMES, type ToolSetName } from './tool-sets.js';

/** The process facts that defaults depend on; passed in so that core never touches `process`. */
export interface ConfigContext {
  /** Home directory of the server process: the default `IMPORT_ALLOWED_ROOT`. */
  readonly homeDir: string;
}

export interface LoadedConfig {
  readonly config: MemsvcConfig;
  /** Things worth one log line at boot that do not stop it (deprecated alias, half-set OAuth pair, …). */
  readonly warnings: readonly string[];
}

const DEFAULT_LOG_LEVEL: Readonly<Record<NodeEnv, LogLevel>> = {
  development: 'debug',
  production: 'info',
  test: 'warn',
};

/**
 * Reads memsvc's configuration from an environment object: every variable of spec §2.5 parsed
 * and defaulted, every boot-time rule of spec §7 checked, all problems reported together in one
 * ConfigError. The result is deeply frozen.
 */
export function loadConfig(env: Readonly<Record<string, string | undefined>>, context: ConfigContext): LoadedConfig {
  const issues: ConfigIssue[] = [];
  const warnings: string[] = [];
  const parsed = parseEachVariable(env, issues);

  const profileResolution = resolveProfile(env.DEPLOYMENT_PROFILE);
  if (!profileResolution.ok) issues.push({ variable: 'DEPLOYMENT_PROFILE', message: profileResolution.message });
  else if (profileResolution.deprecatedAlias) {
    warnings.push('DEPLOYMENT_PROFILE=enterprise is deprecated: it is an alias of "standard"; set DEPLOYMENT_PROFILE=standard');
  }
  const profile = profileResolution.ok ? profileResolution.profile : 'standard';
  const profileLabel = profileResolution.ok ? profile : String(env.DEPLOYMENT_PROFILE);

  const database = readDatabase(parsed.DATABASE_URL, profileLabel, issues);
  const readDatabaseConfig = readDatabaseSettings(parsed.DATABASE_READ_URL, parsed.DATABASE_READ_MAX_LAG_MS, database?.target, issues);
  checkCrossVariableRules(parsed, issues, warnings);
  if (profile === 'standard') checkLoginRules(parsed, issues);
  warnAboutUnknownVariables(env, warnings);

  if (issues.length > 0) throw new ConfigError(issues, profileLabel);

  const embeddingModel = parsed.EMBEDDING_MODEL ?? DEFAULT_EMBEDDING_MODEL[parsed.EMBEDDING_PROVIDER];
  if (parsed.EMBEDDING_PROVIDER === 'openai' && parsed.OPENAI_API_KEY === undefined) {
    warnings.push(
      'EMBEDDING_PROVIDER=openai without OPENAI_API_KEY: embedding generation is disabled; memories are stored without vectors',
    );
  }
  const rateLimitEnabled = parsed.RATE_LIMIT_ENABLED && profile === 'standard';
  if (parsed.RATE_LIMIT_ENABLED && profile === 'lite') {
    warnings.push('RATE_LIMIT_ENABLED is ignored in the lite profile: the rate limiter belongs to the standard profile');
  }
  if (profile === 'lite' && (parsed.GITHUB_CLIENT_ID !== undefined || parsed.GOOGLE_CLIENT_ID !== undefined)) {
    warnings.push('GitHub and Google login are ignored in the lite profile: it is single-user, with no sessions or per-agent keys');
  }

  // An embedded database has one process, the server: no worker could run its jobs.
  const serverJobs = parsed.MEMSVC_SERVER_JOBS ?? (profile === 'lite' || database?.target.engine === 'pglite');

  const config: MemsvcConfig = {
    nodeEnv: parsed.NODE_ENV,
    logLevel: parsed.LOG_LEVEL ?? DEFAULT_LOG_LEVEL[parsed.NODE_ENV],
    profile,
    serverJobs,
    shutdownTimeoutMs: parsed.MEMSVC_SHUTDOWN_TIMEOUT_MS,
    http: {
      port: parsed.PORT,
      host: parsed.HOST,
      corsAllowedOrigins: parsed.CORS_ALLOWED_ORIGINS,
      trustedProxies: parsed.MEMSVC_TRUSTED_PROXIES,
      allowedHosts: parsed.MEMSVC_ALLOWED_HOSTS,
      serveDashboard: parsed.MEMSVC_SERVE_DASHBOARD,
    },
    mcp: {
      transport: parsed.MCP_TRANSPORT,
      publicUrl: parsed.MEMSVC_MCP_URL,
      toolSets: toolSetsOf(parsed.MCP_TOOL_SETS),
      callableToolSets: parsed.MCP_TOOL_SETS.length === 0 ? CALLABLE_BY_DEFAULT : toolSetsOf(parsed.MCP_TOOL_SETS),
    },
    database: {
      ...(database as NonNullable<typeof database>),
      webUrl: parsed.WEB_DATABASE_URL,
      read: readDatabaseConfig,
      embeddedTemplates: embeddedTemplatesDirectory(parsed.MEMSVC_CACHE_DIR, env.XDG_CACHE_HOME, context.homeDir),
    },
    embedding: {
      provider: parsed.EMBEDDING_PROVIDER,
      model: embeddingModel,
      ollamaUrl: parsed.OLLAMA_URL,
      openaiApiKey: parsed.OPENAI_API_KEY,
      dimensions: parsed.VECTOR_DIMENSIONS,
    },
    vectorIndex: {
      hnswM: parsed.PGVECTOR_HNSW_M,
      hnswEfConstruction: parsed.PGVECTOR_HNSW_EF_CONSTRUCTION,
      hnswEfSearch: parsed.PGVECTOR_HNSW_EF_SEARCH,
    },
    shortTerm: {
      consolidationAccessThreshold: parsed.STM_CONSOLIDATION_ACCESS_THRESHOLD,
      consolidationImportanceThreshold: parsed.STM_CONSOLIDATION_IMPORTANCE_THRESHOLD,
      consolidationIntervalMs: parsed.STM_CONSOLIDATION_INTERVAL_MS,
      sweepIntervalMs: parsed.STM_SWEEP_INTERVAL_MS,
    },
    decay: {
      intervalMs: parsed.MEMORY_DECAY_INTERVAL_MS,
      batchSize: parsed.MEMORY_DECAY_BATCH_SIZE,
      staleScoreThreshold: parsed.MEMORY_DECAY_STALE_SCORE_THRESHOLD,
      pruneScoreThreshold: parsed.MEMORY_DECAY_PRUNE_SCORE_THRESHOLD,
      pruneOlderThanDays: parsed.MEMORY_DECAY_PRUNE_OLDER_THAN_DAYS,
    },
    importance: { halfLifeDays: parsed.MEMORY_IMPORTANCE_HALF_LIFE_DAYS },
    similarity: {
      duplicateThreshold: parsed.MEMORY_DUPLICATE_THRESHOLD,
      mergeThreshold: parsed.MEMORY_CONSOLIDATION_MERGE_THRESHOLD,
      contradictionThreshold: parsed.MEMORY_CONTRADICTION_THRESHOLD,
      contradictionThresholdMax: parsed.MEMORY_CONTRADICTION_THRESHOLD_MAX,
      contradictionPolicy: parsed.MEMORY_CONTRADICTION_POLICY,
    },
    corpusConsolidation: { intervalMs: parsed.MEMORY_CONSOLIDATION_INTERVAL_MS },
    authStore: { sweepIntervalMs: parsed.AUTH_STORE_SWEEP_INTERVAL_MS },
    import: { allowedRoot: parsed.IMPORT_ALLOWED_ROOT ?? context.homeDir },
    auth: {
      required: parsed.AUTH_REQUIRED,
      allowUnauthenticatedHttp: parsed.ALLOW_UNAUTHENTICATED_HTTP,
      jwtSecret: parsed.JWT_SECRET,
      jwtExpiresInSeconds: parsed.JWT_EXPIRES_IN,
      oauthRedirectBaseUrl: parsed.OAUTH_REDIRECT_BASE_URL,
      oauthClientMetadataAllowedHosts: parsed.OAUTH_CLIENT_METADATA_ALLOWED_HOSTS.map((host) => host.toLowerCase()),
      github: oauthPair('GitHub login', 'GITHUB_CLIENT_ID', parsed.GITHUB_CLIENT_ID, parsed.GITHUB_CLIENT_SECRET, warnings),
      google: oauthPair('Google login', 'GOOGLE_CLIENT_ID', parsed.GOOGLE_CLIENT_ID, parsed.GOOGLE_CLIENT_SECRET, warnings),
      dashboard: {
        github: oauthPair('dashboard GitHub login', 'AUTH_GITHUB_ID', parsed.AUTH_GITHUB_ID, parsed.AUTH_GITHUB_SECRET, warnings),
        google: oauthPair('dashboard Google login', 'AUTH_GOOGLE_ID', parsed.AUTH_GOOGLE_ID, parsed.AUTH_GOOGLE_SECRET, warnings),
        devAuth: parsed.MEMSVC_DASHBOARD_DEV_AUTH,
      },
      adminEmails: parsed.MEMSVC_ADMIN_EMAILS.map((email) => email.toLowerCase()),
      adminToken: parsed.MCP_ADMIN_TOKEN,
      apiKey: parsed.MEMSVC_API_KEY,
      defaultUserId: defaultUserIdFor(profile, parsed.MEMSVC_DEFAULT_USER_ID),
      operatorTenants: parsed.MEMSVC_OPERATOR_TENANTS,
    },
    rateLimit: {
      enabled: rateLimitEnabled,
      windowSeconds: parsed.RATE_LIMIT_WINDOW_SEC,
      userPerWindow: parsed.RATE_LIMIT_USER_RPM,
      orgPerWindow: parsed.RATE_LIMIT_ORG_RPM,
      ipPerWindow: parsed.RATE_LIMIT_IP_RPM,
      ipv6Prefix: parsed.RATE_LIMIT_IPV6_PREFIX,
      toolOverrides: parsed.RATE_LIMIT_TOOL_OVERRIDES ?? {},
    },
    metrics: { token: parsed.METRICS_TOKEN },
    telemetry: {
      otlpEndpoint: parsed.OTEL_EXPORTER_OTLP_ENDPOINT,
      serviceName: parsed.OTEL_SERVICE_NAME,
      resourceAttributes: parsed.OTEL_RESOURCE_ATTRIBUTES,
    },
  };
  return { config: deepFreeze(config), warnings: Object.freeze(warnings) };
}

function parseEachVariable(env: Readonly<Record<string, string | undefined>>, issues: ConfigIssue[]): ParsedEnv {
  const parsed: Record<string, unknown> = {};
  for (const variable of ENV_VARIABLES) {
    const result = envSchema[variable].safeParse(env[variable]);
    if (result.success) parsed[variable] = result.data;
    else for (const issue of result.error.issues) issues.push({ variable, message: issue.message });
  }
  return parsed as ParsedEnv;
}

function readDatabase(raw: string | undefined, profile: string, issues: ConfigIssue[]) {
  if (raw === undefined) {
    issues.push({
      variable: 'DATABASE_URL',
      message:
        `is required in every profile (active profile: ${profile}). Use postgres://user:password@host:5432/db ` +
        'for PostgreSQL with pgvector, or pglite://~/.memsvc for the embedded database (the directory every snippet of the docs uses)',
    });
    return undefined;
  }
  const result = parseDatabaseUrl(raw);
  if (!result.ok) {
    issues.push({ variable: 'DATABASE_URL', message: `${result.reason} (active profile: ${profile})` });
    return undefined;
  }
  return { url: new Secret(raw), target: result.target, displayUrl: redactDatabaseUrl(raw) };
}

/** MCP_TOOL_SETS as chosen (already checked word by word): unset means the default, `all` every set. */
function toolSetsOf(words: readonly string[]): readonly ToolSetName[] {
  if (words.length === 0) return DEFAULT_TOOL_SETS;
  if (words.includes(ALL_TOOL_SETS)) return TOOL_SET_NAMES;
  return TOOL_SET_NAMES.filter((set) => words.includes(set));
}

function oauthPair(
  label: string,
  idVariable: string,
  clientId: string | undefined,
  clientSecret: Secret | undefined,
  warnings: string[],
): OAuthClient | undefined {
  if (clientId !== undefined && clientSecret !== undefined) return { clientId, clientSecret };
  if (clientId !== undefined || clientSecret !== undefined) {
    const secretVariable = idVariable.replace(/_(CLIENT_)?ID$/, (_match, client) => `_${client ?? ''}SECRET`);
    warnings.push(`${label} stays disabled: ${idVariable} and ${secretVariable} must both be set`);
  }
  return undefined;
}

/**
 * MEMSVC_CACHE_DIR, else the XDG base directory rule: `$XDG_CACHE_HOME/memsvc` when that is an
 * absolute path (a relative one is to be ignored), else `~/.cache/memsvc`.
 */
function embeddedTemplatesDirectory(
  configured: string | undefined,
  xdgCacheHome: string | undefined,
  homeDir: string,
): { directory: string } | undefined {
  if (configured === 'off') return undefined;
  if (configured !== undefined) return { directory: configured };
  const cacheHome = xdgCacheHome?.startsWith('/') ? xdgCacheHome : `${homeDir.replace(/\/+$/, '')}/.cache`;
  return { directory: `${cacheHome.replace(/\/+$/, '')}/memsvc` };
}

function warnAboutUnknownVariables(env: Readonly<Record<string, string | undefined>>, warnings: string[]): void {
  const known = new Set<string>(ENV_VARIABLES);
  const unknown = Object.keys(env).filter((name) => name.startsWith('MEMSVC_') && !known.has(name));
  if (unknown.length > 0) warnings.push(`unknown variables ignored (check for typos): ${unknown.sort().join(', ')}`);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value) && !(value instanceof Secret)) {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
