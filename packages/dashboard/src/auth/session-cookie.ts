import { LOGIN_STATE_COOKIE } from '@memsvc/auth';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import type { DashboardOptions } from '../dashboard-dependencies.js';

/** The cookie holding the signed-in person's session JWT: the same token an MCP client would send as a bearer. */
const SESSION_COOKIE = 'memsvc_session';

/** HttpOnly (no script reads it), SameSite=Lax (sent when following a link here, not on another site's posts), Secure outside development. */
export function setSessionCookie(c: Context, options: DashboardOptions, token: string, expiresAt: Date): void {
  setCookie(c, SESSION_COOKIE, token, {
    httpOnly: true,
    secure: options.secureCookies,
    sameSite: 'Lax',
    path: options.basePath || '/',
    expires: expiresAt,
  });
}

export function sessionCookieOf(c: Context): string | undefined {
  return getCookie(c, SESSION_COOKIE);
}

export function clearSessionCookie(c: Context, options: DashboardOptions): void {
  deleteCookie(c, SESSION_COOKIE, { path: options.basePath || '/', secure: options.secureCookies });
}

/** The login's state, for the callback only (`<base>/auth/`), until the state itself expires. */
export function setLoginStateCookie(c: Context, options: DashboardOptions, state: string, maxAgeSeconds: number): void {
  setCookie(c, LOGIN_STATE_COOKIE, state, {
    httpOnly: true,
    secure: options.secureCookies,
    sameSite: 'Lax',
    path: `${options.basePath}/auth/`,
    maxAge: Math.floor(maxAgeSeconds),
  });
}

/** The state this browser started a login with, if any; the cookie is cleared as it is read (one use). */
export function takeLoginStateCookie(c: Context, options: DashboardOptions): string | undefined {
  const state = getCookie(c, LOGIN_STATE_COOKIE);
  if (state !== undefined) deleteCookie(c, LOGIN_STATE_COOKIE, { path: `${options.basePath}/auth/`, secure: options.secureCookies });
  return state;
}
