import type { Hono } from 'hono';
import type { DashboardDependencies, DashboardOptions } from '../../dashboard-dependencies.js';
import type { DashboardEnv } from '../../dashboard-env.js';

/** `/operations` (admin): health, reindex jobs, scheduler runs, metrics over time. */
export function registerOperationsRoutes(
  _app: Hono<DashboardEnv>,
  _dependencies: DashboardDependencies,
  _options: DashboardOptions,
): void {}
