import { bearerToken, secretMatches } from '@memsvc/auth';
import type { MemsvcConfig } from '@memsvc/config';
import { ANONYMOUS_PRINCIPAL, authInfoOf, PRE_SHARED_KEY_PRINCIPAL, type Principal, TOOL_SCOPES, type ToolName } from '@memsvc/mcp-tools';
import { type AddressVerdict, addressLimitMessage, type ClientAddresses, httpStatusOf, type Logger, type Metrics } from '@memsvc/runtime';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context } from 'hono';
import { BARE_BEARER, type BearerChallenges } from './bearer-challenge.js';
import { type BoundedBody, readBoundedBody } from './bounded-body.js';
import type { CallerCredential, CredentialLookup } from './credential-principals.js';
import { JsonNestingScanner, MCP_MAX_JSON_DEPTH } from './json-nesting-scanner.js';
import { requestsProgress, whenStreamEnds } from './progress-stream.js';
import type { CallerVerdict } from './rate-limit-hook.js';

/** Largest MCP request body accepted over HTTP: room for a long conversation to ingest. */
export const MCP_MAX_BODY_BYTES = 4 * 1024 * 1024;

/**
 * A JSON-RPC error response with no request id (the request was refused before parsing). Its
 * status is an error code's (httpStatusOf), or 413 for a body over MCP_MAX_BODY_BYTES, HTTP's own rule.
 */
export function jsonRpcError(
  c: Context,
  status: 400 | 401 | 403 | 413 | 429 | 500,
  code: number,
  message: string,
  headers: Record<string, string> = {},
) {
  return c.json({ jsonrpc: '2.0', error: { code, message }, id: null }, status, headers);
}

const MISSING_CREDENTIAL = 'Unauthorized: authentication is required (Authorization: Bearer <API key or session token>)';

/**
 * Spec §5.2: with AUTH_REQUIRED=true every MCP call over HTTP carries
 * `Authorization: Bearer <token>`: a per-agent API key or a session JWT (its user is the tenant,
 * its scopes are checked per tool) or the pre-shared MEMSVC_API_KEY (compared in constant time; it acts for
 * MEMSVC_DEFAULT_USER_ID). Anything else is refused, and nothing about why a credential failed
 * (unknown, revoked, expired, badly signed) is told to the caller. Without AUTH_REQUIRED the caller is anonymous.
 * Returns who is calling, or why the call is refused.
 */
export async function mcpCaller(
  config: MemsvcConfig,
  authorization: string | undefined,
  findCredential: CredentialLookup | undefined,
): Promise<{ principal: Principal | CallerCredential } | { problem: string }> {
  if (!config.auth.required) return { principal: ANONYMOUS_PRINCIPAL };
  const token = bearerToken(authorization);
  if (!token) return { problem: MISSING_CREDENTIAL };
  const credential = findCredential ? await findCredential(token) : undefined;
  if (credential) return { principal: credential };
  return secretMatches(config.auth.apiKey, token)
    ? { principal: PRE_SHARED_KEY_PRINCIPAL }
    : { problem: 'Unauthorized: the credential is not valid (unknown, revoked, expired or logged out)' };
}

/**
 * The Node request under Hono's node adapter. Reading the body from it, instead of through the
 * web `Request`, spares every call the construction of a full undici Request with its body
 * stream and abort signal (about a quarter of the server's CPU for a small tool call); the
 * transport is then handed the parsed body and reads only the method, URL and headers.
 */
function nodeRequestOf(c: Context): AsyncIterable<Uint8Array> | undefined {
  return (c.env as { incoming?: AsyncIterable<Uint8Array> } | undefined)?.incoming;
}

type ParsedBody =
  | { readonly ok: true; readonly value: unknown }
  | { readonly ok: false; readonly status: 400 | 413; readonly code: number; readonly message: string };

/** The JSON-RPC message of a body read in full, or the refusal for one that was not kept or is not JSON. */
function parseBody(body: BoundedBody): ParsedBody {
  if (body.refused === 'too-large')
    return { ok: false, status: 413, code: -32600, message: `request body exceeds ${MCP_MAX_BODY_BYTES} bytes` };
  if (body.refused === 'too-deep') {
    return {
      ok: false,
      status: httpStatusOf('INVALID_INPUT'),
      code: -32600,
      message: `request body nests arrays and objects deeper than ${MCP_MAX_JSON_DEPTH} levels`,
    };
  }
  try {
    return { ok: true, value: JSON.parse(body.bytes.toString('utf8')) };
  } catch {
    return { ok: false, status: httpStatusOf('INVALID_INPUT'), code: -32700, message: 'Parse error: Invalid JSON' };
  }
}

function isJsonMediaType(contentType: string | undefined): boolean {
  return contentType?.split(';')[0]?.trim().toLowerCase() === 'application/json';
}

/** Idle servers kept for reuse; more than this many concurrent requests create extra ones. */
const MAX_IDLE_SERVERS = 64;

/**
 * MCP over streamable HTTP, stateless: every request gets its own transport and a server of its
 * own for its duration, so any replica can answer any request and nothing carries over between
 * requests. Servers (tool registrations, schemas) are expensive to build and hold no request
 * state once closed, so idle ones are reused.
 */
export function createMcpHttpHandler(deps: {
  config: MemsvcConfig;
  createServer: () => McpServer;
  metrics: Metrics;
  logger: Logger;
  findCredential?: CredentialLookup | undefined;
  /** Who the client is (the socket's peer, or what a trusted proxy says). */
  clientAddresses?: ClientAddresses | undefined;
  /** The per-address limit for requests without a valid credential, when rate limiting is on. */
  limitUnauthenticated?: ((address: string | undefined) => Promise<AddressVerdict>) | undefined;
  /** The user's limit, for an authenticated request whose body is refused before any tool runs. */
  limitRefusedBody?: ((principal: Principal) => Promise<CallerVerdict>) | undefined;
  /** The WWW-Authenticate of 401s and step-up 403s (bare `Bearer` without an authorization server). */
  challenges?: BearerChallenges | undefined;
}) {
  const challenges = deps.challenges ?? BARE_BEARER;
  const idle: McpServer[] = [];
  return async (c: Context) => {
    const clientAddress = deps.clientAddresses?.ofRequest(c);
    const authorization = c.req.header('authorization');
    const tooMany = (retryAfterSeconds: number, message = addressLimitMessage(retryAfterSeconds)) =>
      jsonRpcError(c, httpStatusOf('RATE_LIMITED'), -32029, message, { 'Retry-After': String(retryAfterSeconds) });
    const countAddress = async () => {
      const verdict = deps.limitUnauthenticated ? await deps.limitUnauthenticated(clientAddress) : undefined;
      return verdict && !verdict.admitted ? tooMany(verdict.retryAfterSeconds) : undefined;
    };

    // Without a valid credential the address is who is counted: an open server's callers, and
    // failed attempts (so guessing keys is throttled). Refused before any tool runs: HTTP 429.
    // A request with no bearer token at all is refused before its body is read; an open
    // server's caller is counted before it, since nothing about the body changes who it is.
    const required = deps.config.auth.required;
    const bearer = bearerToken(authorization) !== undefined;
    if (!required || !bearer) {
      const refused = await countAddress();
      if (refused) return refused;
      if (required)
        return jsonRpcError(c, httpStatusOf('UNAUTHENTICATED'), -32001, MISSING_CREDENTIAL, {
          'WWW-Authenticate': challenges.unauthorized(),
        });
    }

    let body: BoundedBody | undefined;
    // Anything but a JSON POST goes to the transport untouched, which answers it as the MCP
    // specification says (405 for other methods, 415 for another media type).
    if (c.req.method === 'POST' && isJsonMediaType(c.req.header('content-type'))) {
      body = await readBoundedBody(
        nodeRequestOf(c) ?? c.req.raw.body,
        c.req.header('content-length'),
        MCP_MAX_BODY_BYTES,
        new JsonNestingScanner(MCP_MAX_JSON_DEPTH),
      );
    }

    // The credential is checked once the body is complete, not when the headers came: the caller
    // decides when its body arrives, and a key revoked (or a session logged out) in between must
    // not run the call (issue 37 #1).
    // The rest of a body nested too deep was never read, so its connection cannot carry another request.
    const closingIfUnread = (response: Response) => {
      if (body?.refused === 'too-deep') response.headers.set('Connection', 'close');
      return response;
    };
    const caller = await mcpCaller(deps.config, authorization, deps.findCredential);
    if ('problem' in caller) {
      const refused = await countAddress();
      return closingIfUnread(
        refused ??
          jsonRpcError(c, httpStatusOf('UNAUTHENTICATED'), -32001, caller.problem, { 'WWW-Authenticate': challenges.unauthorized() }),
      );
    }
    const anonymous = caller.principal.kind === 'anonymous';

    let parsedBody: unknown;
    if (body !== undefined) {
      const parsed = parseBody(body);
      if (!parsed.ok) {
        // A refused body costs its caller like a call would (an anonymous one paid by address above).
        const verdict = anonymous ? undefined : await deps.limitRefusedBody?.(caller.principal);
        if (verdict && !verdict.admitted) return closingIfUnread(tooMany(verdict.retryAfterSeconds, verdict.message));
        return closingIfUnread(jsonRpcError(c, parsed.status, parsed.code, parsed.message));
      }
      parsedBody = parsed.value;
    }

    // Step-up (MCP 2025-11-25 authorization, RFC 6750 §3.1): an OAuth token that lacks the scope
    // of the one tool it calls is refused before dispatch with 403 insufficient_scope, naming the
    // scopes to ask for, so the client can send the person back to consent to more.
    const missing = missingOAuthScope(caller.principal, parsedBody);
    if (missing)
      return jsonRpcError(c, httpStatusOf('FORBIDDEN'), -32001, `Forbidden: this tool needs the ${missing.needed} scope`, {
        'WWW-Authenticate': challenges.insufficientScope(missing.askFor),
      });

    // A JSON-RPC batch is as many requests as it holds: an address pays for each of its messages,
    // so one request cannot carry a hundred uncounted calls.
    if (anonymous && deps.limitUnauthenticated && Array.isArray(parsedBody)) {
      for (let extra = parsedBody.length - 1; extra > 0; extra--) {
        const refused = await countAddress();
        if (refused) return refused;
      }
    }

    const server = idle.pop() ?? deps.createServer();
    // JSON responses cannot carry notifications: a request asking for progress gets an SSE stream.
    const streamed = requestsProgress(parsedBody, c.req.header('accept'));
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: !streamed });
    deps.metrics.activeMcpSessions.inc();
    const release = () => {
      deps.metrics.activeMcpSessions.dec();
      server
        .close()
        .then(() => {
          if (idle.length < MAX_IDLE_SERVERS) idle.push(server);
        })
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'closing a per-request MCP server failed'));
    };
    let releasedByStream = false;
    try {
      await server.connect(transport);
      // The principal reaches every tool of the request as the SDK's authInfo (runTool reads it).
      const response = await transport.handleRequest(c.req.raw, {
        authInfo: authInfoOf(caller.principal, clientAddress),
        ...(parsedBody === undefined ? {} : { parsedBody }),
      });
      if (!streamed || !response.body || !response.headers.get('content-type')?.startsWith('text/event-stream')) return response;
      // The tool still runs and writes to the stream: the server is released when the stream ends.
      releasedByStream = true;
      return new Response(whenStreamEnds(response.body, release), response);
    } finally {
      if (!releasedByStream) release();
    }
  };
}

/**
 * The scope an OAuth access token lacks for the tool of a single `tools/call`, and the scopes to
 * ask for instead (those held plus the one needed); undefined for anything else — another
 * credential (its refusal is the tool's FORBIDDEN result), another method, a batch, a tool that
 * needs no scope, or a token that holds it.
 */
function missingOAuthScope(principal: Principal | CallerCredential, body: unknown): { needed: string; askFor: string[] } | undefined {
  if (!('oauthClientId' in principal) || principal.oauthClientId === undefined) return undefined;
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return undefined;
  const { method, params } = body as { method?: unknown; params?: { name?: unknown } };
  if (method !== 'tools/call' || typeof params?.name !== 'string' || !Object.hasOwn(TOOL_SCOPES, params.name)) return undefined;
  const needed = TOOL_SCOPES[params.name as ToolName];
  if (needed === undefined || principal.scopes.includes(needed)) return undefined;
  return { needed, askFor: [...principal.scopes, needed] };
}
