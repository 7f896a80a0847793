import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * The cookie that ties a provider login to the browser that started it. Without it anyone could
 * start a login, approve it at the provider with their own account and hand the callback URL to
 * someone else, whose browser would then be signed in as them (login CSRF): the state proves the
 * login was started here, not by whom. The cookie holds the state itself until the callback.
 */
export const LOGIN_STATE_COOKIE = 'memsvc_login_state';

/** Whether the callback's `state` is the one this browser's cookie carries, in constant time. */
export function startedInThisBrowser(cookieState: string | undefined, callbackState: string | null | undefined): boolean {
  if (!cookieState || !callbackState) return false;
  const digest = (text: string) => createHash('sha256').update(text).digest();
  return timingSafeEqual(digest(cookieState), digest(callbackState));
}
