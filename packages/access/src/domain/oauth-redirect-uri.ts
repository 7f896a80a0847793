import { isLoopbackHost } from './ip-address.js';

/**
 * Schemes a redirect URI may never have: they run code or read local data in the browser that
 * follows the redirect (RFC 9700 §4.1, OAuth 2.1 §7.5.1), or carry nothing a client can receive.
 */
const REFUSED_SCHEMES: ReadonlySet<string> = new Set([
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
  'blob:',
  'about:',
  'filesystem:',
  'ws:',
  'wss:',
  'ftp:',
]);

/** Longest redirect URI accepted: long enough for any real callback, short enough to keep in a row. */
export const REDIRECT_URI_MAX_LENGTH = 2000;

/**
 * Why a redirect URI may not be registered or used, or undefined when it may (OAuth 2.1 §2.3.1,
 * RFC 8252 for native clients): an absolute URI without a fragment; `https`, `http` only to a
 * loopback host (a native app's local listener), or a private-use scheme of a native app
 * (`com.example.app:/callback`); never a scheme that runs code (`javascript:`, `data:`, …).
 */
export function redirectUriProblem(uri: string): string | undefined {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to find them
  if (uri.length === 0 || uri.length > REDIRECT_URI_MAX_LENGTH || /[\u0000-\u0020\u007f]/.test(uri)) {
    return `a redirect URI is 1 to ${REDIRECT_URI_MAX_LENGTH} characters without spaces or control characters`;
  }
  if (!URL.canParse(uri)) return 'a redirect URI must be an absolute URI';
  const url = new URL(uri);
  if (uri.includes('#')) return 'a redirect URI must not have a fragment';
  const scheme = url.protocol.toLowerCase();
  if (REFUSED_SCHEMES.has(scheme)) return `a redirect URI may not use the ${scheme} scheme`;
  if (url.username !== '' || url.password !== '') return 'a redirect URI must not carry a user name or password';
  if (scheme === 'https:') return url.hostname === '' ? 'an https redirect URI needs a host' : undefined;
  if (scheme === 'http:') {
    return isLoopbackHost(url.hostname) ? undefined : 'an http redirect URI must point at a loopback host (localhost, 127.0.0.1 or [::1])';
  }
  // A native app's private-use scheme (RFC 8252 §7.1): its name is a reverse domain or a word.
  return /^[a-z][a-z0-9+.-]*:$/.test(scheme) ? undefined : 'a redirect URI has an unusable scheme';
}

/** `http://<loopback>[:port]<rest>` as written, host and rest kept exactly; the port is what may vary. */
const LOOPBACK_REDIRECT = /^http:\/\/(localhost|127\.\d{1,3}\.\d{1,3}\.\d{1,3}|\[::1\])(?::\d{1,5})?([/?].*)?$/u;

/** A loopback http redirect URI with its port left out, or undefined for any other URI. */
function portlessLoopback(uri: string): string | undefined {
  const match = LOOPBACK_REDIRECT.exec(uri);
  return match ? `http://${match[1]}${match[2] ?? ''}` : undefined;
}

/**
 * Whether a redirect URI presented in a request is one registered for the client. Compared as
 * exact strings (OAuth 2.1 §4.1.1, RFC 9700 §4.1.3): no normalisation, so `…/callback/` is not
 * `…/callback`. The one exception is the port of a loopback redirect (RFC 8252 §7.3, OAuth 2.1
 * §8.4.2): a native app listens on whatever port the OS gave it at the time of the request, so
 * `http://127.0.0.1/callback` registered admits `http://127.0.0.1:49152/callback` — same host as
 * written, same path, any port.
 */
export function isRegisteredRedirectUri(registered: readonly string[], presented: string): boolean {
  if (registered.includes(presented)) return true;
  const portless = portlessLoopback(presented);
  return portless !== undefined && registered.some((uri) => portlessLoopback(uri) === portless);
}
