import { type ErasureCheck, type ErasureReceipt, isMemsvcError } from '@memsvc/core';
import { httpStatusOf } from '@memsvc/runtime';
import type { Context, Hono } from 'hono';
import { callContextOf } from '../../auth/viewer.js';
import type { DashboardDependencies, DashboardOptions } from '../../dashboard-dependencies.js';
import type { DashboardEnv } from '../../dashboard-env.js';
import { ErrorPage } from '../../views/error-page.js';
import { frameOf } from '../../views/frame.js';
import { MEMORY_ID_PATTERN, memoryPath } from '../memory/memory-paths.js';
import { peekMemory } from '../memory/peek-memory.js';
import { ConfirmErasePage, ErasedMemoryPage } from './confirm-erase-view.js';
import { ERASURE_ID_PATTERN } from './erasure-paths.js';
import { ErasureCheckPage, ErasureReceiptPage } from './erasure-receipt-view.js';

const ERASE = `/memories/:id{${MEMORY_ID_PATTERN}}/erase`;

/**
 * Erasure for good of one memory from its page (issue 43): `GET …/erase` says what erasing means
 * and asks; `POST …/erase` with `confirmed` erases through the engine, as the viewer, and answers
 * with the receipt itself; `GET /erasures/:id` checks an erasure now. The POST passes the Origin
 * check and CSRF token like every form (create-dashboard.tsx) and needs `memories:delete`, as
 * delete does (page-scopes.ts); only the owner erases, and another tenant's id is "not found".
 */
export function registerErasureRoutes(app: Hono<DashboardEnv>, dependencies: DashboardDependencies, options: DashboardOptions): void {
  const { engine, clock, logger } = dependencies.runtime;
  const base = options.basePath;
  const notFound = (c: Context<DashboardEnv>) =>
    c.html(<ErrorPage basePath={base} title="Not found" message="There is no such memory among yours." />, httpStatusOf('NOT_FOUND'));

  app.get(ERASE, async (c) => {
    const id = c.req.param('id');
    const memory = await peekMemory(engine, callContextOf(c.get('viewer')), id);
    if (memory) return c.html(<ConfirmErasePage frame={frameOf(c, options)} memory={memory} />);
    return (await erasedMemoryPage(c, dependencies, options, id)) ?? notFound(c);
  });

  app.post(ERASE, async (c) => {
    const id = c.req.param('id');
    // Erasing is asked first: a post that did not come from the question goes to it.
    if ((await c.req.parseBody()).confirmed !== '1') return c.redirect(memoryPath(base, id, 'erase'), 303);
    const viewer = c.get('viewer');
    let receipt: ErasureReceipt;
    try {
      receipt = await engine.erase(callContextOf(viewer), [id]);
    } catch (error) {
      // A second click, or another tab: it is gone, and the page says by which erasure.
      if (isMemsvcError(error, 'ERASED')) return (await erasedMemoryPage(c, dependencies, options, id)) ?? notFound(c);
      if (isMemsvcError(error, 'NOT_FOUND')) return notFound(c);
      throw error;
    }
    logErasure(logger, viewer.actor, receipt);
    const back = { href: `${base}/memories`, text: '← All memories' };
    return c.html(<ErasureReceiptPage frame={frameOf(c, options)} section="memories" receipt={receipt} back={back} />);
  });

  app.get(`/erasures/:id{${ERASURE_ID_PATTERN}}`, async (c) => {
    let check: ErasureCheck;
    try {
      check = await engine.verifyErasure(callContextOf(c.get('viewer')), c.req.param('id'));
    } catch (error) {
      if (!isMemsvcError(error, 'NOT_FOUND')) throw error;
      const message = 'You have no erasure with that id. It may be someone else’s, or never have existed.';
      return c.html(<ErrorPage basePath={base} title="Not found" message={message} />, httpStatusOf('NOT_FOUND'));
    }
    return c.html(<ErasureCheckPage frame={frameOf(c, options)} check={check} checkedAt={clock.now()} />);
  });
}

/**
 * The page of a memory an erasure of the viewer's took (410), or undefined when none did: an id
 * that is not the viewer's, or never was, stays "not found".
 */
export async function erasedMemoryPage(
  c: Context<DashboardEnv>,
  dependencies: DashboardDependencies,
  options: DashboardOptions,
  id: string,
): Promise<Response | undefined> {
  const erasure = await dependencies.runtime.store.erasures.erasureOf(c.get('viewer').tenant, id);
  if (!erasure) return undefined;
  return c.html(<ErasedMemoryPage frame={frameOf(c, options)} memoryId={id} erasure={erasure} />, httpStatusOf('ERASED'));
}

/** Ids and counts only: what was erased is never written anywhere again, least of all a log. */
export function logErasure(logger: DashboardDependencies['runtime']['logger'], actor: string, receipt: ErasureReceipt): void {
  const event = { event: 'memories_erased', erasureId: receipt.erasureId, count: receipt.memoryIds.length, actor, via: 'dashboard' };
  logger.info(event, 'memories erased for good');
}
