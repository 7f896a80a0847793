import type { MemsvcConfig } from '@memsvc/config';
import type { Context } from 'hono';
import type { DashboardOptions } from '../../dashboard-dependencies.js';
import type { DashboardEnv } from '../../dashboard-env.js';

/** Where the page learnt the MCP endpoint's address from. */
export type McpAddressSource = 'configured' | 'this-request';

/**
 * The MCP endpoint agents reach: MEMSVC_MCP_URL when set. Otherwise, on the lite profile, when
 * this process is memsvc-server serving MCP over streamable HTTP (the dashboard is mounted under
 * a base path only there), `/mcp` on the origin this request reached: the host and port the
 * server really listens on, as the person's browser reached it. Standard servers sit behind
 * proxies and TLS terminators often enough that only MEMSVC_MCP_URL is trusted there.
 */
export function mcpAddressOf(
  c: Context<DashboardEnv>,
  config: MemsvcConfig,
  options: DashboardOptions,
): { url: string; source: McpAddressSource } | undefined {
  if (config.mcp.publicUrl) return { url: config.mcp.publicUrl, source: 'configured' };
  if (config.profile !== 'lite' || options.basePath === '' || config.mcp.transport !== 'streamable-http') return undefined;
  return { url: `${new URL(c.req.url).origin}/mcp`, source: 'this-request' };
}
