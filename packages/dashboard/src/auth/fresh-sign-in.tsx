import type { Clock } from '@memsvc/core';
import { httpStatusOf } from '@memsvc/runtime';
import type { MiddlewareHandler } from 'hono';
import type { DashboardEnv } from '../dashboard-env.js';
import { BarePage } from '../views/layout.js';
import type { Viewer } from './viewer.js';

/**
 * How recent a sign-in must be to change who can get in (mint or revoke a key, share a space, end
 * sessions) or to erase every memory for good. A cookie left in an unlocked browser, or lifted
 * from one, is good for reading for the whole session; giving out a new credential, or taking
 * everything away for good, takes a sign-in from the last few minutes.
 */
export const FRESH_SIGN_IN_SECONDS = 600;

/** Whether the viewer signed in recently enough to change keys and sessions (dev sign-in always is: it has no session). */
export function signedInRecently(viewer: Viewer, now: Date): boolean {
  if (viewer.via === 'dev') return true;
  if (viewer.signedInAt === undefined) return false;
  return now.getTime() - viewer.signedInAt.getTime() <= FRESH_SIGN_IN_SECONDS * 1000;
}

/** Refuses a change when the sign-in is older than FRESH_SIGN_IN_SECONDS, with a way to sign in again. */
export function requireFreshSignIn(clock: Clock, basePath: string): MiddlewareHandler<DashboardEnv> {
  return async (c, next) => {
    if (signedInRecently(c.get('viewer'), clock.now())) return next();
    return c.html(
      <BarePage basePath={basePath} title="Sign in again">
        <p role="alert">
          Creating or revoking a key, sharing a space or ending a share, ending sessions, or erasing all your memories needs a sign-in from
          the last {FRESH_SIGN_IN_SECONDS / 60} minutes. Nothing was changed.
        </p>
        <p>
          <a href={`${basePath}/sign-in`}>Sign in again</a>, then come back to <a href={`${basePath}/access`}>Access</a>.
        </p>
      </BarePage>,
      httpStatusOf('FORBIDDEN'),
    );
  };
}
