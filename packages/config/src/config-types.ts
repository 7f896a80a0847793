import type { DatabaseTarget, RateLimitSettings, Secret } from '@memsvc/access';
import type { ContradictionPolicy, EmbeddingProviderName } from '@memsvc/core';
import type { ToolSetName } from './tool-sets.js';

export type NodeEnv = 'development' | 'production' | 'test';
export type DeploymentProfile = 'standard' | 'lite';
export type McpTransport = 'stdio' | 'streamable-http';
export type LogLevel = 'debug' | 'info' | 'warn' | 'error';

/**
 * A PostgreSQL hot standby that serves the read tools (DATABASE_READ_URL). Writes, and the reads
 * that prepare or count them, stay on DATABASE_URL.
 */
export interface ReadDatabaseConfig {
  readonly url: Secret;
  /** Always a PostgreSQL target: an embedded database has no standbys. */
  readonly target: DatabaseTarget;
  /** Printable form with any password masked. */
  readonly displayUrl: string;
  /** DATABASE_READ_MAX_LAG_MS: a standby further behind than this serves nothing; the primary answers. */
  readonly maxLagMs: number;
}

/** A login provider that is enabled only when both its id and secret are set (spec §5.5). */
export interface OAuthClient {
  readonly clientId: string;
  readonly clientSecret: Secret;
}

/**
 * The whole runtime configuration of memsvc, read once from the environment at boot, validated
 * and frozen (spec §2.5). Packages receive the parts they need; none of them reads the
 * environment. Every secret is a `Secret`, so printing this object leaks nothing.
 */
export interface MemsvcConfig {
  readonly nodeEnv: NodeEnv;
  readonly logLevel: LogLevel;
  /** The active profile; `enterprise` has already been folded into `standard`. */
  readonly profile: DeploymentProfile;
  /**
   * MEMSVC_SERVER_JOBS: memsvc-server runs the background jobs and the reindex-job runner itself.
   * Default: on with `lite` or an embedded database (one process, which no worker can share); off
   * on `standard` over PostgreSQL, where memsvc-worker runs them (with it on, every server runs
   * them too, each job still once per interval).
   */
  readonly serverJobs: boolean;
  /**
   * MEMSVC_SHUTDOWN_TIMEOUT_MS: the longest a server or worker takes from SIGTERM to exit
   * (default 10 s). Within it no new job starts, requests in flight are answered, and what is
   * still running at the end is abandoned, retryably: its transaction rolls back, its lease expires.
   */
  readonly shutdownTimeoutMs: number;
  readonly http: {
    readonly port: number;
    readonly host: string;
    readonly corsAllowedOrigins: readonly string[];
    /**
     * MEMSVC_TRUSTED_PROXIES: addresses or CIDR ranges of reverse proxies whose
     * `X-Forwarded-For` names the client; from anyone else the socket's address is the client.
     */
    readonly trustedProxies: readonly string[];
    /**
     * MEMSVC_ALLOWED_HOSTS: the names (optionally `name:port`) a server bound beyond loopback
     * answers to, besides loopback names, IP literals and its configured public URLs' hosts; `*` turns
     * the Host check off (RequestOriginPolicy).
     */
    readonly allowedHosts: readonly string[];
    /** MEMSVC_SERVE_DASHBOARD: memsvc-server also serves the dashboard under /dashboard (one process for agents and people; memsvc-dashboard runs it alone). */
    readonly serveDashboard: boolean;
  };
  readonly mcp: {
    readonly transport: McpTransport;
    readonly publicUrl: string | undefined;
    /** MCP_TOOL_SETS: the tool sets the server offers (ping always; admin tools only with MCP_ADMIN_TOKEN). */
    readonly toolSets: readonly ToolSetName[];
    /** The sets whose tools run when called by name: every spec tool when MCP_TOOL_SETS is unset, else the chosen sets (CALLABLE_BY_DEFAULT). */
    readonly callableToolSets: readonly ToolSetName[];
  };
  readonly database: {
    readonly url: Secret;
    readonly target: DatabaseTarget;
    /** Printable form with any password masked. */
    readonly displayUrl: string;
    readonly webUrl: Secret | undefined;
    /** DATABASE_READ_URL and its lag bound; undefined when every read goes to DATABASE_URL. */
    readonly read: ReadDatabaseConfig | undefined;
    /**
     * MEMSVC_CACHE_DIR: where a new embedded (PGlite) database's template is kept; undefined when
     * `off`. Default `$XDG_CACHE_HOME/memsvc`, else `~/.cache/memsvc`.
     */
    readonly embeddedTemplates: { readonly directory: string } | undefined;
  };
  readonly embedding: {
    readonly provider: EmbeddingProviderName;
    /** Undefined only for the `disabled` provider. */
    readonly model: string | undefined;
    readonly ollamaUrl: string;
    readonly openaiApiKey: Secret | undefined;
    /** `VECTOR_DIMENSIONS`: a strict pin; when undefined the model's size or the first vector decides. */
    readonly dimensions: number | undefined;
  };
  readonly vectorIndex: {
    readonly hnswM: number | undefined;
    readonly hnswEfConstruction: number | undefined;
    readonly hnswEfSearch: number | undefined;
  };
  readonly shortTerm: {
    readonly consolidationAccessThreshold: number;
    readonly consolidationImportanceThreshold: number | undefined;
    readonly consolidationIntervalMs: number;
    readonly sweepIntervalMs: number;
  };
  readonly decay: {
    readonly intervalMs: number;
    readonly batchSize: number;
    readonly staleScoreThreshold: number;
    readonly pruneScoreThreshold: number;
    readonly pruneOlderThanDays: number;
  };
  readonly importance: {
    readonly halfLifeDays: number;
  };
  readonly similarity: {
    readonly duplicateThreshold: number;
    readonly mergeThreshold: number;
    readonly contradictionThreshold: number;
    readonly contradictionThresholdMax: number;
    readonly contradictionPolicy: ContradictionPolicy;
  };
  readonly corpusConsolidation: {
    readonly intervalMs: number;
  };
  readonly authStore: {
    readonly sweepIntervalMs: number;
  };
  readonly import: {
    /** Absolute directory every server-side import path must resolve into. */
    readonly allowedRoot: string;
  };
  readonly auth: {
    readonly required: boolean;
    readonly allowUnauthenticatedHttp: boolean;
    readonly jwtSecret: Secret | undefined;
    readonly jwtExpiresInSeconds: number;
    /** The issuer and resource base of the MCP authorization server, and the base of login callbacks. */
    readonly oauthRedirectBaseUrl: string | undefined;
    /** Hosts whose client metadata documents may be fetched from private addresses and over http (tests, development). */
    readonly oauthClientMetadataAllowedHosts: readonly string[];
    readonly github: OAuthClient | undefined;
    readonly google: OAuthClient | undefined;
    readonly dashboard: {
      readonly github: OAuthClient | undefined;
      readonly google: OAuthClient | undefined;
      readonly devAuth: boolean;
    };
    readonly adminEmails: readonly string[];
    readonly adminToken: Secret | undefined;
    readonly apiKey: Secret | undefined;
    /** MEMSVC_DEFAULT_USER_ID; on lite LITE_DEFAULT_USER_ID when unset, on standard undefined when unset. */
    readonly defaultUserId: string | undefined;
    readonly operatorTenants: readonly string[];
  };
  readonly rateLimit: RateLimitSettings;
  readonly metrics: {
    readonly token: Secret | undefined;
  };
  readonly telemetry: {
    /** Unset means tracing is off and not even loaded. */
    readonly otlpEndpoint: string | undefined;
    readonly serviceName: string;
    readonly resourceAttributes: Readonly<Record<string, string>>;
  };
}
