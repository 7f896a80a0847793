import { bearerToken, secretMatches } from '@memsvc/auth';
import type { MemsvcConfig } from '@memsvc/core';
import { ANONYMOUS_PRINCIPAL, authInfoOf, PRE_SHARED_KEY_PRINCIPAL, type Principal } from '@memsvc/mcp-tools';
import { type AddressVerdict, addressLimitMessage, type ClientAddresses, type Logger, type Metrics } from '@memsvc/runtime';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Context } from 'hono';
import { readBoundedBody } from './bounded-body.js';
import type { CredentialLookup } from './credential-principals.js';

/** Largest MCP request body accepted over HTTP: room for a long conversation to ingest. */
export const MCP_MAX_BODY_BYTES = 4 * 1024 * 1024;

/** A JSON-RPC error response with no request id (the request was refused before parsing). */
export function jsonRpcError(
  c: Context,
  status: 400 | 401 | 413 | 429 | 500,
  code: number,
  message: string,
  headers: Record<string, string> = {},
) {
  return c.json({ jsonrpc: '2.0', error: { code, message }, id: null }, status, headers);
}

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
): Promise<{ principal: Principal } | { problem: string }> {
  if (!config.auth.required) return { principal: ANONYMOUS_PRINCIPAL };
  const token = bearerToken(authorization);
  if (!token) return { problem: 'Unauthorized: authentication is required (Authorization: Bearer <API key or session token>)' };
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
}) {
  const idle: McpServer[] = [];
  return async (c: Context) => {
    const clientAddress = deps.clientAddresses?.ofRequest(c);
    const caller = await mcpCaller(deps.config, c.req.header('authorization'), deps.findCredential);
    // Without a valid credential the address is who is counted: an open server's callers, and
    // failed attempts (so guessing keys is throttled). Refused before any tool runs: HTTP 429.
    const limitAddress = 'problem' in caller || caller.principal.kind === 'anonymous' ? deps.limitUnauthenticated : undefined;
    const tooMany = (verdict: Extract<AddressVerdict, { admitted: false }>) =>
      jsonRpcError(c, 429, -32029, addressLimitMessage(verdict.retryAfterSeconds), { 'Retry-After': String(verdict.retryAfterSeconds) });
    if (limitAddress) {
      const verdict = await limitAddress(clientAddress);
      if (!verdict.admitted) return tooMany(verdict);
    }
    if ('problem' in caller) return jsonRpcError(c, 401, -32001, caller.problem, { 'WWW-Authenticate': 'Bearer' });

    let parsedBody: unknown;
    // Anything but a JSON POST goes to the transport untouched, which answers it as the MCP
    // specification says (405 for other methods, 415 for another media type).
    if (c.req.method === 'POST' && isJsonMediaType(c.req.header('content-type'))) {
      const body = await readBoundedBody(nodeRequestOf(c) ?? c.req.raw.body, c.req.header('content-length'), MCP_MAX_BODY_BYTES);
      if (body.tooLarge) return jsonRpcError(c, 413, -32600, `request body exceeds ${MCP_MAX_BODY_BYTES} bytes`);
      try {
        parsedBody = JSON.parse(body.bytes.toString('utf8'));
      } catch {
        return jsonRpcError(c, 400, -32700, 'Parse error: Invalid JSON');
      }
    }

    // A JSON-RPC batch is as many requests as it holds: an address pays for each of its messages,
    // so one request cannot carry a hundred uncounted calls.
    if (limitAddress && Array.isArray(parsedBody)) {
      for (let extra = parsedBody.length - 1; extra > 0; extra--) {
        const verdict = await limitAddress(clientAddress);
        if (!verdict.admitted) return tooMany(verdict);
      }
    }

    const server = idle.pop() ?? deps.createServer();
    const transport = new WebStandardStreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    deps.metrics.activeMcpSessions.inc();
    try {
      await server.connect(transport);
      // The principal reaches every tool of the request as the SDK's authInfo (runTool reads it).
      return await transport.handleRequest(c.req.raw, {
        authInfo: authInfoOf(caller.principal, clientAddress),
        ...(parsedBody === undefined ? {} : { parsedBody }),
      });
    } finally {
      deps.metrics.activeMcpSessions.dec();
      server
        .close()
        .then(() => {
          if (idle.length < MAX_IDLE_SERVERS) idle.push(server);
        })
        .catch((error: unknown) => deps.logger.warn({ err: error }, 'closing a per-request MCP server failed'));
    }
  };
}
