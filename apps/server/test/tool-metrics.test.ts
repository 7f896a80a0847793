import { toTenantId } from '@memsvc/core';
import { ANONYMOUS_PRINCIPAL, type ObservedCall, type SessionPrincipal } from '@memsvc/mcp-tools';
import { createMetrics } from '@memsvc/runtime';
import { describe, expect, it } from 'vitest';
import { toolMetrics } from '../src/tool-metrics.js';

const outcome = { status: 'success' as const, tier: 'ltm' as const, seconds: 0.004 };

describe('the tool metrics hook', () => {
  it('counts admin tools under their name, and store/recall per agent with a bounded, anonymous label', async () => {
    const metrics = createMetrics('standard', async () => true);
    const hook = toolMetrics(metrics);
    const viaLogin: SessionPrincipal = {
      kind: 'session',
      id: '0d5c2f1e-0000-4000-8000-00000000abcd',
      agent: 'login:github',
      tenant: toTenantId('ada@example.com'),
      organizationId: null,
      scopes: ['memories:read', 'memories:write'],
    };
    const calls: [ObservedCall, typeof outcome][] = [
      [
        { kind: 'admin', tool: 'reindex_memories', adminToken: 'secret-token', principal: ANONYMOUS_PRINCIPAL },
        { ...outcome, tier: 'none' as never },
      ],
      [{ kind: 'memory', tool: 'remember', op: 'create', userId: undefined, principal: viaLogin }, outcome],
      [{ kind: 'memory', tool: 'recall', op: 'recall', userId: 'alice', principal: ANONYMOUS_PRINCIPAL }, outcome],
      [{ kind: 'open', tool: 'ping', principal: ANONYMOUS_PRINCIPAL }, outcome],
    ];
    for (const [call, ended] of calls) hook.after?.(call, ended);
    const text = await metrics.registry.metrics();
    expect(text).toContain('memsvc_memory_operations_total{op="reindex_memories",tier="none",status="success"} 1');
    expect(text).toContain('memsvc_agent_memory_operations_total{agent="login:github",op="store",status="success"} 1');
    expect(text).toContain('memsvc_agent_memory_operations_total{agent="local",op="recall",status="success"} 1');
    expect(text).not.toContain('op="ping"');
    for (const secret of ['secret-token', 'ada@example.com', viaLogin.id, 'alice']) expect(text).not.toContain(secret);
  });
});
