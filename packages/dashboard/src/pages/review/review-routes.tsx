import type { Hono } from 'hono';
import type { DashboardDependencies, DashboardOptions } from '../../dashboard-dependencies.js';
import type { DashboardEnv } from '../../dashboard-env.js';

/** `/review`: contradicted pairs, stale and prune-eligible memories, consolidation clusters to approve. */
export function registerReviewRoutes(_app: Hono<DashboardEnv>, _dependencies: DashboardDependencies, _options: DashboardOptions): void {}
