import { createMcpServer } from '@memsvc/mcp-tools';
import { createLogger, openRuntime } from '@memsvc/runtime';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { mcpToolDependencies, readServerConfig, SERVER_NAME, SERVER_VERSION } from '../../src/index.js';
import { serverEnv, startHttpServer } from './server-process.js';

/** An MCP client connected to memsvc's tools, with what the server logged and counted. */
export interface ToolConnection {
  readonly client: Client;
  /** The Prometheus text of /health/metrics. */
  metricsText(): Promise<string>;
  /** The JSON log lines written so far. */
  logText(): string;
  close(): Promise<void>;
}

/**
 * The server's own composition (runtime, tool dependencies, its jobs when MEMSVC_SERVER_JOBS says) in this
 * process, with the client on the SDK's linked in-memory transport: the tools as the server
 * runs them, without a process, a port or HTTP.
 */
export async function inProcessConnection(env: Record<string, string>): Promise<ToolConnection> {
  const { config } = readServerConfig(serverEnv(env), '/tmp');
  let logged = '';
  const logger = createLogger(config.logLevel, {
    write: (line: string) => {
      logged += line;
    },
  });
  const runtime = await openRuntime(config, { applicationName: 'memsvc-in-process-test', logger });
  if (config.serverJobs) runtime.startJobs({ unref: true });
  const server = createMcpServer({ name: SERVER_NAME, version: SERVER_VERSION }, mcpToolDependencies(runtime));
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await server.connect(serverSide);
  const client = new Client({ name: 'in-process', version: '0.0.0' });
  await client.connect(clientSide);
  return {
    client,
    metricsText: () => runtime.metrics.registry.metrics(),
    logText: () => logged,
    close: async () => {
      await client.close();
      await server.close();
      await runtime.close();
    },
  };
}

/** The built server as a process over streamable HTTP: what a deployed client gets. */
export async function httpConnection(env: Record<string, string>): Promise<ToolConnection> {
  const server = await startHttpServer(env);
  const client = new Client({ name: 'e2e', version: '0.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`)));
  return {
    client,
    metricsText: async () => (await fetch(`${server.url}/health/metrics`)).text(),
    logText: () => server.stderr(),
    close: async () => {
      await client.close();
      await server.stop();
    },
  };
}

/** How the tool suites reach the tools: in process (every engine) and end to end over HTTP. */
export const TOOL_CONNECTIONS = [
  { transport: 'in-process', connect: inProcessConnection },
  { transport: 'streamable HTTP', connect: httpConnection },
] as const;
