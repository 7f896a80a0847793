export { readDashboardConfig } from './dashboard-config.js';
export type { DashboardOverrides, RunningDashboard } from './start-dashboard.js';
export { startDashboard } from './start-dashboard.js';
