import type { ToolRateLimit } from '@memsvc/access';
import { DEFAULT_IPV6_RATE_LIMIT_PREFIX, isIpOrCidr } from '@memsvc/access';
import { EMBEDDING_PROVIDERS, DEFAULT_ENGINE_SETTINGS as ENGINE_DEFAULTS, HNSW_MAX_DIMENSIONS, isValidTenantId } from '@memsvc/core';
import type { z } from 'zod';
import {
  booleanField,
  directoryOrOffField,
  durationField,
  enumField,
  type FieldParseResult,
  fieldFailure,
  fieldSuccess,
  jsonField,
  keyValueListField,
  listField,
  numberField,
  optionalAbsolutePathField,
  optionalBooleanField,
  optionalEnumField,
  optionalNumberField,
  optionalStringField,
  optionalUrlField,
  secretField,
  stringField,
  urlField,
} from './env-fields.js';
import { TOOL_NAMES } from './tool-names.js';
import { ALL_TOOL_SETS, isToolSetName, TOOL_SET_NAMES } from './tool-sets.js';

const similarity = { min: 0, max: 1 };
const intervalMs = { min: 0, integer: true };
const positiveInteger = { min: 1, integer: true };

function checkToolOverrides(value: unknown): FieldParseResult<Readonly<Record<string, ToolRateLimit>>> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return fieldFailure('must be a JSON object mapping tool names to {"limit": n, "windowSeconds": n}');
  }
  const overrides: Record<string, ToolRateLimit> = {};
  for (const [tool, entry] of Object.entries(value)) {
    if (!(TOOL_NAMES as readonly string[]).includes(tool)) {
      return fieldFailure(`names "${tool}", which is not a memsvc tool (for example "recall", "create_memory", "ingest_conversation")`);
    }
    const { limit, windowSeconds } = (entry ?? {}) as Record<string, unknown>;
    const valid = (n: unknown) => typeof n === 'number' && Number.isInteger(n) && n > 0;
    if (!valid(limit) || !valid(windowSeconds)) {
      return fieldFailure(`entry "${tool}" must be {"limit": positive integer, "windowSeconds": positive integer}`);
    }
    overrides[tool] = { limit: limit as number, windowSeconds: windowSeconds as number };
  }
  return fieldSuccess(overrides);
}

function checkToolSet(word: string): string | undefined {
  if (word === ALL_TOOL_SETS || isToolSetName(word)) return undefined;
  return `names "${word}", which is not a tool set; the sets are ${TOOL_SET_NAMES.join(', ')} (or ${ALL_TOOL_SETS})`;
}

function checkOrigin(origin: string): string | undefined {
  if (origin === '*') return undefined;
  try {
    const url = new URL(origin);
    if (url.origin === origin.replace(/\/$/, '')) return undefined;
  } catch {
    // fall through to the message
  }
  return `"${origin}" is not an origin such as https://app.example.com (or *)`;
}

/** A host name or IP address, no port or scheme: an entry of OAUTH_CLIENT_METADATA_ALLOWED_HOSTS. */
function checkHostName(host: string): string | undefined {
  return /^(\[[0-9a-f:.]+\]|[a-z0-9]([a-z0-9.-]*[a-z0-9])?|[0-9a-f:]+)$/i.test(host)
    ? undefined
    : `"${host}" is not a host name (no scheme, port or path)`;
}

function checkEmail(email: string): string | undefined {
  return /^[^\s@]+@[^\s@]+$/.test(email) ? undefined : `"${email}" is not an email address`;
}

function checkProxy(proxy: string): string | undefined {
  return isIpOrCidr(proxy) ? undefined : `"${proxy}" is not an IP address or CIDR range (such as 10.0.0.0/8)`;
}

/** A MEMSVC_ALLOWED_HOSTS entry: a host name or address, optionally with a port, or `*`. */
function checkAllowedHost(entry: string): string | undefined {
  if (entry === '*') return undefined;
  if (!/[\s/?#@\\]/u.test(entry)) {
    try {
      const url = new URL(`http://${entry}`);
      if (url.host === entry.toLowerCase() || url.hostname === entry.toLowerCase()) return undefined;
    } catch {
      // fall through to the message
    }
  }
  return `"${entry}" is not a host name, optionally with a port (such as memory.example.com or memory.example.com:8443), or *`;
}

function checkTenant(tenant: string): string | undefined {
  return isValidTenantId(tenant) ? undefined : `"${tenant}" is not a valid user id`;
}

/**
 * One schema entry per environment variable of spec §2.5, each with its type, allowed values and
 * default. Cross-variable rules (spec §7) live in `load-config.ts`, which sees all of them.
 */
export const envSchema = {
  NODE_ENV: enumField(['development', 'production', 'test'], 'development'),
  PORT: numberField(3000, { min: 0, max: 65_535, integer: true }),
  HOST: stringField('0.0.0.0'),
  DATABASE_URL: optionalStringField(),
  // Not in the spec: a hot standby for the read tools (docs/scale-out.md); checked against
  // DATABASE_URL in read-database.ts.
  DATABASE_READ_URL: optionalStringField(),
  DATABASE_READ_MAX_LAG_MS: numberField(10_000, { min: 500, max: 3_600_000, integer: true }),
  DEPLOYMENT_PROFILE: optionalStringField(),
  EMBEDDING_PROVIDER: enumField(EMBEDDING_PROVIDERS, 'ollama'),
  EMBEDDING_MODEL: optionalStringField(),
  OLLAMA_URL: urlField('http://localhost:11434', ['http', 'https'], { withoutCredentials: true }),
  OPENAI_API_KEY: secretField(),
  VECTOR_DIMENSIONS: optionalNumberField({ min: 1, max: HNSW_MAX_DIMENSIONS, integer: true }),
  // Bounds are pgvector's own, so a bad value fails at boot rather than at index build.
  PGVECTOR_HNSW_M: optionalNumberField({ min: 2, max: 100, integer: true }),
  PGVECTOR_HNSW_EF_CONSTRUCTION: optionalNumberField({ min: 4, max: 1000, integer: true }),
  PGVECTOR_HNSW_EF_SEARCH: optionalNumberField({ min: 1, max: 1000, integer: true }),
  MCP_TRANSPORT: enumField(['stdio', 'streamable-http'], 'stdio'),
  STM_CONSOLIDATION_ACCESS_THRESHOLD: numberField(3, positiveInteger),
  STM_CONSOLIDATION_IMPORTANCE_THRESHOLD: optionalNumberField(similarity),
  STM_CONSOLIDATION_INTERVAL_MS: numberField(300_000, intervalMs),
  STM_SWEEP_INTERVAL_MS: numberField(600_000, intervalMs),
  AUTH_STORE_SWEEP_INTERVAL_MS: numberField(900_000, intervalMs),
  MEMORY_DECAY_INTERVAL_MS: numberField(86_400_000, intervalMs),
  MEMORY_DECAY_BATCH_SIZE: numberField(100, { min: 1, max: 10_000, integer: true }),
  MEMORY_DECAY_STALE_SCORE_THRESHOLD: numberField(0.3, similarity),
  MEMORY_DECAY_PRUNE_SCORE_THRESHOLD: numberField(0.15, similarity),
  MEMORY_DECAY_PRUNE_OLDER_THAN_DAYS: numberField(30, { min: 0 }),
  MEMORY_DUPLICATE_THRESHOLD: numberField(ENGINE_DEFAULTS.similarity.duplicateThreshold, similarity),
  MEMORY_CONSOLIDATION_MERGE_THRESHOLD: numberField(0.85, similarity),
  MEMORY_CONSOLIDATION_INTERVAL_MS: numberField(0, intervalMs),
  MEMORY_CONTRADICTION_THRESHOLD: numberField(ENGINE_DEFAULTS.similarity.contradictionThreshold, similarity),
  MEMORY_CONTRADICTION_THRESHOLD_MAX: numberField(ENGINE_DEFAULTS.similarity.contradictionThresholdMax, similarity),
  MEMORY_CONTRADICTION_POLICY: enumField(['supersede', 'flag'], ENGINE_DEFAULTS.similarity.contradictionPolicy),
  MEMORY_IMPORTANCE_HALF_LIFE_DAYS: numberField(ENGINE_DEFAULTS.importanceHalfLifeDays, { min: 0.001 }),
  IMPORT_ALLOWED_ROOT: optionalAbsolutePathField(),
  MEMSVC_CACHE_DIR: directoryOrOffField(),
  AUTH_REQUIRED: booleanField(false),
  ALLOW_UNAUTHENTICATED_HTTP: booleanField(false),
  JWT_SECRET: secretField(),
  JWT_EXPIRES_IN: durationField('7d'),
  OAUTH_REDIRECT_BASE_URL: optionalUrlField(),
  OAUTH_CLIENT_METADATA_ALLOWED_HOSTS: listField(checkHostName),
  GITHUB_CLIENT_ID: optionalStringField(),
  GITHUB_CLIENT_SECRET: secretField(),
  GOOGLE_CLIENT_ID: optionalStringField(),
  GOOGLE_CLIENT_SECRET: secretField(),
  AUTH_GITHUB_ID: optionalStringField(),
  AUTH_GITHUB_SECRET: secretField(),
  AUTH_GOOGLE_ID: optionalStringField(),
  AUTH_GOOGLE_SECRET: secretField(),
  RATE_LIMIT_ENABLED: booleanField(false),
  RATE_LIMIT_WINDOW_SEC: numberField(60, positiveInteger),
  RATE_LIMIT_USER_RPM: numberField(120, positiveInteger),
  RATE_LIMIT_ORG_RPM: numberField(6000, positiveInteger),
  RATE_LIMIT_IP_RPM: numberField(60, positiveInteger),
  RATE_LIMIT_IPV6_PREFIX: numberField(DEFAULT_IPV6_RATE_LIMIT_PREFIX, { min: 1, max: 128, integer: true }),
  RATE_LIMIT_TOOL_OVERRIDES: jsonField('a map of tool name to {"limit", "windowSeconds"}', checkToolOverrides),
  MCP_ADMIN_TOKEN: secretField(),
  MCP_TOOL_SETS: listField(checkToolSet),
  METRICS_TOKEN: secretField(),
  CORS_ALLOWED_ORIGINS: listField(checkOrigin),
  MEMSVC_ADMIN_EMAILS: listField(checkEmail),
  MEMSVC_API_KEY: secretField(),
  MEMSVC_DEFAULT_USER_ID: optionalStringField(),
  MEMSVC_MCP_URL: optionalUrlField(),
  MEMSVC_OPERATOR_TENANTS: listField(checkTenant),
  MEMSVC_TRUSTED_PROXIES: listField(checkProxy),
  MEMSVC_ALLOWED_HOSTS: listField(checkAllowedHost),
  MEMSVC_DASHBOARD_DEV_AUTH: booleanField(false),
  MEMSVC_SERVE_DASHBOARD: booleanField(false),
  MEMSVC_SERVER_JOBS: optionalBooleanField(),
  // Within a container's default 30 s grace (Docker, Kubernetes), with room for a slow start of the stop.
  MEMSVC_SHUTDOWN_TIMEOUT_MS: numberField(10_000, { min: 1_000, max: 600_000, integer: true }),
  LOG_LEVEL: optionalEnumField(['debug', 'info', 'warn', 'error']),
  WEB_DATABASE_URL: secretField(),
  OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrlField(),
  OTEL_SERVICE_NAME: stringField('memsvc-mcp-server'),
  OTEL_RESOURCE_ATTRIBUTES: keyValueListField(),
} as const;

export type EnvSchema = typeof envSchema;
export type EnvVariable = keyof EnvSchema;
export type ParsedEnv = { [K in EnvVariable]: z.output<EnvSchema[K]> };

/** The variable names memsvc reads, for typo detection among `MEMSVC_*` variables. */
export const ENV_VARIABLES = Object.keys(envSchema) as readonly EnvVariable[];
