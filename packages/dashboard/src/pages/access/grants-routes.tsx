import { type CallContext, isMemsvcError, type MemoryGrant, type MemsvcErrorCode } from '@memsvc/core';
import { httpStatusOf } from '@memsvc/runtime';
import type { Context, Hono, MiddlewareHandler } from 'hono';
import { callContextOf, type Viewer } from '../../auth/viewer.js';
import type { DashboardDependencies, DashboardOptions } from '../../dashboard-dependencies.js';
import type { DashboardEnv } from '../../dashboard-env.js';
import { ErrorPage } from '../../views/error-page.js';
import { pageUrl } from '../../views/urls.js';
import type { AccessNoticeCode } from './access-notices.js';
import { AccessPage, type AccessView } from './access-view.js';
import { grantFormFieldOf, grantFormValues, grantRequestOf } from './grant-form.js';
import type { SharingView } from './grants-section.js';

/** Codes whose message is about the form a person sent: the form is shown again with it. */
const FORM_ERRORS: readonly MemsvcErrorCode[] = ['INVALID_INPUT', 'NOT_FOUND', 'CONFLICT'];

/** How an access page is built for this request, with some parts replaced (access-routes.tsx). */
export type AccessViewOf = (c: Context<DashboardEnv>, parts?: Partial<AccessView>) => Promise<AccessView>;

/**
 * The viewer as a grantee or an owner: its tenant, and the API key its session was exchanged for,
 * so a grant made to that key is listed and chosen here as the MCP tools see it (run-tool.ts).
 */
export function sharingContextOf(viewer: Viewer): CallContext {
  return { ...callContextOf(viewer), ...(viewer.keyId ? { apiKeyId: viewer.keyId } : {}) };
}

/** Both sides of the viewer's sharing, and which spaces its reads include by default. */
export async function sharingOf(dependencies: DashboardDependencies, viewer: Viewer): Promise<SharingView> {
  const { engine, access } = dependencies.runtime;
  const context = sharingContextOf(viewer);
  const [{ given, received }, spaces] = await Promise.all([access.grants.list(context), engine.sharedSpaces(context, 'all')]);
  return {
    given,
    received,
    byDefault: new Set(spaces.filter((space) => space.byDefault).map((space) => `${space.owner}\n${space.space}`)),
  };
}

/**
 * `/access/grants` and `/access/shared`: share a space of the viewer's memories, end a share,
 * and choose whether a space shared with the viewer is in its reads by default. Every action goes
 * through the access service and the engine, as the viewer (the owner is never a form field), behind the Access page's
 * guards: the Origin check and CSRF token (create-dashboard.tsx), keys:manage and a recent sign-in
 * (access-routes.tsx), as `grant_access` needs keys:manage.
 */
export function registerGrantRoutes(
  app: Hono<DashboardEnv>,
  dependencies: DashboardDependencies,
  options: DashboardOptions,
  accessView: AccessViewOf,
): void {
  const { config, engine, access, logger } = dependencies.runtime;
  const base = options.basePath;
  const back = (c: Context<DashboardEnv>, notice: AccessNoticeCode) => c.redirect(pageUrl(base, '/access', { notice }), 303);
  const notFound = (c: Context<DashboardEnv>, message: string) =>
    c.html(<ErrorPage basePath={base} title="Not found" message={message} />, httpStatusOf('NOT_FOUND'));

  // Lite has one person (spec §5.5): there is no one to share with, and the page offers no form.
  const notOnLite: MiddlewareHandler<DashboardEnv> = async (c, next) => {
    if (config.profile !== 'lite') return next();
    const message = 'This server runs the lite profile, which has one person: there is no one to share a space with.';
    return c.html(<ErrorPage basePath={base} title="Not on lite" message={message} />, httpStatusOf('FORBIDDEN'));
  };
  app.post('/access/grants', notOnLite);
  app.post('/access/grants/*', notOnLite);
  app.post('/access/shared/*', notOnLite);

  app.post('/access/grants', async (c) => {
    const viewer = c.get('viewer');
    const values = grantFormValues(await c.req.parseBody());
    let grant: MemoryGrant;
    try {
      grant = await access.grants.create(sharingContextOf(viewer), grantRequestOf(values));
    } catch (error) {
      if (!isMemsvcError(error) || !FORM_ERRORS.includes(error.code)) throw error;
      const grantError = { field: grantFormFieldOf(error), message: error.message };
      return c.html(<AccessPage {...(await accessView(c, { grantForm: values, grantError }))} />, httpStatusOf('INVALID_INPUT'));
    }
    // Ids only: a space's name is the owner's words, kept out of the log like content.
    logger.info(
      { event: 'grant_created', grantId: grant.id, granteeKind: grant.grantee.kind, actor: viewer.actor, via: 'dashboard' },
      'grant created',
    );
    return back(c, 'grant-created');
  });

  app.post('/access/grants/:id/revoke', async (c) => {
    const viewer = c.get('viewer');
    const id = c.req.param('id');
    const context = sharingContextOf(viewer);
    try {
      await access.grants.revoke(context, id);
    } catch (error) {
      if (!isMemsvcError(error, 'NOT_FOUND')) throw error;
      // Revoked already (another tab, the CLI, an agent) is said so; anyone else's grant is "no such grant".
      const { given } = await access.grants.list(context);
      if (given.some((grant) => grant.id === id)) return back(c, 'grant-already-ended');
      return notFound(c, 'You share no space with that grant id. It may be someone else’s, or never have existed.');
    }
    logger.info({ event: 'grant_revoked', grantId: id, actor: viewer.actor, via: 'dashboard' }, 'grant revoked');
    return back(c, 'grant-revoked');
  });

  app.post('/access/shared/:id/default', async (c) => {
    const context = sharingContextOf(c.get('viewer'));
    const id = c.req.param('id');
    const byDefault = (await c.req.parseBody()).by_default === 'true';
    const { received } = await access.grants.list(context);
    const chosen = received.find((grant) => grant.id === id);
    if (!chosen) return notFound(c, 'No live grant with that id shares a space with you. It may have been revoked or have expired.');
    // The page shows the choice per space (several grants may reach one: to you and to your
    // organization), so "stop" clears it on each of them; otherwise the space would stay in.
    const grants = byDefault ? [chosen] : received.filter((grant) => grant.owner === chosen.owner && grant.space === chosen.space);
    for (const grant of grants) await engine.chooseSharedDefault(context, grant.id, byDefault);
    return back(c, byDefault ? 'shared-default-on' : 'shared-default-off');
  });
}
