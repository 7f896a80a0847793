import { type CorpusConsolidationResult, isMemsvcError, type MemoryRecord, type SeenCluster } from '@memsvc/core';
import type { Hono } from 'hono';
import { callContextOf } from '../../auth/viewer.js';
import type { DashboardDependencies, DashboardOptions } from '../../dashboard-dependencies.js';
import type { DashboardEnv } from '../../dashboard-env.js';
import { frameOf } from '../../views/frame.js';
import { pageUrl } from '../../views/urls.js';
import { ConsolidationPage, type ShownCluster } from './consolidation-view.js';
import { type FormFields, memoryIds, parseCluster, parseResolution, value, values } from './review-forms.js';
import { reviewNotice } from './review-notices.js';
import { ReviewPage } from './review-view.js';

/** Pairs on one page: each shows two memories side by side. */
const PAIRS_PAGE = 10;
/** Rows of the stale list on one page. */
const FADING_PAGE = 50;
/** The engine's bulk-delete limit. */
const BULK_DELETE_MAX = 100;
/** The review store's most ids per lookup. */
const LOOKUP_MAX = 1000;

const PAIR_CURSOR = /^[0-9a-f-]{36}_[0-9a-f-]{36}$/;
const SCORE_CURSOR = /^[0-9.e+-]{1,32}_[0-9a-f-]{36}$/;
const MEMORY_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * `/review`: contradicted pairs, stale and prune-eligible memories, consolidation clusters to
 * approve — always the viewer's own tenant. Every change is a core use case or the engine,
 * audited as the viewer: resolveContradiction (keep both clears the marks; keep one deletes the
 * other, restorable), the engine's bulk delete, approveConsolidation.
 *
 * Consolidation is offered to every viewer, not only admins: the admin tool (consolidate_corpus)
 * runs across tenants, but here the dry run and the merge are confined to the viewer's tenant,
 * every merge is audited as them and undone by restoring a version, so merging one's own
 * near-duplicates is the same kind of change as deleting one's own memories, which every viewer
 * may make.
 */
export function registerReviewRoutes(app: Hono<DashboardEnv>, dependencies: DashboardDependencies, options: DashboardOptions): void {
  const { engine, maintenance, store, clock, config } = dependencies.runtime;
  const base = options.basePath;
  const rules = {
    halfLifeDays: config.importance.halfLifeDays,
    staleScoreThreshold: config.decay.staleScoreThreshold,
    pruneScoreThreshold: config.decay.pruneScoreThreshold,
    pruneOlderThanDays: config.decay.pruneOlderThanDays,
  };

  app.get('/review', async (c) => {
    const viewer = c.get('viewer');
    const pairsCursor = matching(c.req.query('pairs'), PAIR_CURSOR);
    const fadingCursor = matching(c.req.query('fading'), SCORE_CURSOR);
    const pairs = await store.review.contradictedPairs(viewer.tenant, { limit: PAIRS_PAGE, cursor: pairsCursor });
    const fading = await maintenance.fadingMemories(callContextOf(viewer), {
      limit: FADING_PAGE,
      cursor: fadingCursor,
    });
    return c.html(
      <ReviewPage
        frame={frameOf(c, options)}
        pairs={pairs.pairs}
        pairsCursor={pairsCursor}
        nextPairs={pairs.nextCursor}
        fading={fading.items}
        fadingCursor={fadingCursor}
        nextFading={fading.nextCursor}
        rules={rules}
        notice={reviewNotice((name) => c.req.query(name))}
      />,
    );
  });

  app.post('/review/contradictions/resolve', async (c) => {
    const decision = parseResolution((await c.req.parseBody({ all: true })) as FormFields);
    if (!decision) return c.redirect(reviewUrl(base, 'not-a-pair', 'contradictions'), 303);
    try {
      // NOT_FOUND (no such open pair in the viewer's tenant, another tenant's ids included) is the error page's 404.
      await maintenance.resolveContradiction(callContextOf(c.get('viewer')), decision);
    } catch (error) {
      if (!isMemsvcError(error, 'CONFLICT')) throw error;
      return c.redirect(reviewUrl(base, 'pair-changed', 'contradictions'), 303);
    }
    const done = { 'keep-both': 'kept-both', 'keep-newer': 'kept-newer', 'keep-older': 'kept-older' } as const;
    return c.redirect(reviewUrl(base, done[decision.outcome], 'contradictions'), 303);
  });

  app.post('/review/fading/delete', async (c) => {
    const form = (await c.req.parseBody({ all: true })) as FormFields;
    // A row's own Delete button names one memory; "Delete selected" takes the ticked boxes.
    const only = memoryIds(form, 'only');
    const ids = only.length > 0 ? only.slice(0, 1) : memoryIds(form, 'ids');
    let deleted = 0;
    for (let start = 0; start < ids.length; start += BULK_DELETE_MAX) {
      const result = await engine.bulkDelete(callContextOf(c.get('viewer')), ids.slice(start, start + BULK_DELETE_MAX));
      deleted += result.deleted.length;
    }
    return c.redirect(reviewUrl(base, 'deleted', 'fading', { n: String(deleted) }), 303);
  });

  app.get('/review/consolidation', async (c) => {
    const viewer = c.get('viewer');
    const cursor = matching(c.req.query('cursor'), MEMORY_ID);
    const dryRun = await maintenance.consolidateCorpus({ userId: viewer.tenant, dryRun: true, cursor });
    const clusters = await showClusters(dryRun, (ids) => store.review.memoriesByIds(viewer.tenant, ids));
    return c.html(
      <ConsolidationPage
        frame={frameOf(c, options)}
        dryRun={dryRun}
        clusters={clusters}
        cursor={cursor}
        notice={reviewNotice((name) => c.req.query(name))}
      />,
    );
  });

  app.post('/review/consolidation/approve', async (c) => {
    const form = (await c.req.parseBody({ all: true })) as FormFields;
    const cursor = matching(value(form, 'cursor'), MEMORY_ID);
    const clusters = values(form, 'cluster')
      .map(parseCluster)
      .filter((cluster): cluster is SeenCluster => cluster !== undefined);
    const back = (query: Record<string, string | undefined>) => pageUrl(base, '/review/consolidation', { ...query, cursor });
    if (clusters.length === 0) return c.redirect(back({ notice: 'nothing-approved' }), 303);
    // The dry run's parameters again (this tenant, the default seed limit, the same cursor), so the
    // pass that approves is the pass that was shown; see approveConsolidation for why it is not
    // consolidateCorpus({ dryRun: false }).
    const result = await maintenance.approveConsolidation(callContextOf(c.get('viewer')), { cursor, clusters });
    return c.redirect(back({ notice: 'merged', n: String(result.merged), changed: String(result.changed) }), 303);
  });
}

/** The review page after an action: its notice code, its counts, and the section to land on. */
function reviewUrl(basePath: string, notice: string, anchor: string, query: Record<string, string> = {}): string {
  return `${pageUrl(basePath, '/review', { notice, ...query })}#${anchor}`;
}

function matching(text: string | undefined, pattern: RegExp): string | undefined {
  return text !== undefined && pattern.test(text) ? text : undefined;
}

/**
 * The dry run's clusters with their members' records (the result carries ids only). A cluster
 * with a member gone since the pass read it is not shown: it could not be approved as shown.
 */
async function showClusters(
  dryRun: CorpusConsolidationResult,
  lookup: (ids: readonly string[]) => Promise<readonly MemoryRecord[]>,
): Promise<ShownCluster[]> {
  const ids = dryRun.perCluster.flatMap((cluster) => [cluster.canonicalId, ...cluster.loserIds]);
  const byId = new Map<string, MemoryRecord>();
  for (let start = 0; start < ids.length; start += LOOKUP_MAX) {
    for (const memory of await lookup(ids.slice(start, start + LOOKUP_MAX))) byId.set(memory.id, memory);
  }
  return dryRun.perCluster.flatMap((cluster) => {
    const canonical = byId.get(cluster.canonicalId);
    const losers = cluster.loserIds.map((id, index) => ({ memory: byId.get(id), similarity: cluster.similarities[index] ?? 0 }));
    if (!canonical || losers.some((loser) => loser.memory === undefined)) return [];
    return [{ canonical, losers: losers as ShownCluster['losers'], unionedTags: cluster.unionedTags }];
  });
}
