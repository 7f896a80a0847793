import { Secret } from '@memsvc/access';
import { type CallContext, MemsvcError, toTenantId } from '@memsvc/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  ADMIN_TOOLS,
  type AdminAuthEvent,
  ANONYMOUS_PRINCIPAL,
  type ApiKeyPrincipal,
  authInfoOf,
  type DelegationEvent,
  type ObservedCall,
  PRE_SHARED_KEY_PRINCIPAL,
  type Principal,
  principalOf,
  runTool,
  type SessionPrincipal,
  TOOL_NAMES,
  TOOL_SCOPES,
  type ToolOutcome,
  type ToolPipeline,
  toolSuccess,
} from '../src/index.js';

const errorOf = (result: { structuredContent?: unknown }) =>
  (result.structuredContent as { error?: { code: string; message: string } }).error;

describe('runTool (the one tool pipeline)', () => {
  it('treats a session like a key: its tenant and scopes, audited as session:<jti>', async () => {
    const seen: CallContext[] = [];
    const body = async (context: CallContext) => {
      seen.push(context);
      return { result: toolSuccess({}), tier: 'ltm' as const };
    };
    const session: SessionPrincipal = {
      kind: 'session',
      id: '5f0b7c1e-2a43-4c55-9d0e-6f7a8b9c0d1e',
      agent: 'login:github',
      tenant: toTenantId('alice'),
      organizationId: null,
      scopes: ['memories:read'],
    };
    const carried = principalOf(authInfoOf(session));
    expect(carried).toEqual(session);
    await runTool({}, { authInfo: authInfoOf(session) }, { kind: 'memory', tool: 'recall', op: 'recall', userId: 'bob' }, body);
    expect(seen).toEqual([{ tenant: 'alice', actor: { id: 'session:5f0b7c1e-2a43-4c55-9d0e-6f7a8b9c0d1e' } }]);
    const write = await runTool(
      {},
      { authInfo: authInfoOf(session) },
      { kind: 'memory', tool: 'remember', op: 'store', userId: undefined },
      body,
    );
    expect(errorOf(write)).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('memories:write') });
    expect(seen).toHaveLength(1);
  });

  it('lets an admin credential act on an operator tenant only, audited as delegated and reported', async () => {
    const seen: CallContext[] = [];
    const events: DelegationEvent[] = [];
    const body = async (context: CallContext) => {
      seen.push(context);
      return { result: toolSuccess({}), tier: 'ltm' as const };
    };
    const operator: ApiKeyPrincipal = {
      kind: 'api-key',
      id: 'op-key',
      tenant: toTenantId('ops'),
      organizationId: null,
      scopes: ['memories:read', 'admin'],
    };
    const plain: ApiKeyPrincipal = { ...operator, id: 'plain-key', scopes: ['memories:read'] };
    const pipeline: ToolPipeline = { operatorTenants: ['carol'], onDelegation: (event) => events.push(event) };
    const recall = (principal: ApiKeyPrincipal, userId: string | undefined) =>
      runTool(pipeline, { authInfo: authInfoOf(principal) }, { kind: 'memory', tool: 'recall', op: 'recall', userId }, body);

    await recall(operator, 'carol');
    await recall(operator, undefined);
    await recall(operator, 'ops');
    await recall(plain, 'carol');
    expect(seen).toEqual([
      { tenant: 'carol', actor: { id: 'delegated:agent:op-key' } },
      { tenant: 'ops', actor: { id: 'agent:op-key' }, apiKeyId: 'op-key' },
      { tenant: 'ops', actor: { id: 'agent:op-key' }, apiKeyId: 'op-key' },
      // Without the admin scope the named tenant is ignored, as for any credential.
      { tenant: 'ops', actor: { id: 'agent:plain-key' }, apiKeyId: 'plain-key' },
    ]);
    expect(events).toEqual([
      { event: 'operator_delegation', tool: 'recall', principal: 'agent:op-key', homeTenant: 'ops', tenant: 'carol' },
    ]);

    const outside = await recall(operator, 'dave');
    expect(errorOf(outside)).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('MEMSVC_OPERATOR_TENANTS') });
    const noList = await runTool(
      {},
      { authInfo: authInfoOf(operator) },
      { kind: 'memory', tool: 'recall', op: 'recall', userId: 'carol' },
      body,
    );
    expect(errorOf(noList)).toMatchObject({ code: 'FORBIDDEN' });
    expect(seen).toHaveLength(4);
    expect(events).toHaveLength(1);
  });

  it('gives an anonymous caller the tenant of its userId (else the default), and the principal as audit actor', async () => {
    const seen: CallContext[] = [];
    const body = async (context: CallContext) => {
      seen.push(context);
      return { result: toolSuccess({}), tier: 'ltm' as const };
    };
    const pipeline: ToolPipeline = { defaultUserId: 'fallback' };
    await runTool(pipeline, {}, { kind: 'memory', tool: 'recall', op: 'recall', userId: 'alice' }, body);
    await runTool(pipeline, {}, { kind: 'memory', tool: 'recall', op: 'recall', userId: undefined }, body);
    expect(seen).toEqual([
      { tenant: 'alice', actor: { id: 'local' } },
      { tenant: 'fallback', actor: { id: 'local' } },
    ]);
    const missing = await runTool({}, {}, { kind: 'memory', tool: 'recall', op: 'recall', userId: undefined }, body);
    expect(errorOf(missing)).toMatchObject({ code: 'INVALID_INPUT' });
    expect(seen).toHaveLength(2);
  });

  it('takes the tenant from the credential: a userId in the input is ignored (spec §5.2)', async () => {
    const seen: CallContext[] = [];
    const body = async (context: CallContext) => {
      seen.push(context);
      return { result: toolSuccess({}), tier: 'ltm' as const };
    };
    const agent: ApiKeyPrincipal = {
      kind: 'api-key',
      id: '0190f1c4-0000-7000-8000-000000000001',
      tenant: toTenantId('alice'),
      organizationId: null,
      scopes: ['memories:read', 'memories:write'],
    };
    const pipeline: ToolPipeline = { defaultUserId: 'team-default' };
    await runTool(pipeline, { authInfo: authInfoOf(agent) }, { kind: 'memory', tool: 'recall', op: 'recall', userId: 'bob' }, body);
    await runTool(
      pipeline,
      { authInfo: authInfoOf(PRE_SHARED_KEY_PRINCIPAL) },
      { kind: 'memory', tool: 'recall', op: 'recall', userId: 'bob' },
      body,
    );
    expect(seen).toEqual([
      // The key rides along so grants made to that key apply; a delegated call above carries none.
      { tenant: 'alice', actor: { id: 'agent:0190f1c4-0000-7000-8000-000000000001' }, apiKeyId: '0190f1c4-0000-7000-8000-000000000001' },
      { tenant: 'team-default', actor: { id: 'shared-key' } },
    ]);
    // The pre-shared key without a default user acts for nobody, rather than for whoever is named.
    const shared = await runTool(
      {},
      { authInfo: authInfoOf(PRE_SHARED_KEY_PRINCIPAL) },
      { kind: 'memory', tool: 'recall', op: 'recall', userId: 'bob' },
      body,
    );
    expect(errorOf(shared)).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining('MEMSVC_DEFAULT_USER_ID') });
    expect(seen).toHaveLength(2);
  });

  it('refuses a tool whose scope the API key lacks, before the body runs, naming the scope', async () => {
    let ran = 0;
    const body = async () => {
      ran++;
      return { result: toolSuccess({}), tier: 'ltm' as const };
    };
    const readOnly: ApiKeyPrincipal = {
      kind: 'api-key',
      id: 'k1',
      tenant: toTenantId('alice'),
      organizationId: null,
      scopes: ['memories:read'],
    };
    const request = { authInfo: authInfoOf(readOnly) };
    expect((await runTool({}, request, { kind: 'memory', tool: 'recall', op: 'recall', userId: undefined }, body)).isError).toBeFalsy();
    for (const [tool, scope] of [
      ['create_memory', 'memories:write'],
      ['ingest_conversation', 'memories:write'],
      ['delete_memory', 'memories:delete'],
      ['forget', 'memories:delete'],
    ] as const) {
      const refused = await runTool({}, request, { kind: 'memory', tool, op: tool, userId: undefined }, body);
      expect(errorOf(refused)).toMatchObject({ code: 'FORBIDDEN', message: expect.stringContaining(scope) });
    }
    expect(ran).toBe(1);
    // Every memory tool has a scope: a tool added without one would be open to every key.
    for (const tool of TOOL_NAMES) {
      if (!ADMIN_TOOLS.has(tool) && tool !== 'ping') expect(TOOL_SCOPES[tool], tool).toBeDefined();
    }
  });

  it('trusts only a well-formed principal from authInfo; anything else is anonymous', () => {
    const agent: ApiKeyPrincipal = { kind: 'api-key', id: 'k2', tenant: toTenantId('alice'), organizationId: 'org-1', scopes: ['admin'] };
    expect(principalOf(authInfoOf(agent))).toEqual(agent);
    const forged = { token: '', clientId: 'x', scopes: [], extra: { principal: { ...agent, scopes: ['root'] } } };
    expect(principalOf(forged)).toBe(ANONYMOUS_PRINCIPAL);
    expect(principalOf({ token: '', clientId: 'x', scopes: [], extra: { principal: { kind: 'api-key', id: 'k3' } } })).toBe(
      ANONYMOUS_PRINCIPAL,
    );
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

  it('reports a database that cannot be reached as a retryable STORAGE_UNAVAILABLE, to the caller and the metrics, still logged', async () => {
    const internal: unknown[] = [];
    const outcomes: ToolOutcome[] = [];
    const pipeline: ToolPipeline = {
      onInternalError: (error) => internal.push(error),
      isStorageUnavailable: (error) => error instanceof Error && error.message.startsWith('gone:'),
      hooks: [{ after: (_call, outcome) => outcomes.push(outcome) }],
    };
    const failing = (message: string) =>
      runTool(pipeline, {}, { kind: 'memory', tool: 'recall', op: 'recall', userId: 'alice' }, async () => {
        throw new Error(message);
      });

    const unavailable = await failing('gone: database "x" is not accepting connections, password=secret');
    expect(unavailable.structuredContent).toEqual({
      error: { code: 'STORAGE_UNAVAILABLE', message: 'the database cannot be reached right now; try again', data: { retryable: true } },
    });
    expect(JSON.stringify(unavailable)).not.toContain('secret');
    // Anything else stays INTERNAL; a typed error keeps its own code whatever the predicate says.
    expect(errorOf(await failing('syntax error at or near "gone"'))?.code).toBe('INTERNAL');
    const typed = await runTool(pipeline, {}, { kind: 'memory', tool: 'recall', op: 'recall', userId: 'alice' }, async () => {
      throw new MemsvcError('NOT_FOUND', 'gone: no such memory');
    });
    expect(errorOf(typed)?.code).toBe('NOT_FOUND');
    expect(outcomes.map((outcome) => outcome.code)).toEqual(['STORAGE_UNAVAILABLE', 'INTERNAL', 'NOT_FOUND']);
    expect(internal.map((error) => (error as Error).message.slice(0, 5))).toEqual(['gone:', 'synta']);
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
    const agent: ApiKeyPrincipal = {
      kind: 'api-key',
      id: 'k9',
      tenant: toTenantId('alice'),
      organizationId: null,
      scopes: ['memories:read'],
    };
    const keyed = await connect(agent);
    expect((await keyed.callTool({ name: 'whoami', arguments: { userId: 'bob' } })).structuredContent).toEqual({
      tenant: 'alice',
      actor: 'agent:k9',
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
