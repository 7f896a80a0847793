import { MAX_SUPERSEDES, MEMORY_LIMITS, type MemoryTier } from '@memsvc/core';
import { z } from 'zod';

/**
 * Shared argument schemas. Names follow the earlier implementation (`userId`, `memoryId`,
 * `type`, `ttl`, `expectedVersion`, …) so agents written for it keep working. Whole numbers may
 * arrive as numeric strings ("10"), as some clients send them.
 */
export function wholeNumber(min: number, max: number, description: string) {
  return z
    .union([z.number(), z.string().regex(/^\d+$/, 'must be a whole number').transform(Number)])
    .pipe(z.number().int().min(min).max(max))
    .describe(description);
}

export const userIdArgument = z
  .string()
  .describe(
    'Whose memories: the tenant. Optional on the lite profile (its one user, "me" unless MEMSVC_DEFAULT_USER_ID says otherwise) and when the server sets MEMSVC_DEFAULT_USER_ID. Ignored when the call carries an API key or session: the tenant is then the credential\'s (an operator credential with the admin scope may name a tenant the server allows in MEMSVC_OPERATOR_TENANTS).',
  )
  .optional();

export const memoryIdArgument = z.string().min(1).max(64).describe('The memory id, as returned when it was created.');

export const scopeArgument = z
  .string()
  .min(1)
  .max(MEMORY_LIMITS.scopeMaxChars)
  .describe('Optional namespace inside the tenant, matched exactly (for example "project:memsvc").');

export const tagsArgument = z
  .array(z.string().min(1).max(MEMORY_LIMITS.tagMaxChars))
  .max(MEMORY_LIMITS.tagsMax)
  .describe(`Up to ${MEMORY_LIMITS.tagsMax} tags of up to ${MEMORY_LIMITS.tagMaxChars} characters.`);

export const metadataArgument = z.record(z.string(), z.unknown()).describe('A JSON object of your own keys.');

export const tierArgument = z
  .enum(['short-term', 'long-term', 'stm', 'ltm'])
  .describe('short-term (expires after ttl seconds unless promoted) or long-term (kept).');

export function toTier(type: 'short-term' | 'long-term' | 'stm' | 'ltm'): MemoryTier {
  return type === 'short-term' || type === 'stm' ? 'stm' : 'ltm';
}

/**
 * `supersedes` of the write tools. The tool description says when to use it; the engine checks
 * the ids against the tenant's memories (supersession-plan.ts).
 */
export const supersedesArgument = z
  .array(z.string().min(1).max(128))
  .max(MAX_SUPERSEDES)
  .describe(
    `Ids of memories this one replaces, when you know you are recording a change of a fact (a move, a new manager, a changed port or date). ` +
      `Each is retired in the same call: hidden from recall and lists, kept as a version (restore_memory at its previous version undoes it), ` +
      `and listed in "superseded". Up to ${MAX_SUPERSEDES} of your own current memories; an unknown, deleted or already superseded id ` +
      'fails the whole call with INVALID_INPUT (field supersedes) and nothing is stored.',
  );

/** One date format for every date filter: ISO 8601, a date (2026-05-01) or a date-time with Z or an offset. */
export const isoDateArgument = z
  .union([z.iso.date(), z.iso.datetime({ offset: true })])
  .transform((text) => new Date(text))
  .describe('ISO 8601: 2026-05-01, or 2026-05-01T09:30:00Z, or with an offset.');

/** `asOf` of the read tools: a past moment to answer for (as-of-reads.ts in core). */
export const asOfArgument = isoDateArgument.describe(
  'Answer as your memory stood at this past moment (ISO 8601, not before your first memory): the versions current then, ' +
    'including what was edited, deleted or superseded since; nothing written later. Slower than a live read; counts no access.',
);

/** An `asOf` answer's note of the moment and of what it could not rebuild (versions trimmed from the audit, or past the read's bound). */
export function asOfJson(asOf: { asOf: Date; unavailable: number; truncated: boolean } | undefined) {
  return asOf === undefined ? {} : { asOf: { at: asOf.asOf.toISOString(), unavailable: asOf.unavailable, truncated: asOf.truncated } };
}

// Required in the advertised schema (spec §4.3), so a client knows to send it; a call without it
// is refused by the schema check as INVALID_INPUT naming `adminToken`, and still logged as
// admin_auth_denied (createMcpServer's refusedArguments).
export const adminTokenArgument = z
  .string()
  .max(1024)
  .describe('The server operator’s MCP_ADMIN_TOKEN. Every call is logged as admin_auth_ok or admin_auth_denied.');

export const adminUserIdArgument = z.string().optional().describe('Limit the run to this tenant; every tenant when omitted.');
