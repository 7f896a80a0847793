import type { ApiKeyRecord } from '@memsvc/access';
import { isMemsvcError } from '@memsvc/core';
import { httpStatusOf } from '@memsvc/runtime';
import type { Context, Hono } from 'hono';
import { requireFreshSignIn } from '../../auth/fresh-sign-in.js';
import { clearSessionCookie } from '../../auth/session-cookie.js';
import { isAdmin, type Viewer } from '../../auth/viewer.js';
import type { DashboardDependencies, DashboardOptions } from '../../dashboard-dependencies.js';
import type { DashboardEnv } from '../../dashboard-env.js';
import { ErrorPage } from '../../views/error-page.js';
import { frameOf } from '../../views/frame.js';
import { pageUrl } from '../../views/urls.js';
import { accessNotice } from './access-notices.js';
import { AccessPage, type AccessView } from './access-view.js';
import { databaseUrlIsMasked, httpConfigs, MCP_URL_PLACEHOLDER, SHARED_KEY_PLACEHOLDER, stdioConfigs } from './agent-configs.js';
import { registerEraseAllRoutes } from './erase-all-routes.js';
import { emptyGrantForm } from './grant-form.js';
import { registerGrantRoutes, sharingOf } from './grants-routes.js';
import { checkKeyForm, emptyKeyForm, grantableScopes, type KeyFormValues, keyFormValues } from './key-form.js';
import { mcpAddressOf } from './mcp-address.js';

/** Keys the list shows, newest first: far more than a person gives out, well under 100 KB of page. */
const KEYS_SHOWN = 100;

/** Codes whose message is about the form a person sent, so the form is shown again with it. */
const FORM_ERRORS = ['INVALID_INPUT', 'NOT_FOUND', 'CONFLICT'] as const;

/**
 * `/access`: the viewer's API keys (create, with the key shown once; list; revoke), the spaces
 * they share and that are shared with them (grants-routes.tsx), their organizations and members
 * (read-only), "connect an agent", and erasing all their memories (erase-all-routes.tsx).
 * Everything is the viewer's own: keys are listed and revoked only within their tenant, keys are
 * made, listed and revoked by the access service (`runtime.access`), as `memsvc keys` does.
 */
export function registerAccessRoutes(app: Hono<DashboardEnv>, dependencies: DashboardDependencies, options: DashboardOptions): void {
  const { config, access, clock, logger, sessions } = dependencies.runtime;
  const base = options.basePath;
  const liteProfile = config.profile === 'lite';

  const accessView = async (c: Context<DashboardEnv>, parts: Partial<AccessView> = {}): Promise<AccessView> => {
    const viewer = c.get('viewer');
    const noSharing = { given: [], received: [], byDefault: new Set<string>() };
    const [keys, organizations, sharing] = await Promise.all([
      access.keys.list(viewer.tenant),
      access.organizations.of(viewer.tenant),
      liteProfile ? noSharing : sharingOf(dependencies, viewer),
    ]);
    const mcpAddress = mcpAddressOf(c, config, options);
    // Lite has no per-agent keys (spec §5.5): its agents send the pre-shared key, or nothing.
    const credential = !liteProfile ? 'per-agent-key' : config.auth.required ? 'shared-key' : 'none';
    const key = credential === 'per-agent-key' ? undefined : credential === 'shared-key' ? SHARED_KEY_PLACEHOLDER : null;
    return {
      frame: frameOf(c, options),
      now: clock.now(),
      keys: keys.slice(0, KEYS_SHOWN),
      hiddenKeys: Math.max(0, keys.length - KEYS_SHOWN),
      organizations,
      form: emptyKeyForm(viewer),
      grantable: grantableScopes(viewer),
      sessionLifetime: sessions ? duration(config.auth.jwtExpiresInSeconds) : undefined,
      liteProfile,
      connect: {
        mcpAddress,
        credential,
        http: httpConfigs(mcpAddress?.url ?? MCP_URL_PLACEHOLDER, key),
        // Opening the database directly is for its operators: only they see its (masked) URL.
        stdio: isAdmin(viewer) ? stdioConfigs(config, viewer.tenant, options.stdioServer) : [],
        serverOnPath: options.stdioServer === undefined,
        databaseUrlMasked: databaseUrlIsMasked(config),
        embeddedDatabase: config.database.target.engine === 'pglite',
      },
      sharing,
      grantForm: emptyGrantForm(),
      ...parts,
    };
  };

  const notFound = (c: Context<DashboardEnv>, message: string) =>
    c.html(<ErrorPage basePath={base} title="Not found" message={message} />, httpStatusOf('NOT_FOUND'));

  app.get('/access', async (c) => c.html(<AccessPage {...(await accessView(c, { notice: accessNotice(c.req.query('notice')) }))} />));

  // Every change here gives out or takes back a way in: it needs a recent sign-in.
  app.post('/access/*', requireFreshSignIn(clock, base));

  // The page that shows a new key is this POST's own response, never a redirect: the key is in
  // no URL, no history entry a later GET could replay, and no cache (no-store).
  app.post('/access/keys', async (c) => {
    const viewer = c.get('viewer');
    const values: KeyFormValues = keyFormValues(await c.req.parseBody({ all: true }));

    let record: ApiKeyRecord;
    let secret: string;
    try {
      // Lite is refused before the form is read: whatever it holds, no key is made there.
      access.keys.checkAccepted();
      const request = checkKeyForm(values, await access.organizations.organizationsOf(viewer.tenant));
      const issued = await access.keys.create(
        {
          userId: viewer.tenant,
          name: request.name,
          organizationId: request.organizationId,
          scopes: request.scopes,
          expiresInDays: request.expiresInDays,
          // The store checks the session is live as it inserts; the key expires no later than the
          // session (and the session's key, when it has one) and is revoked when either ends.
          madeInSession: viewer.sessionId,
        },
        { heldScopes: grantableScopes(viewer) },
      );
      record = issued.record;
      secret = issued.key;
    } catch (error) {
      // Lite has no per-agent keys (spec §5.5): the access service refuses before minting one.
      if (isMemsvcError(error, 'FORBIDDEN') && liteProfile) {
        const message = 'This server runs the lite profile, which accepts no per-agent keys (the standard profile does), so none was made.';
        return c.html(<ErrorPage basePath={base} title="Not on lite" message={message} />, httpStatusOf('FORBIDDEN'));
      }
      if (!FORM_ERRORS.some((code) => isMemsvcError(error, code))) throw error;
      // The form comes back with what was wrong: whatever the refusal's code, the form is what was invalid.
      return c.html(
        <AccessPage {...(await accessView(c, { form: values, error: (error as Error).message }))} />,
        httpStatusOf('INVALID_INPUT'),
      );
    }
    logger.info({ event: 'api_key_created', keyId: record.id, actor: viewer.actor, via: 'dashboard' }, 'API key created');
    c.header('Cache-Control', 'no-store');
    const created = { record, secret, configs: httpConfigs(config.mcp.publicUrl ?? MCP_URL_PLACEHOLDER, secret) };
    return c.html(<AccessPage {...(await accessView(c, { created }))} />);
  });

  app.post('/access/keys/:id/revoke', async (c) => {
    const viewer = c.get('viewer');
    const id = c.req.param('id');
    let already: boolean;
    try {
      // Only a key of the viewer's own tenant: any other id is "no such key", and nothing changes.
      ({ alreadyRevoked: already } = await access.keys.revoke(id, { owner: viewer.tenant }));
    } catch (error) {
      if (!isMemsvcError(error, 'NOT_FOUND')) throw error;
      return notFound(c, 'You have no API key with that id. It may belong to someone else, or never have existed.');
    }
    if (!already) logger.info({ event: 'api_key_revoked', keyId: id, actor: viewer.actor, via: 'dashboard' }, 'API key revoked');
    return c.redirect(pageUrl(base, '/access', { notice: already ? 'key-already-revoked' : 'key-revoked' }), 303);
  });

  registerGrantRoutes(app, dependencies, options, accessView);
  registerEraseAllRoutes(app, dependencies, options, accessView);

  app.post('/access/sessions/end', async (c) => {
    if (!sessions) return notFound(c, 'This server issues no sessions, so there are none to end.');
    const viewer = c.get('viewer');
    const ended = await access.sessions.endAll(viewer.tenant);
    logger.info({ event: 'sessions_ended', count: ended, actor: viewer.actor, via: 'dashboard' }, 'sessions ended');
    clearSessionCookie(c, options);
    return c.redirect(`${base}/sign-in`, 303);
  });
}

/** A lifetime in seconds as people say it: `7 days`, `24 hours`, `30 minutes`. */
function duration(seconds: number): string {
  const units: [number, string][] = [
    [86_400, 'day'],
    [3_600, 'hour'],
    [60, 'minute'],
  ];
  for (const [size, unit] of units) {
    if (seconds >= size && seconds % size === 0) return `${seconds / size} ${unit}${seconds === size ? '' : 's'}`;
  }
  return `${seconds} second${seconds === 1 ? '' : 's'}`;
}
