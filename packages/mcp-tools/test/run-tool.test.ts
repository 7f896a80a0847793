import { type CallContext, MemsvcError, Secret } from '@memsvc/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  type AdminAuthEvent,
  ANONYMOUS_PRINCIPAL,
  authInfoOf,
  type ObservedCall,
  PRE_SHARED_KEY_PRINCIPAL,
  type Principal,
  principalOf,
  runTool,
  type ToolOutcome,
  type ToolPipeline,
  toolSuccess,
} from '../src/index.js';

const errorOf = (result: { structuredContent?: unknown }) =>
  (result.structuredContent as { error?: { code: string; message: string } }).error;

describe('runTool (the one tool pipeline)', () => {
  it('gives a memory tool the tenant of its userId (else the default) and the principal as audit actor', async () => {
    const seen: CallContext[] = [];
    const body = async (context: CallContext) => {
      seen.push(context);
      return { result: toolSuccess({}), tier: 'ltm' as const };
    };
    const pipeline: ToolPipeline = { defaultUserId: 'fallback' };
    await runTool(
      pipeline,
      { authInfo: authInfoOf(PRE_SHARED_KEY_PRINCIPAL) },
      { kind: 'memory', tool: 'recall', op: 'recall', userId: 'alice' },
      body,
    );
    await runTool(pipeline, {}, { kind: 'memory', tool: 'recall', op: 'recall', userId: undefined }, body);
    expect(seen).toEqual([
      { tenant: 'alice', actor: { id: 'shared-key' } },
      { tenant: 'fallback', actor: { id: 'local' } },
    ]);
    const missing = await runTool({}, {}, { kind: 'memory', tool: 'recall', op: 'recall', userId: undefined }, body);
    expect(errorOf(missing)).toMatchObject({ code: 'INVALID_INPUT' });
    expect(seen).toHaveLength(2);
  });

  it('runs before hooks in order and after hooks in reverse; a refusing hook stops the call with its typed error', async () => {
    const order: string[] = [];
    const outcomes: ToolOutcome[] = [];
    let ran = 0;
    const pipeline: ToolPipeline = {
      hooks: [
        {
          before: () => void order.push('first before'),
          after: (_call, outcome) => {
            order.push('first after');
            outcomes.push(outcome);
          },
        },
        {
          before: (call) => {
            order.push('second before');
            if (call.tool === 'delete_memory') throw new MemsvcError('RATE_LIMITED', 'slow down', { retryAfterSeconds: 3 });
          },
          after: () => void order.push('second after'),
        },
      ],
    };
    const body = async () => {
      ran++;
      return { result: toolSuccess({ ok: true }), tier: 'stm' as const };
    };
    const allowed = await runTool(pipeline, {}, { kind: 'memory', tool: 'get_memory', op: 'get', userId: 'a' }, body);
    expect(allowed.isError).toBeFalsy();
    expect(order).toEqual(['first before', 'second before', 'second after', 'first after']);
    const refused = await runTool(pipeline, {}, { kind: 'memory', tool: 'delete_memory', op: 'delete', userId: 'a' }, body);
    expect(errorOf(refused)).toEqual({ code: 'RATE_LIMITED', message: 'slow down', data: { retryAfterSeconds: 3 } });
    expect(ran).toBe(1);
    expect(outcomes.map(({ status, tier, code }) => ({ status, tier, code }))).toEqual([
      { status: 'success', tier: 'stm', code: undefined },
      { status: 'error', tier: 'none', code: 'RATE_LIMITED' },
    ]);
  });

  it('checks admin tools against the configured token, reports every call, and lets admin calls reach the hooks', async () => {
    const events: AdminAuthEvent[] = [];
    const observed: ObservedCall[] = [];
    const pipeline: ToolPipeline = {
      adminToken: new Secret('operator-token'),
      onAdminAuth: (event) => events.push(event),
      hooks: [{ after: (call) => observed.push(call) }],
    };
    let ran = 0;
    const body = async () => {
      ran++;
      return { result: toolSuccess({ done: true }) };
    };
    const call = (adminToken: string | undefined) => ({ kind: 'admin' as const, tool: 'reindex_memories' as const, adminToken });
    expect(errorOf(await runTool(pipeline, {}, call('wrong'), body))).toMatchObject({ code: 'FORBIDDEN' });
    expect(errorOf(await runTool(pipeline, {}, call(undefined), body))).toMatchObject({ code: 'FORBIDDEN' });
    expect((await runTool(pipeline, {}, call('operator-token'), body)).isError).toBeFalsy();
    const disabled = await runTool({ onAdminAuth: (event) => events.push(event) }, {}, call('operator-token'), body);
    expect(errorOf(disabled)?.message).toMatch(/MCP_ADMIN_TOKEN/);
    expect(ran).toBe(1);
    expect(events.map((event) => event.reason ?? event.event)).toEqual([
      'wrong-token',
      'missing-token',
      'admin_auth_ok',
      'admin-tools-disabled',
    ]);
    expect(JSON.stringify(events)).not.toContain('operator-token');
    expect(observed.map((c) => c.kind)).toEqual(['admin', 'admin', 'admin']);
  });

  it('reports an unexpected failure as INTERNAL without its details, and hands the error to the app', async () => {
    const internal: unknown[] = [];
    const result = await runTool({ onInternalError: (error) => internal.push(error) }, {}, { kind: 'open', tool: 'ping' }, async () => {
      throw new Error('connection string postgres://user:secret@db');
    });
    expect(errorOf(result)?.code).toBe('INTERNAL');
    expect(JSON.stringify(result)).not.toContain('secret');
    expect(internal).toHaveLength(1);
  });

  it('trusts only principals it knows: anything else in authInfo is anonymous', () => {
    expect(principalOf(undefined)).toBe(ANONYMOUS_PRINCIPAL);
    expect(principalOf(authInfoOf(PRE_SHARED_KEY_PRINCIPAL))).toBe(PRE_SHARED_KEY_PRINCIPAL);
    const forged = { token: 'x', clientId: 'x', scopes: [], extra: { principal: { kind: 'pre-shared-key', id: 'root' } } };
    expect(principalOf(forged)).toBe(ANONYMOUS_PRINCIPAL);
    expect(authInfoOf(PRE_SHARED_KEY_PRINCIPAL).token).toBe('');
  });

  it('receives the principal from the transport over MCP (the SDK’s authInfo), never from the arguments', async () => {
    const server = new McpServer({ name: 'pipeline-test', version: '0.0.0' });
    server.registerTool('whoami', { inputSchema: z.object({ userId: z.string() }).strict() }, (args, request) =>
      runTool({}, request, { kind: 'memory', tool: 'get_memory', op: 'get', userId: args.userId }, async (context) => ({
        result: toolSuccess({ tenant: context.tenant, actor: context.actor.id }),
      })),
    );
    const connect = async (principal: Principal | undefined) => {
      const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
      if (principal) {
        const send = clientSide.send.bind(clientSide);
        clientSide.send = (message, options) => send(message, { ...options, authInfo: authInfoOf(principal) });
      }
      await server.server.connect(serverSide);
      const client = new Client({ name: 'test', version: '0.0.0' });
      await client.connect(clientSide);
      return client;
    };
    const keyed = await connect(PRE_SHARED_KEY_PRINCIPAL);
    expect((await keyed.callTool({ name: 'whoami', arguments: { userId: 'bob' } })).structuredContent).toEqual({
      tenant: 'bob',
      actor: 'shared-key',
    });
    await keyed.close();
    const anonymous = await connect(undefined);
    expect((await anonymous.callTool({ name: 'whoami', arguments: { userId: 'bob' } })).structuredContent).toEqual({
      tenant: 'bob',
      actor: 'local',
    });
    await anonymous.close();
  });
});
