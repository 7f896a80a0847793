import { isMemsvcError, type MemoryRecord } from '@memsvc/core';
import type { Context, Hono } from 'hono';
import { callContextOf } from '../../auth/viewer.js';
import type { DashboardDependencies, DashboardOptions } from '../../dashboard-dependencies.js';
import type { DashboardEnv } from '../../dashboard-env.js';
import { frameOf } from '../../views/frame.js';
import { pageUrl } from '../../views/urls.js';
import { ConfirmDeletePage } from './confirm-delete-view.js';
import type { BulkProblem } from './memories-notices.js';
import { selectionOf } from './memory-selection.js';

/**
 * The memories list's bulk actions. A delete asks first (the answer posts the same ids with
 * `confirmed`), then comes back with an undo that restores exactly the memories it deleted; a
 * restore takes the ticked deleted memories, one row's button, or an undo's ids. Both pass the
 * Origin and CSRF checks like every POST, and act only within the viewer's tenant: another
 * tenant's id is "not found" to the engine and changes nothing.
 */
export function registerBulkRoutes(app: Hono<DashboardEnv>, dependencies: DashboardDependencies, options: DashboardOptions): void {
  const { engine } = dependencies.runtime;
  const base = options.basePath;
  /** Back to the list, scrolled to the action that did nothing, which says why. */
  const refused = (c: Context<DashboardEnv>, problem: BulkProblem, view?: 'deleted') =>
    c.redirect(`${pageUrl(base, '/memories', { view, problem })}#bulk-actions`, 303);

  app.post('/memories/delete', async (c) => {
    const form = await c.req.parseBody({ all: true });
    const selection = selectionOf(form);
    if (!selection.ok) return refused(c, selection.problem);
    const context = callContextOf(c.get('viewer'));
    if (form.confirmed !== '1') {
      // The question shows what would go: only the viewer's live memories among the ids.
      const memories: MemoryRecord[] = [];
      for (const id of selection.ids) {
        const memory = await engine.getUncounted(context, id).catch((error: unknown) => {
          if (isMemsvcError(error, 'NOT_FOUND')) return undefined;
          throw error;
        });
        if (memory) memories.push(memory);
      }
      if (memories.length === 0) return refused(c, 'already-gone');
      return c.html(<ConfirmDeletePage frame={frameOf(c, options)} memories={memories} back={`${base}/memories`} />);
    }
    const result = await engine.bulkDelete(context, selection.ids);
    // The undo carries the ids this delete took, and only those: not one that was gone already.
    const query = new URLSearchParams({ deleted: String(result.deleted.length) });
    for (const id of result.deleted) query.append('undo', id);
    return c.redirect(`${base}/memories?${query}`, 303);
  });

  app.post('/memories/restore', async (c) => {
    const form = await c.req.parseBody({ all: true });
    const view = form.from === 'undo' ? undefined : 'deleted';
    const selection = selectionOf(form);
    if (!selection.ok) return refused(c, selection.problem, view);
    const context = callContextOf(c.get('viewer'));
    let restored = 0;
    for (const id of selection.ids) {
      try {
        await engine.restore(context, id);
        restored += 1;
      } catch (error) {
        // CONFLICT: not deleted (restored already); NOT_FOUND: purged, expired, or not the viewer's.
        if (!isMemsvcError(error, 'CONFLICT') && !isMemsvcError(error, 'NOT_FOUND')) throw error;
      }
    }
    const missed = selection.ids.length - restored;
    return c.redirect(pageUrl(base, '/memories', { view, restored: String(restored), missed: String(missed) }), 303);
  });
}
