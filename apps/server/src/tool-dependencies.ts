import type { AdminAuthEvent, DelegationEvent, ToolDependencies, ToolPipeline } from '@memsvc/mcp-tools';
import { auditLog, type MemsvcRuntime, readImportFile, readImportFolder } from '@memsvc/runtime';
import { isTransientDatabaseError } from '@memsvc/store-pg';
import { rateLimitHook } from './rate-limit-hook.js';
import { toolMetrics } from './tool-metrics.js';

/**
 * What the server's MCP tools run on: the runtime's engine and maintenance, and the pipeline
 * every call goes through — the tenant fallback, the admin token with its log line, the
 * operator tenants with theirs, internal errors logged (a database that went away reported as
 * STORAGE_UNAVAILABLE), a span per call, and the hooks: metrics
 * (which see every call, refused ones included), then the rate limiter when it is on.
 */
export function mcpToolDependencies(runtime: MemsvcRuntime): ToolDependencies {
  const { config, logger } = runtime;
  // Admin decisions and delegations are on record whatever LOG_LEVEL says.
  const audit = auditLog(logger);
  const pipeline: ToolPipeline = {
    defaultUserId: config.auth.defaultUserId,
    adminToken: config.auth.adminToken,
    operatorTenants: config.auth.operatorTenants,
    // An operator acting on another tenant is always on record: in the audit trail and here.
    onDelegation: (event: DelegationEvent) => audit.info(event, event.event),
    // Spec §5.6 / §6: one structured line per admin call; the token itself is never logged.
    onAdminAuth: (event: AdminAuthEvent) =>
      event.event === 'admin_auth_ok' ? audit.info(event, event.event) : audit.warn(event, event.event),
    onInternalError: (error: unknown, tool: string) => logger.error({ err: error, tool }, 'tool failed unexpectedly'),
    isStorageUnavailable: isTransientDatabaseError,
    tracer: runtime.tracer,
    hooks: [
      toolMetrics(runtime.metrics),
      ...(config.rateLimit.enabled
        ? [
            rateLimitHook({
              settings: config.rateLimit,
              store: runtime.store.rateLimits,
              clock: runtime.clock,
              defaultUserId: config.auth.defaultUserId,
              onRefused: (kind) => runtime.metrics.rateLimited.inc({ kind }),
            }),
          ]
        : []),
    ],
  };
  return {
    clock: runtime.clock,
    engine: runtime.engine,
    exports: runtime.store.exports,
    maintenance: runtime.maintenance,
    // Server-side import paths stay inside IMPORT_ALLOWED_ROOT, symlinks resolved (issue 17).
    imports: {
      store: runtime.store.imports,
      ledger: runtime.store.importLedger,
      readFile: (path) => readImportFile(path, config.import.allowedRoot),
      readFolder: (path, source) => readImportFolder(path, source, config.import.allowedRoot),
    },
    pipeline,
    toolSets: config.mcp.toolSets,
    callableToolSets: config.mcp.callableToolSets,
  };
}
