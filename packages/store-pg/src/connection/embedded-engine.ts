// The embedded engine's code, loaded on demand as one module (open-database.ts): a server on
// PostgreSQL never parses it, and the bundle has one entry into it, not several that share chunks.
export { openPglite } from './pglite-instance.js';
export { yieldToEventLoopBeforeEachStatement } from './pglite-statement-yield.js';
export { openSharedPglite } from './shared-pglite.js';
