import { isMemsvcError } from '@memsvc/core';
import type { Hono } from 'hono';
import { callContextOf } from '../../auth/viewer.js';
import type { DashboardDependencies, DashboardOptions } from '../../dashboard-dependencies.js';
import type { DashboardEnv } from '../../dashboard-env.js';
import { frameOf } from '../../views/frame.js';
import { DeletedMemoriesPage } from './deleted-memories-view.js';
import { bulkProblem, countOf, restoredNotice } from './memories-notices.js';
import { MemoriesPage, type MemoryRow, markersOf } from './memories-view.js';
import { dateRange, readMemoryFilters } from './memory-filters.js';
import { undoIdsOf } from './memory-selection.js';

/** Rows a page shows: enough to scan, small enough to stay well under 100 KB. */
const PAGE_SIZE = 50;

/**
 * `/memories`: the list with its filters and search; with `view=deleted`, the deleted memories
 * that can still be restored. The bulk actions are in bulk-routes.tsx.
 */
export function registerMemoriesRoutes(app: Hono<DashboardEnv>, dependencies: DashboardDependencies, options: DashboardOptions): void {
  const { engine } = dependencies.runtime;

  app.get('/memories', async (c) => {
    const viewer = c.get('viewer');
    const filters = readMemoryFilters((name) => c.req.query(name));
    const context = callContextOf(viewer);
    const scope = filters.scope || undefined;
    const tags = filters.tags.length > 0 ? filters.tags : undefined;
    const problem = bulkProblem(c.req.query('problem'));
    const restored = countOf(c.req.query('restored'));
    const notice = restored === undefined ? undefined : restoredNotice(restored, countOf(c.req.query('missed')) ?? 0);

    if (c.req.query('view') === 'deleted') {
      let error: string | undefined;
      const page = await engine
        .list(context, {
          limit: PAGE_SIZE,
          onlyDeleted: true,
          ...(scope ? { scope } : {}),
          ...(tags ? { tags } : {}),
          ...(filters.cursor ? { cursor: filters.cursor } : {}),
        })
        .catch((caught: unknown) => {
          if (!isMemsvcError(caught, 'INVALID_INPUT')) throw caught;
          error = caught.message;
          return { items: [], nextCursor: undefined };
        });
      return c.html(
        <DeletedMemoriesPage
          frame={frameOf(c, options)}
          filters={filters}
          memories={page.items}
          nextCursor={page.nextCursor}
          notice={notice}
          problem={problem}
          error={error}
        />,
      );
    }

    let rows: MemoryRow[] = [];
    let nextCursor: string | undefined;
    let error: string | undefined;
    try {
      if (filters.q) {
        // The same recall agents use, so what a person sees is what an agent gets back.
        const result = await engine.recall(context, {
          query: filters.q,
          limit: PAGE_SIZE,
          tier: filters.tier,
          scope,
          tags,
          ...dateRange(filters),
        });
        rows = result.results
          .filter((ranked) => !filters.marker || markersOf(ranked.memory).includes(filters.marker))
          .map((ranked) => ({ memory: ranked.memory, score: ranked.score }));
      } else {
        const page = await engine.list(context, {
          limit: PAGE_SIZE,
          ...(filters.tier ? { tier: filters.tier } : {}),
          ...(scope ? { scope } : {}),
          ...(tags ? { tags } : {}),
          ...(filters.cursor ? { cursor: filters.cursor } : {}),
          ...(filters.marker ? { marker: filters.marker } : {}),
          ...dateRange(filters),
        });
        rows = page.items.map((memory) => ({ memory }));
        nextCursor = page.nextCursor;
      }
    } catch (caught) {
      if (!isMemsvcError(caught, 'INVALID_INPUT')) throw caught;
      error = caught.message;
    }
    const deletedCount = countOf(c.req.query('deleted'));
    const deleted = deletedCount === undefined ? undefined : { count: deletedCount, ids: undoIdsOf(c.req.queries('undo')) };
    return c.html(
      <MemoriesPage
        frame={frameOf(c, options)}
        filters={filters}
        rows={rows}
        nextCursor={nextCursor}
        deleted={deleted}
        notice={notice}
        problem={problem}
        error={error}
      />,
    );
  });
}
