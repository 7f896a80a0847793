import { SCOPES } from '@memsvc/access';
import { toTenantId } from '@memsvc/core';
import type { MiddlewareHandler } from 'hono';
import type { DashboardDependencies, DashboardOptions } from '../dashboard-dependencies.js';
import type { DashboardEnv } from '../dashboard-env.js';
import { clearSessionCookie, sessionCookieOf } from './session-cookie.js';
import type { Viewer } from './viewer.js';

/**
 * Who is looking. With MEMSVC_DASHBOARD_DEV_AUTH every visitor is MEMSVC_DEFAULT_USER_ID with every
 * scope, no form (the configuration refuses the flag under NODE_ENV=production). Otherwise the
 * session cookie must hold a valid, unrevoked session JWT; without one the visitor is sent to
 * the sign-in page, and an expired or revoked one is cleared on the way.
 */
export function viewerMiddleware(dependencies: DashboardDependencies, options: DashboardOptions): MiddlewareHandler<DashboardEnv> {
  const { config, sessions } = dependencies.runtime;
  const devUser = config.auth.dashboard.devAuth ? config.auth.defaultUserId : undefined;
  return async (c, next) => {
    let viewer: Viewer | undefined;
    if (devUser !== undefined) {
      viewer = { tenant: toTenantId(devUser), scopes: new Set(SCOPES), actor: 'dashboard-dev', via: 'dev' };
    } else {
      const token = sessionCookieOf(c);
      const claims = token && sessions ? await sessions.verify(token) : undefined;
      if (claims) {
        viewer = {
          tenant: claims.userId,
          scopes: new Set(claims.scopes),
          actor: `session:${claims.jti}`,
          via: claims.origin,
          sessionId: claims.jti,
          signedInAt: claims.issuedAt,
          ...(claims.keyId ? { keyId: claims.keyId } : {}),
          ...(claims.organizationId ? { organizationId: claims.organizationId } : {}),
        };
      } else if (token) {
        clearSessionCookie(c, options);
      }
    }
    if (!viewer) return c.redirect(`${options.basePath}/sign-in`, 303);
    c.set('viewer', viewer);
    await next();
  };
}
