import type { Context } from 'hono';
import type { DashboardOptions } from '../dashboard-dependencies.js';
import type { DashboardEnv } from '../dashboard-env.js';
import type { PageFrame } from './layout.js';

/** What every signed-in page needs from its request. */
export function frameOf(c: Context<DashboardEnv>, options: DashboardOptions): PageFrame {
  return { basePath: options.basePath, viewer: c.get('viewer'), csrfToken: c.get('csrfToken') };
}
