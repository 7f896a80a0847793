import type { Viewer } from './auth/viewer.js';

/** What a request carries through the dashboard's middleware: its CSRF token and, once signed in, its viewer. */
export interface DashboardEnv {
  Variables: {
    csrfToken: string;
    viewer: Viewer;
  };
}
