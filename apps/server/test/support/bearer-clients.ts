import type { Scope } from '@memsvc/access';
import { mintApiKey } from '@memsvc/auth';
import { toTenantId } from '@memsvc/core';
import type { MemsvcStore } from '@memsvc/store-pg';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';

/** A per-agent key stored straight into the database (as `memsvc keys create` does): its id and the raw key. */
export async function storeApiKey(
  store: MemsvcStore,
  key: {
    readonly user: string;
    readonly name: string;
    readonly scopes: readonly Scope[];
    readonly organizationId?: string;
    readonly expiresAt?: Date;
  },
): Promise<{ id: string; key: string }> {
  const minted = mintApiKey();
  const record = await store.apiKeys.create({
    userId: toTenantId(key.user),
    name: key.name,
    scopes: key.scopes,
    organizationId: key.organizationId,
    expiresAt: key.expiresAt,
    prefix: minted.prefix,
    keyHash: minted.keyHash,
  });
  return { id: record.id, key: minted.key };
}

/** Clients that send a bearer credential on every request; closes them all at the end of a file. */
export class BearerClients {
  readonly #open: Client[] = [];

  /** An MCP client of a server's `/mcp`, sending `Authorization: Bearer <token>`. */
  async connect(serverUrl: string, token: string): Promise<Client> {
    const client = new Client({ name: 'bearer-e2e', version: '0.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${serverUrl}/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}` } } }),
    );
    this.#open.push(client);
    return client;
  }

  async closeAll(): Promise<void> {
    for (const client of this.#open.splice(0)) await client.close().catch(() => undefined);
  }
}

/** The HTTP status of one `ping` tool call sent with this bearer token (no MCP session needed). */
export async function pingStatus(serverUrl: string, token: string): Promise<number> {
  const answer = await fetch(`${serverUrl}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', authorization: `Bearer ${token}` },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'ping', arguments: {} } }),
  });
  await answer.body?.cancel();
  return answer.status;
}
