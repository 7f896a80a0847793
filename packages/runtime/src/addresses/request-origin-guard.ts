import { RequestOriginPolicy } from '@memsvc/access';
import type { MemsvcConfig } from '@memsvc/config';
import type { Logger } from 'pino';

/** What the guard reads of a request served by Hono's node adapter (structural: no Hono import). */
export interface GuardedRequest {
  readonly env: unknown;
  readonly req: { header(name: string): string | undefined; readonly path: string; readonly url: string };
}

/** Distinct refused values logged per process: enough to see a misconfiguration, too few to flood. */
const REFUSALS_LOGGED = 64;

/**
 * Ways in any web page may use, whatever its origin: the OAuth metadata, client registration and
 * token endpoints, which browser-based MCP clients call across origins (RFC 8414, 7591, 6749).
 * Nothing ambient rides on them — no cookie, no credential the browser adds — so a page learns or
 * obtains nothing it did not bring. Their Host is still checked; the consent page is not among them.
 */
const ANY_ORIGIN_PATHS: readonly RegExp[] = [/^\/\.well-known\/oauth-/u, /^\/oauth\/(register|token)$/u];

/** The policy of a server or dashboard from its configuration. */
export function requestOriginPolicyOf(config: MemsvcConfig): RequestOriginPolicy {
  return new RequestOriginPolicy({
    bindHost: config.http.host,
    allowedHosts: config.http.allowedHosts,
    allowedOrigins: config.http.corsAllowedOrigins,
    publicUrls: [config.mcp.publicUrl, config.auth.oauthRedirectBaseUrl].filter((url): url is string => url !== undefined),
  });
}

/**
 * Middleware for every HTTP way in (MCP, the dashboard, the auth routes, health): a request whose
 * Host or Origin the policy refuses is answered 403 before anything else runs, with the reason
 * (which setting to change). On `/mcp` the body is a JSON-RPC error, as an MCP client expects.
 */
export function requestOriginGuard(config: MemsvcConfig, logger: Logger) {
  const policy = requestOriginPolicyOf(config);
  const logged = new Set<string>();
  return async (c: GuardedRequest, next: () => Promise<void>): Promise<Response | undefined> => {
    // The node adapter builds the URL from the Host header; an in-process request has only the URL.
    const host = c.req.header('host') ?? new URL(c.req.url).host;
    const origin = ANY_ORIGIN_PATHS.some((path) => path.test(c.req.path)) ? undefined : c.req.header('origin');
    const localPort = (c.env as { incoming?: { socket?: { localPort?: number } } } | undefined)?.incoming?.socket?.localPort;
    const verdict = policy.judge({ host, origin, fetchSite: c.req.header('sec-fetch-site'), localPort });
    if (verdict.allowed) {
      await next();
      return undefined;
    }
    const key = `${host}\u0000${origin}`;
    if (logged.size < REFUSALS_LOGGED && !logged.has(key)) {
      logged.add(key);
      logger.warn({ event: 'request_origin_refused', host, origin, path: c.req.path }, verdict.reason);
    }
    const body =
      c.req.path === '/mcp'
        ? { jsonrpc: '2.0', error: { code: -32000, message: verdict.reason }, id: null }
        : { error: { code: 'FORBIDDEN', message: verdict.reason } };
    return new Response(JSON.stringify(body), {
      status: 403,
      headers: { 'Content-Type': 'application/json', 'Cache-Control': 'no-store' },
    });
  };
}
