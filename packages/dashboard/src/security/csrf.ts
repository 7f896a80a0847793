import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Context, MiddlewareHandler } from 'hono';
import { getCookie, setCookie } from 'hono/cookie';
import type { DashboardOptions } from '../dashboard-dependencies.js';
import type { DashboardEnv } from '../dashboard-env.js';

/** The form field every state-changing form carries. */
export const CSRF_FIELD = '_csrf';
const CSRF_COOKIE = 'memsvc_csrf';

/**
 * Double-submit CSRF protection: a random token in an HttpOnly, SameSite=Strict cookie, repeated
 * in a hidden field of every form; a POST whose field does not match the cookie (compared in
 * constant time) is refused before it changes anything. A page on another site can neither read
 * the cookie nor make the browser send it, and the Origin check (hono/csrf, applied alongside)
 * refuses a cross-site post even before that.
 */
export function csrfProtection(options: DashboardOptions): MiddlewareHandler<DashboardEnv> {
  return async (c, next) => {
    let token = getCookie(c, CSRF_COOKIE);
    if (!token || !/^[A-Za-z0-9_-]{43}$/.test(token)) {
      token = randomBytes(32).toString('base64url');
      setCookie(c, CSRF_COOKIE, token, {
        httpOnly: true,
        secure: options.secureCookies,
        sameSite: 'Strict',
        path: options.basePath || '/',
      });
    }
    c.set('csrfToken', token);
    if (c.req.method === 'POST') {
      const form = await c.req.parseBody();
      const sent = form[CSRF_FIELD];
      if (typeof sent !== 'string' || !sameToken(sent, token)) {
        return c.text('This form has expired or did not come from this dashboard. Go back, reload the page and try again.', 403);
      }
    }
    await next();
  };
}

function sameToken(sent: string, expected: string): boolean {
  const a = Buffer.from(sent);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The token the current page's forms carry. */
export function csrfTokenOf(c: Context<DashboardEnv>): string {
  return c.get('csrfToken');
}
