export type { ScheduledJob, ScheduledJobName } from './scheduled-jobs.js';
export { scheduledJobs } from './scheduled-jobs.js';
