import { isIpv4, isIpv6, isLoopbackHost } from './ip-address.js';

/** What the policy is built from: the bind address and what the operator allowed. */
export interface RequestOriginPolicyOptions {
  /** HOST: the address the server binds to. */
  readonly bindHost: string;
  /** MEMSVC_ALLOWED_HOSTS: names (any port) or `name:port`; `*` turns the Host check off. */
  readonly allowedHosts: readonly string[];
  /** CORS_ALLOWED_ORIGINS: origins whose pages may call the server; `*` allows every page. */
  readonly allowedOrigins: readonly string[];
  /** The public URLs the operator configured (MEMSVC_MCP_URL, OAUTH_REDIRECT_BASE_URL): their hosts and origins are allowed. */
  readonly publicUrls: readonly string[];
}

/** The headers the policy judges, and the port the request arrived on when there is a socket. */
export interface RequestOriginHeaders {
  readonly host: string | undefined;
  readonly origin: string | undefined;
  /** `Sec-Fetch-Site`, which the browser writes and no page can: how it judges the request's initiator. */
  readonly fetchSite?: string | undefined;
  readonly localPort?: number | undefined;
}

export type RequestOriginVerdict = { readonly allowed: true } | { readonly allowed: false; readonly reason: string };

const ALLOWED: RequestOriginVerdict = { allowed: true };

/** A `Host` or origin authority split into its lower-case name and its port (undefined when none is written). */
interface Authority {
  readonly name: string;
  readonly port: number | undefined;
}

/** `name[:port]` of a Host header; undefined for anything a URL would not accept as an authority. */
function parseAuthority(value: string): Authority | undefined {
  if (value.length === 0 || value.length > 255 || /[\s/?#@\\]/u.test(value)) return undefined;
  try {
    const url = new URL(`http://${value}`);
    return { name: url.hostname.toLowerCase(), port: url.port === '' ? undefined : Number(url.port) };
  } catch {
    return undefined;
  }
}

/** The port a URL means, written or implied by its scheme. */
function portOf(url: URL): number {
  if (url.port !== '') return Number(url.port);
  return url.protocol === 'https:' ? 443 : 80;
}

/** Whether a page's origin and a Host name one port: a Host without one means its scheme's default. */
function samePort(origin: URL, host: Authority): boolean {
  return host.port === undefined ? origin.port === '' : portOf(origin) === host.port;
}

function isIpLiteral(name: string): boolean {
  return isIpv4(name) || isIpv6(name.replace(/^\[(.*)\]$/u, '$1'));
}

/**
 * Which `Host` and `Origin` a request may carry (MCP transport spec: servers must validate
 * `Origin`; security best practices: DNS rebinding). The attack it stops: a web page on a name the
 * attacker controls, re-pointed at the server's address, whose browser then sends
 * `Host: evil.example` with `Origin: http://evil.example` — and reads the answer, since to the browser
 * it is the page's own origin.
 *
 * - Host. A server bound to loopback answers loopback names only (`localhost`, 127.0.0.0/8, `[::1]`),
 *   on the port it listens on. Any other server answers loopback names, IP literals (a rebound name is
 *   never one, and probes address pods by IP), the hosts of its configured public URLs, and
 *   MEMSVC_ALLOWED_HOSTS.
 * - Origin. No Origin (agents, CLIs, curl) is not a browser page and passes. Otherwise the page must
 *   be the request's own origin, a configured public URL's, one in CORS_ALLOWED_ORIGINS, or — on a
 *   loopback server — a loopback page. `Origin: null` (sandboxed frames, files) is refused, unless
 *   the browser says the page is this request's own origin (`Sec-Fetch-Site: same-origin`).
 *
 * A refusal says which setting would allow the request.
 */
export class RequestOriginPolicy {
  readonly #loopbackBind: boolean;
  readonly #anyHost: boolean;
  readonly #anyOrigin: boolean;
  readonly #hosts: readonly Authority[];
  readonly #origins: ReadonlySet<string>;

  constructor(options: RequestOriginPolicyOptions) {
    this.#loopbackBind = isLoopbackHost(options.bindHost);
    this.#anyHost = options.allowedHosts.includes('*');
    this.#anyOrigin = options.allowedOrigins.includes('*');
    const publicUrls = options.publicUrls.flatMap((value) => {
      try {
        return [new URL(value)];
      } catch {
        return [];
      }
    });
    this.#hosts = [
      ...options.allowedHosts.flatMap((entry) => parseAuthority(entry) ?? []),
      ...publicUrls.map((url) => ({ name: url.hostname.toLowerCase(), port: undefined })),
    ];
    this.#origins = new Set([
      ...options.allowedOrigins.filter((origin) => origin !== '*').map((origin) => new URL(origin).origin),
      ...publicUrls.map((url) => url.origin),
    ]);
  }

  judge(request: RequestOriginHeaders): RequestOriginVerdict {
    // Every browser sends Host; a request without one (HTTP/1.0, an in-process call) is no page's.
    const host = request.host === undefined ? undefined : parseAuthority(request.host.trim());
    if (request.host !== undefined) {
      if (!host) return { allowed: false, reason: `the Host header ${JSON.stringify(request.host)} is not a host name` };
      const refused = this.#judgeHost(request.host, host, request.localPort);
      if (refused) return refused;
    }
    if (request.origin === undefined) return ALLOWED;
    // A browser posting a form from a page whose Referrer-Policy is no-referrer (the dashboard's)
    // writes `Origin: null`; it says `Sec-Fetch-Site: same-origin` only when that page has this
    // request's own origin — which, the Host being one of ours, is ours. An opaque origin
    // (sandboxed frame, file) is never same-origin with anything.
    if (request.origin.trim() === 'null' && request.fetchSite === 'same-origin') return ALLOWED;
    return this.#judgeOrigin(request.origin.trim(), host);
  }

  #judgeHost(written: string, host: Authority, localPort: number | undefined): RequestOriginVerdict | undefined {
    const shown = JSON.stringify(written);
    if (this.#loopbackBind) {
      if (!isLoopbackHost(host.name)) {
        return {
          allowed: false,
          reason:
            `Host ${shown} is refused: this server is bound to loopback and answers loopback names only ` +
            '(localhost, 127.0.0.1, [::1]). To serve it under another name, bind it to that interface (HOST) and list the name in MEMSVC_ALLOWED_HOSTS.',
        };
      }
      if (host.port !== undefined && localPort !== undefined && host.port !== localPort) {
        return {
          allowed: false,
          reason: `Host ${shown} is refused: it names port ${host.port}, and this server listens on ${localPort}.`,
        };
      }
      return undefined;
    }
    if (this.#anyHost || isLoopbackHost(host.name) || isIpLiteral(host.name)) return undefined;
    const listed = this.#hosts.some((allowed) => allowed.name === host.name && (allowed.port === undefined || allowed.port === host.port));
    if (listed) return undefined;
    return {
      allowed: false,
      reason:
        `Host ${shown} is refused: it is not a name this server was told it is served under. ` +
        `Add ${JSON.stringify(host.name)} to MEMSVC_ALLOWED_HOSTS (or set MEMSVC_MCP_URL to the URL clients use).`,
    };
  }

  #judgeOrigin(written: string, host: Authority | undefined): RequestOriginVerdict {
    const shown = JSON.stringify(written);
    const refused = (why: string): RequestOriginVerdict => ({
      allowed: false,
      reason: `Origin ${shown} is refused: ${why} A web page may call this server only from an origin listed in CORS_ALLOWED_ORIGINS.`,
    });
    if (written === 'null')
      return refused('an opaque origin (a sandboxed frame or a local file) cannot be told apart from any other page.');
    let origin: URL;
    try {
      origin = new URL(written);
    } catch {
      return refused('it is not an origin.');
    }
    if ((origin.protocol !== 'http:' && origin.protocol !== 'https:') || origin.origin !== written.replace(/\/$/u, '').toLowerCase()) {
      return refused('it is not an http(s) origin.');
    }
    if (this.#anyOrigin || this.#origins.has(origin.origin)) return ALLOWED;
    // The page's own origin: the name and port it was loaded from are the ones this request is for.
    if (host && origin.hostname.toLowerCase() === host.name && samePort(origin, host)) return ALLOWED;
    if (this.#loopbackBind && isLoopbackHost(origin.hostname)) return ALLOWED;
    return refused('the page is not this server’s own, nor one it was configured to trust.');
  }
}
