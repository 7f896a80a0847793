export { dashboardLoginFlow } from './auth/dashboard-login-flow.js';
export { createDashboard, mountDashboard } from './create-dashboard.js';
export type { DashboardDependencies, DashboardOptions, StdioServerCommand } from './dashboard-dependencies.js';
export { cookiesMustBeSecure } from './security/secure-cookies.js';
