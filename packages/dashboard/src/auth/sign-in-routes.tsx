import { type IssuedSession, isLoginRefused, issueKeySession, LoginRefused, looksLikeApiKey, startedInThisBrowser } from '@memsvc/auth';
import type { Context, Hono } from 'hono';
import type { DashboardDependencies, DashboardOptions } from '../dashboard-dependencies.js';
import type { DashboardEnv } from '../dashboard-env.js';
import { BarePage, CsrfField, Notice } from '../views/layout.js';
import { clearSessionCookie, sessionCookieOf, setLoginStateCookie, setSessionCookie, takeLoginStateCookie } from './session-cookie.js';

const PROVIDER_NAMES: Readonly<Record<string, string>> = { github: 'GitHub', google: 'Google' };

/**
 * Signing in and out. GitHub and Google through the server's own login flow (the same sessions an
 * MCP client gets), or an API key exchanged for a session; dev auth skips all of it. The session
 * JWT lives in an HttpOnly cookie; signing out revokes it, not only forgets it.
 */
export function registerSignInRoutes(app: Hono<DashboardEnv>, dependencies: DashboardDependencies, options: DashboardOptions): void {
  const { runtime, loginFlow } = dependencies;
  const { sessions, apiKeys, logger } = runtime;
  const base = options.basePath;
  const devAuth = runtime.config.auth.dashboard.devAuth;

  const signInPage = (c: Context<DashboardEnv>, status: 200 | 401 | 403, error?: string) =>
    c.html(
      <BarePage basePath={base} title="Sign in to memsvc">
        <Notice text={error} kind="error" />
        {sessions ? null : (
          <p>
            Sign-in needs the <code>standard</code> profile with a <code>JWT_SECRET</code>. For development, set{' '}
            <code>MEMSVC_DASHBOARD_DEV_AUTH=true</code> with <code>MEMSVC_DEFAULT_USER_ID</code>.
          </p>
        )}
        {(loginFlow?.enabledProviders() ?? []).map((provider) => (
          <p>
            <a class="button" href={`${base}/auth/${provider}/login`}>
              Sign in with {PROVIDER_NAMES[provider] ?? provider}
            </a>
          </p>
        ))}
        {sessions ? (
          <form method="post" action={`${base}/sign-in/key`}>
            <CsrfField token={c.get('csrfToken')} />
            <p>
              <label>
                Or an API key (<code>memsvc keys create</code>)
                <br />
                <input type="password" name="key" autocomplete="off" required maxlength={200} />
              </label>
            </p>
            <button type="submit" class="primary">
              Sign in
            </button>
          </form>
        ) : null}
      </BarePage>,
      status,
    );

  const signedIn = (c: Context<DashboardEnv>, session: IssuedSession) => {
    setSessionCookie(c, options, session.token, session.expiresAt);
    return c.redirect(`${base}/memories`, 303);
  };
  const clientOf = (c: Context) => ({ userAgent: c.req.header('user-agent')?.slice(0, 512) });

  app.get('/sign-in', (c) => (devAuth ? c.redirect(`${base}/memories`, 303) : signInPage(c, 200)));

  app.post('/sign-in/key', async (c) => {
    if (!sessions) return signInPage(c, 403, 'Signing in with a key needs the standard profile with a JWT_SECRET.');
    const form = await c.req.parseBody();
    const presented = typeof form.key === 'string' ? form.key.trim() : '';
    const key = looksLikeApiKey(presented) ? await apiKeys.authenticate(presented) : undefined;
    const invalid = () => signInPage(c, 401, 'That key is not valid (unknown, revoked or expired).');
    if (!key) return invalid();
    // The store reads the key again as it records the session: one revoked meanwhile opens nothing.
    const session = await issueKeySession(sessions, key, key.scopes, clientOf(c));
    if (!session) return invalid();
    logger.info({ event: 'session_issued', keyId: key.id, via: 'dashboard-api-key' }, 'session issued');
    return signedIn(c, session);
  });

  app.get('/auth/:provider/login', async (c) => {
    const provider = c.req.param('provider');
    if (!loginFlow?.enabledProviders().includes(provider as never)) return signInPage(c, 401, 'That sign-in provider is not enabled.');
    const { authorizationUrl, state, stateTtlSeconds } = await loginFlow.start(provider);
    setLoginStateCookie(c, options, state, stateTtlSeconds);
    return c.redirect(authorizationUrl, 302);
  });

  app.get('/auth/:provider/callback', async (c) => {
    const provider = c.req.param('provider');
    if (!loginFlow) return signInPage(c, 401, 'Sign-in with a provider is not enabled.');
    try {
      const params = new URL(c.req.url).searchParams;
      if (!startedInThisBrowser(takeLoginStateCookie(c, options), params.get('state'))) throw new LoginRefused('other-browser');
      const session = await loginFlow.finish(provider, params, clientOf(c));
      logger.info({ event: 'session_issued', via: `dashboard-${provider}` }, 'session issued');
      return signedIn(c, session);
    } catch (error) {
      if (!isLoginRefused(error)) throw error;
      logger.warn({ event: 'login_refused', provider, reason: error.reason }, 'login refused');
      return signInPage(c, error.status === 403 ? 403 : 401, `Sign-in was refused: ${error.message}.`);
    }
  });

  app.post('/sign-out', async (c) => {
    const token = sessionCookieOf(c);
    if (token && sessions) await sessions.revoke(token);
    clearSessionCookie(c, options);
    return c.redirect(`${base}/sign-in`, 303);
  });
}
