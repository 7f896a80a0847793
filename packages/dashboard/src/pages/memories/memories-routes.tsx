import { isMemsvcError } from '@memsvc/core';
import type { Hono } from 'hono';
import { callContextOf } from '../../auth/viewer.js';
import type { DashboardDependencies, DashboardOptions } from '../../dashboard-dependencies.js';
import type { DashboardEnv } from '../../dashboard-env.js';
import { frameOf } from '../../views/frame.js';
import { pageUrl } from '../../views/urls.js';
import { MemoriesPage, type MemoryRow, markersOf } from './memories-view.js';
import { dateRange, readMemoryFilters } from './memory-filters.js';

/** Rows a page shows: enough to scan, small enough to stay well under 100 KB. */
const PAGE_SIZE = 50;
/** How many of the selected memories one bulk delete takes (the engine's bulk limit). */
const BULK_DELETE_MAX = 100;

/** `/memories`: the list with its filters and search, and bulk delete. */
export function registerMemoriesRoutes(app: Hono<DashboardEnv>, dependencies: DashboardDependencies, options: DashboardOptions): void {
  const { engine } = dependencies.runtime;

  app.get('/memories', async (c) => {
    const viewer = c.get('viewer');
    const filters = readMemoryFilters((name) => c.req.query(name));
    const context = callContextOf(viewer);
    const scope = filters.scope || undefined;
    const tags = filters.tags.length > 0 ? filters.tags : undefined;
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
    const deleted = Number(c.req.query('deleted'));
    const notice = Number.isInteger(deleted) && deleted >= 0 && c.req.query('deleted') !== undefined ? `${deleted} deleted.` : undefined;
    return c.html(
      <MemoriesPage frame={frameOf(c, options)} filters={filters} rows={rows} nextCursor={nextCursor} notice={notice} error={error} />,
    );
  });

  app.post('/memories/delete', async (c) => {
    const form = await c.req.parseBody({ all: true });
    const ids = [form.ids ?? []].flat().filter((id): id is string => typeof id === 'string' && /^[0-9a-f-]{36}$/.test(id));
    let deleted = 0;
    for (let start = 0; start < ids.length; start += BULK_DELETE_MAX) {
      const result = await engine.bulkDelete(callContextOf(c.get('viewer')), ids.slice(start, start + BULK_DELETE_MAX));
      deleted += result.deleted.length;
    }
    return c.redirect(pageUrl(options.basePath, '/memories', { deleted: String(deleted) }), 303);
  });
}
