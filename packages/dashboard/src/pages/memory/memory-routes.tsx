import type { Hono } from 'hono';
import type { DashboardDependencies, DashboardOptions } from '../../dashboard-dependencies.js';
import type { DashboardEnv } from '../../dashboard-env.js';

/** `/memories/:id`: one memory, its history, audit and links, and the changes a person can make. */
export function registerMemoryRoutes(_app: Hono<DashboardEnv>, _dependencies: DashboardDependencies, _options: DashboardOptions): void {}
