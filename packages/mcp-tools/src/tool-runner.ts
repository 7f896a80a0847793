import { type CallContext, type MemoryEngine, type MemoryTier, MemsvcError, toTenantId } from '@memsvc/core';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { toolError } from './tool-result.js';

/** One finished tool call, for the server's metrics. */
export interface ToolObservation {
  readonly tool: string;
  /** Operation label of memsvc_memory_operations_total. */
  readonly op: string;
  readonly tier: MemoryTier | 'none';
  readonly status: 'success' | 'error';
  readonly seconds: number;
  /** `local` until callers are authenticated per agent. */
  readonly agent: string;
}

/** What memory tools need from the composing app. */
export interface MemoryToolDependencies {
  readonly engine: MemoryEngine;
  /** `MEMSVC_DEFAULT_USER_ID`: the tenant when a call names none. */
  readonly defaultUserId?: string | undefined;
  readonly observe?: (observation: ToolObservation) => void;
  readonly onInternalError?: (error: unknown, tool: string) => void;
}

/**
 * Runs a tool body with the caller's context: resolves the tenant (spec §5.1: from the input,
 * falling back to MEMSVC_DEFAULT_USER_ID), maps every failure to a typed tool error, and reports
 * the call for metrics.
 */
export async function runMemoryTool(
  dependencies: MemoryToolDependencies,
  call: { tool: string; op: string; userId: string | undefined },
  body: (context: CallContext) => Promise<{ result: CallToolResult; tier?: MemoryTier }>,
): Promise<CallToolResult> {
  const started = performance.now();
  let tier: MemoryTier | 'none' = 'none';
  let status: 'success' | 'error' = 'error';
  try {
    const context = { tenant: resolveTenant(call.userId, dependencies.defaultUserId), actor: { id: 'local' } };
    const outcome = await body(context);
    tier = outcome.tier ?? 'none';
    status = outcome.result.isError ? 'error' : 'success';
    return outcome.result;
  } catch (error) {
    return toolError(error, (internal) => dependencies.onInternalError?.(internal, call.tool));
  } finally {
    dependencies.observe?.({ tool: call.tool, op: call.op, tier, status, seconds: (performance.now() - started) / 1000, agent: 'local' });
  }
}

function resolveTenant(userId: string | undefined, fallback: string | undefined) {
  const chosen = userId ?? fallback;
  if (chosen === undefined) {
    throw new MemsvcError('INVALID_INPUT', 'userId is required (or configure MEMSVC_DEFAULT_USER_ID on the server)', { field: 'userId' });
  }
  return toTenantId(chosen, 'userId');
}
