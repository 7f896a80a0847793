export type { HealthReport } from '@memsvc/runtime';
export { HealthChecker } from '@memsvc/runtime';
export { createHttpApp } from './http-app.js';
export { readServerConfig } from './server-config.js';
export { SERVER_VERSION } from './server-version.js';
export type { RunningServer, ServerOverrides } from './start-server.js';
export { SERVER_NAME, startServer } from './start-server.js';
export { mcpToolDependencies } from './tool-dependencies.js';
export { TrafficMeter } from './traffic-meter.js';
