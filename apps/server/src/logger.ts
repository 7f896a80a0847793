// The server and the worker log the same way; the logger lives with the worker, which the
// server runs in-process.
export type { Logger } from '@memsvc/worker';
export { createLogger } from '@memsvc/worker';
