import type { Secret } from '@memsvc/access';
import { type AdminTokenDenial, adminTokenDenial } from '@memsvc/auth';
import {
  type CallContext,
  isMemsvcError,
  type MemoryTier,
  MemsvcError,
  type MemsvcErrorCode,
  NO_TRACING,
  type Tracer,
  type TraceSpan,
  toTenantId,
} from '@memsvc/core';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { visibleResult } from './content-visibility.js';
import {
  auditActorOf,
  type CredentialPrincipal,
  clientAddressOf,
  holdsScope,
  isCredential,
  type Principal,
  principalOf,
} from './principal.js';
import type { ToolName } from './tool-names.js';
import { storageUnavailable, toolError } from './tool-result.js';
import { TOOL_SCOPES } from './tool-scopes.js';

/** A memory tool: it works on one tenant's memories. */
export interface MemoryToolCall {
  readonly kind: 'memory';
  readonly tool: ToolName;
  /** The `op` label of memsvc_memory_operations_total. */
  readonly op: string;
  /**
   * The tenant the arguments name; MEMSVC_DEFAULT_USER_ID when they name none. Only an
   * anonymous caller chooses its tenant this way (spec §5.1); a credential's tenant is its own.
   */
  readonly userId: string | undefined;
}

/** An admin tool: allowed only with the adminToken the server was configured with. */
export interface AdminToolCall {
  readonly kind: 'admin';
  readonly tool: ToolName;
  readonly adminToken: string | undefined;
}

/** A tool that touches no data (`ping`). */
export interface OpenToolCall {
  readonly kind: 'open';
  readonly tool: ToolName;
}

export type ToolCall = MemoryToolCall | AdminToolCall | OpenToolCall;

/** A call as the hooks see it: what was called, by whom, and from where (HTTP only). */
export type ObservedCall = ToolCall & { readonly principal: Principal; readonly clientAddress?: string | undefined };

/** How a call ended. */
export interface ToolOutcome {
  readonly status: 'success' | 'error';
  /** The error code of a failed call. */
  readonly code?: MemsvcErrorCode;
  /** The tier the call worked on, when it worked on one. */
  readonly tier: MemoryTier | 'none';
  readonly seconds: number;
}

/**
 * Code that runs around every tool call: authentication, authorisation, rate limiting, spans
 * and metrics plug in here. `before` may refuse a call by throwing a MemsvcError (FORBIDDEN,
 * RATE_LIMITED, …): the body does not run and the caller gets that typed error. `after` runs
 * for every call, refused ones included, and must not throw.
 */
export interface ToolHooks {
  readonly before?: (call: ObservedCall, context: CallContext | undefined) => void | Promise<void>;
  readonly after?: (call: ObservedCall, outcome: ToolOutcome) => void;
}

/** One admin tool call's authorisation, for the `admin_auth_ok` / `admin_auth_denied` log line (spec §5.6, §6). */
export interface AdminAuthEvent {
  readonly event: 'admin_auth_ok' | 'admin_auth_denied';
  readonly tool: string;
  /** Why a call was denied; never the token itself. */
  readonly reason?: AdminTokenDenial | 'invalid-arguments' | 'tool-not-offered';
}

/** An operator's call on another tenant: who, on whom, with what. */
export interface DelegationEvent {
  readonly event: 'operator_delegation';
  readonly tool: string;
  /** The audit actor of the credential (`agent:<key id>` or `session:<jti>`), never the credential. */
  readonly principal: string;
  /** The credential's own tenant. */
  readonly homeTenant: string;
  /** The tenant the call acts on. */
  readonly tenant: string;
}

/** What every tool call goes through, as the composing app configures it. */
export interface ToolPipeline {
  /** `MEMSVC_DEFAULT_USER_ID`: the tenant when a memory tool's call names none. */
  readonly defaultUserId?: string | undefined;
  /** `MCP_ADMIN_TOKEN`; when unset every admin call is denied. */
  readonly adminToken?: Secret | undefined;
  /**
   * MEMSVC_OPERATOR_TENANTS: the tenants a credential with the `admin` scope may act on by naming
   * them in `userId` (spec §5.5). Empty: no delegation at all.
   */
  readonly operatorTenants?: readonly string[] | undefined;
  /** Called for every delegated call (an admin credential acting on another tenant): the app logs it. */
  readonly onDelegation?: ((event: DelegationEvent) => void) | undefined;
  /** Called once for every admin tool call: the app writes the structured log line. */
  readonly onAdminAuth?: ((event: AdminAuthEvent) => void) | undefined;
  /** Run in order before, and in reverse order after, every call. */
  readonly hooks?: readonly ToolHooks[] | undefined;
  /** An error that is not a MemsvcError: logged by the app, reported to the caller as INTERNAL. */
  readonly onInternalError?: ((error: unknown, tool: string) => void) | undefined;
  /**
   * Whether an error that is not a MemsvcError means the database cannot be reached right now
   * (the store knows its driver's errors): still logged, but the caller gets a retryable
   * STORAGE_UNAVAILABLE it can act on instead of INTERNAL.
   */
  readonly isStorageUnavailable?: ((error: unknown) => boolean) | undefined;
  /** A span per call, `mcp.tool <name>`, around everything else (hooks included); default: none. */
  readonly tracer?: Tracer | undefined;
}

/** What a tool body returns: its result, and the tier it worked on for the metrics. */
export interface ToolBodyResult {
  readonly result: CallToolResult;
  readonly tier?: MemoryTier | undefined;
}

/** The request handling the SDK passes to a tool callback; only its `authInfo` is read. */
export interface ToolRequest {
  readonly authInfo?: AuthInfo | undefined;
}

/**
 * The one way a tool runs. The principal comes from the transport (`authInfo`), never from the
 * arguments. A memory tool's tenant is the credential's (spec §5.2: a `userId` in the input is
 * ignored), or, for an anonymous caller, its `userId` (spec §5.1); the credential must hold the
 * tool's scope (TOOL_SCOPES), and the audit actor is the principal. Admin tools are checked
 * against MCP_ADMIN_TOKEN in constant time first, and every admin call is reported as allowed or
 * denied. Then the `before` hooks (a refused admin call passes them too, so the rate limiter
 * counts it, and is refused after them), the body, and the `after` hooks; every failure becomes
 * a typed tool error, and a refused call changes nothing. A caller without `memories:read` sees
 * only the ids and counts its tool shows such a caller (visibleResult), never memory content.
 */
export function runTool(
  pipeline: ToolPipeline,
  request: ToolRequest,
  call: MemoryToolCall,
  body: (context: CallContext) => Promise<ToolBodyResult>,
): Promise<CallToolResult>;
export function runTool(
  pipeline: ToolPipeline,
  request: ToolRequest,
  call: AdminToolCall | OpenToolCall,
  body: () => Promise<ToolBodyResult>,
): Promise<CallToolResult>;
export function runTool(
  pipeline: ToolPipeline,
  request: ToolRequest,
  call: ToolCall,
  body: (context: CallContext) => Promise<ToolBodyResult>,
): Promise<CallToolResult> {
  const tracer = pipeline.tracer ?? NO_TRACING;
  return tracer.inSpan(`mcp.tool ${call.tool}`, { 'mcp.tool.name': call.tool, 'memsvc.tool.kind': call.kind }, (span) =>
    runInSpan(pipeline, request, call, body, span),
  );
}

async function runInSpan(
  pipeline: ToolPipeline,
  request: ToolRequest,
  call: ToolCall,
  body: (context: CallContext) => Promise<ToolBodyResult>,
  span: TraceSpan,
): Promise<CallToolResult> {
  const started = performance.now();
  const observed: ObservedCall = { ...call, principal: principalOf(request.authInfo), clientAddress: clientAddressOf(request.authInfo) };
  const hooks = pipeline.hooks ?? [];
  let outcome: Omit<ToolOutcome, 'seconds'> = { status: 'error', tier: 'none' };
  try {
    const adminRefusal = call.kind === 'admin' ? adminTokenRefusal(pipeline, call) : undefined;
    if (call.kind === 'memory') checkScope(observed.principal, call);
    const context: CallContext | undefined = call.kind === 'memory' ? callContextOf(observed.principal, call, pipeline) : undefined;
    // A refused admin call still passes the hooks, so the rate limiter counts every guess of the token.
    for (const hook of hooks) await hook.before?.(observed, context);
    if (adminRefusal) throw adminRefusal;
    const { result, tier } = await body(context as CallContext);
    outcome = { status: result.isError ? 'error' : 'success', tier: tier ?? 'none', ...errorCodeOf(result) };
    // What the caller may see of it is decided here, once for every tool (issue 37, finding #3).
    return visibleResult(call.tool, observed.principal, result);
  } catch (thrown) {
    const unavailable = !isMemsvcError(thrown) && pipeline.isStorageUnavailable?.(thrown) === true;
    if (unavailable) pipeline.onInternalError?.(thrown, call.tool);
    const error = unavailable ? storageUnavailable(thrown) : thrown;
    outcome = { status: 'error', tier: 'none', code: isMemsvcError(error) ? error.code : 'INTERNAL' };
    return toolError(error, (internal) => pipeline.onInternalError?.(internal, call.tool));
  } finally {
    const ended: ToolOutcome = { ...outcome, seconds: (performance.now() - started) / 1000 };
    for (const hook of [...hooks].reverse()) hook.after?.(observed, ended);
    // The outcome, not the caller: no principal, tenant or argument goes on the span.
    span.setAttributes({ 'memsvc.tool.status': ended.status, 'memsvc.memory.tier': ended.tier });
    if (ended.code !== undefined) span.fail(ended.code);
  }
}

/** The code of an error result a tool body returned itself (a typed error it mapped), if any. */
function errorCodeOf(result: CallToolResult): { code?: MemsvcErrorCode } {
  if (!result.isError) return {};
  const code = (result.structuredContent?.error as { code?: unknown } | undefined)?.code;
  return typeof code === 'string' ? { code: code as MemsvcErrorCode } : {};
}

/** A memory tool needs its scope (TOOL_SCOPES); a refused call changes nothing. */
function checkScope(principal: Principal, call: MemoryToolCall): void {
  const scope = TOOL_SCOPES[call.tool];
  if (scope && !holdsScope(principal, scope)) {
    throw new MemsvcError('FORBIDDEN', `${call.tool} needs the ${scope} scope, which this credential does not have`, {
      field: 'scopes',
      requiredScope: scope,
    });
  }
}

/**
 * Whose memories a memory tool works on, and who the audit names. A credential acts on its own
 * tenant and a `userId` in the input is ignored (spec §5.2) — except that a credential with the
 * `admin` scope may name a tenant of MEMSVC_OPERATOR_TENANTS: then the call acts there, is
 * audited as `delegated:<actor>` and reported to the app. An admin credential naming any other
 * tenant is refused rather than quietly scoped to its own, so an operator never mistakes one
 * tenant's memories for another's.
 */
function callContextOf(principal: Principal, call: MemoryToolCall, pipeline: ToolPipeline): CallContext {
  const actor = auditActorOf(principal);
  if (!isCredential(principal)) return { tenant: tenantOf(principal, call, pipeline.defaultUserId), actor: { id: actor } };
  const named = call.userId;
  if (named === undefined || named === principal.tenant || !principal.scopes.includes('admin')) {
    return { tenant: principal.tenant, actor: { id: actor }, ...apiKeyOf(principal) };
  }
  if (!(pipeline.operatorTenants ?? []).includes(named)) {
    throw new MemsvcError(
      'FORBIDDEN',
      `userId names another tenant, and it is not one this server lets operators act on (MEMSVC_OPERATOR_TENANTS)`,
      { field: 'userId' },
    );
  }
  const tenant = toTenantId(named, 'userId');
  pipeline.onDelegation?.({ event: 'operator_delegation', tool: call.tool, principal: actor, homeTenant: principal.tenant, tenant });
  return { tenant, actor: { id: `delegated:${actor}` } };
}

/** The API key a credential stands for (grants made to that key apply to its calls): the key, or the key a session was exchanged for. */
function apiKeyOf(principal: CredentialPrincipal): { apiKeyId?: string } {
  if (principal.kind === 'api-key') return { apiKeyId: principal.id };
  return principal.agent.startsWith('login:') ? {} : { apiKeyId: principal.agent };
}

/** The tenant of a caller without a credential of its own: the pre-shared key's, or an anonymous caller's choice. */
function tenantOf(principal: Principal, call: MemoryToolCall, defaultUserId: string | undefined) {
  if (principal.kind === 'pre-shared-key') {
    // One shared secret must not let its holder pick any tenant: it acts for the configured one.
    if (defaultUserId === undefined) {
      throw new MemsvcError(
        'FORBIDDEN',
        'the pre-shared MEMSVC_API_KEY acts for MEMSVC_DEFAULT_USER_ID, which this server does not set; use a per-agent API key (memsvc keys create)',
        { field: 'userId' },
      );
    }
    return toTenantId(defaultUserId, 'userId');
  }
  return resolveTenant(call.userId, defaultUserId);
}

function resolveTenant(userId: string | undefined, fallback: string | undefined) {
  const chosen = userId ?? fallback;
  if (chosen === undefined) {
    throw new MemsvcError('INVALID_INPUT', 'userId is required (or configure MEMSVC_DEFAULT_USER_ID on the server)', { field: 'userId' });
  }
  return toTenantId(chosen, 'userId');
}

/**
 * Spec §5.6: the presented adminToken against MCP_ADMIN_TOKEN, in constant time; every call
 * reported. The refusal to throw, if any: the caller throws it once the call has been counted.
 */
function adminTokenRefusal(pipeline: ToolPipeline, call: AdminToolCall): MemsvcError | undefined {
  const reason = adminTokenDenial(pipeline.adminToken, call.adminToken);
  pipeline.onAdminAuth?.(reason ? { event: 'admin_auth_denied', tool: call.tool, reason } : { event: 'admin_auth_ok', tool: call.tool });
  if (!reason) return undefined;
  const message =
    reason === 'admin-tools-disabled'
      ? 'admin tools are disabled on this server: the operator has not set MCP_ADMIN_TOKEN'
      : 'adminToken is missing or wrong: admin tools need the token the server was configured with (MCP_ADMIN_TOKEN)';
  return new MemsvcError('FORBIDDEN', message, { field: 'adminToken' });
}
