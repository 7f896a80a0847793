import { isLoopbackHost } from '@memsvc/access';
import type { MemsvcConfig } from '@memsvc/config';

/**
 * Whether cookies (the session, the CSRF token, a login's state) are sent with `Secure`. The
 * session cookie is also a bearer credential for `/mcp`, so it goes without `Secure` only in
 * plain-HTTP local development, which is explicit here: NODE_ENV is `development` (the default),
 * HOST binds to loopback (`127.0.0.1`, `::1`, `localhost`: nobody else can reach the port, so no
 * network sits between the browser and memsvc) and no URL memsvc is reached at is HTTPS.
 * Everything else — HOST=0.0.0.0 as on a shared server or in the container, NODE_ENV=production
 * or test, an https public or OAuth callback URL — gets Secure cookies (issue 37 #7). Browsers
 * keep Secure cookies set by `http://localhost` and `http://127.0.0.1` (they count as secure
 * contexts), so local use of a server bound to every interface still signs in.
 */
export function cookiesMustBeSecure(config: MemsvcConfig): boolean {
  if (config.nodeEnv !== 'development') return true;
  if ([config.auth.oauthRedirectBaseUrl, config.mcp.publicUrl].some((url) => url?.toLowerCase().startsWith('https://') === true))
    return true;
  return !isLoopbackHost(config.http.host);
}
