import { httpStatusOf } from '@memsvc/runtime';
import type { Hono } from 'hono';
import { callContextOf } from '../../auth/viewer.js';
import type { DashboardDependencies, DashboardOptions } from '../../dashboard-dependencies.js';
import type { DashboardEnv } from '../../dashboard-env.js';
import { frameOf } from '../../views/frame.js';
import { ErasureReceiptPage } from '../erasure/erasure-receipt-view.js';
import { logErasure } from '../erasure/erasure-routes.js';
import { AccessPage } from './access-view.js';
import { ERASE_ALL_CONFIRM_FIELD } from './erase-all-section.js';
import type { AccessViewOf } from './grants-routes.js';

/**
 * `POST /access/erase-all`: erases every memory of the viewer (`MemoryEngine.eraseAll`) when the
 * form carries their own user id, typed, and answers with the receipt. Behind the Access page's
 * guards (access-routes.tsx): the Origin check and CSRF token, `keys:manage` and a recent sign-in,
 * and `memories:delete` besides (page-scopes.ts). A wrong or missing id erases nothing.
 */
export function registerEraseAllRoutes(
  app: Hono<DashboardEnv>,
  dependencies: DashboardDependencies,
  options: DashboardOptions,
  accessView: AccessViewOf,
): void {
  const { engine, logger } = dependencies.runtime;

  app.post('/access/erase-all', async (c) => {
    const viewer = c.get('viewer');
    const typed = (await c.req.parseBody())[ERASE_ALL_CONFIRM_FIELD];
    // Exactly the id the page shows (spaces around it forgiven): a near miss is not a yes.
    if (typeof typed !== 'string' || typed.trim() !== viewer.tenant) {
      const eraseAllError = 'Nothing was erased: the id typed is not your user id. Type it exactly as shown to erase all your memories.';
      return c.html(<AccessPage {...(await accessView(c, { eraseAllError }))} />, httpStatusOf('INVALID_INPUT'));
    }
    const receipt = await engine.eraseAll(callContextOf(viewer));
    logErasure(logger, viewer.actor, receipt);
    const back = { href: `${options.basePath}/access`, text: '← Access' };
    return c.html(<ErasureReceiptPage frame={frameOf(c, options)} section="access" receipt={receipt} back={back} />);
  });
}
