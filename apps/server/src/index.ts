export { readServerConfig } from './server-config.js';
