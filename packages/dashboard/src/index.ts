export { dashboardLoginFlow } from './auth/dashboard-login-flow.js';
export { createDashboard } from './create-dashboard.js';
export type { DashboardDependencies, DashboardOptions } from './dashboard-dependencies.js';
