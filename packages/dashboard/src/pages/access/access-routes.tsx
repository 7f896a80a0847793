import type { Hono } from 'hono';
import type { DashboardDependencies, DashboardOptions } from '../../dashboard-dependencies.js';
import type { DashboardEnv } from '../../dashboard-env.js';

/** `/access`: the viewer's API keys, organizations and members, and "connect an agent". */
export function registerAccessRoutes(_app: Hono<DashboardEnv>, _dependencies: DashboardDependencies, _options: DashboardOptions): void {}
