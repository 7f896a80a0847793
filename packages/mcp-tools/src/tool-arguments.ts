import { MAX_NAMED_SPACES, MAX_SUPERSEDES, MEMORY_LIMITS, type MemoryTier } from '@memsvc/core';
import { z } from 'zod';

/**
 * Shared argument schemas. Names follow the earlier implementation (`userId`, `memoryId`,
 * `type`, `ttl`, `expectedVersion`, …) so agents written for it keep working. Whole numbers may
 * arrive as numeric strings ("10"), as some clients send them.
 */
export function wholeNumber(min: number, max: number, description: string) {
  return (
    z
      .union([z.number(), z.string().regex(/^\d+$/, 'must be a whole number').transform(Number)])
      .pipe(z.number().int().min(min).max(max))
      .describe(description)
      // Advertised as what an agent should send, an integer in range, not as the union accepted.
      .meta({ anyOf: undefined, type: 'integer', minimum: min, maximum: max })
  );
}

// The tenant rules (spec §5.1, §5.2: a credential's own tenant wins, the server's default user
// when none is named) are the pipeline's (run-tool.ts); the agent only needs to know it may omit it.
export const userIdArgument = z.string().describe('Whose memories; omit for your own.').optional();

/** `actorLabel`, accepted for compatibility with the earlier implementation and ignored: the audit names the caller. */
export const ignoredArgument = z.string().max(256).describe('Ignored.').optional();

export const memoryIdArgument = z.string().min(1).max(64).describe('Memory id.');

export const scopeArgument = z.string().min(1).max(MEMORY_LIMITS.scopeMaxChars).describe('Namespace (e.g. "project:x").');

export const tagsArgument = z.array(z.string().min(1).max(MEMORY_LIMITS.tagMaxChars)).max(MEMORY_LIMITS.tagsMax).describe('Tags.');

export const metadataArgument = z
  .record(z.string(), z.unknown())
  .describe('Your own JSON keys.')
  .meta({ propertyNames: undefined, additionalProperties: undefined });

export const tierArgument = z.enum(['short-term', 'long-term', 'stm', 'ltm']).describe('short-term (expires after ttl) or long-term.');

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
  .describe('Ids of your memories this one replaces (a fact changed): they are retired in the same call.');

const isoDate = z.union([z.iso.date(), z.iso.datetime({ offset: true })]);

/**
 * One date format for every date filter: ISO 8601, a date (2026-05-01) or a date-time with Z or
 * an offset. Checked here rather than as a JSON-schema pattern, which would cost every listing a
 * kilobyte per date argument.
 */
export const isoDateArgument = z
  .string()
  .max(64)
  .superRefine((text, context) => {
    if (!isoDate.safeParse(text).success) context.addIssue({ code: 'custom', message: 'must be an ISO 8601 date or date-time' });
  })
  .transform((text) => new Date(text))
  .describe('ISO 8601 date or date-time.');

/** `asOf` of the read tools: a past moment to answer for (as-of-reads.ts in core). */
export const asOfArgument = isoDateArgument.describe('Answer as of this past moment (ISO 8601).');

/** An `asOf` answer's note of the moment and of what it could not rebuild (versions trimmed from the audit, or past the read's bound). */
export function asOfJson(asOf: { asOf: Date; unavailable: number; truncated: boolean } | undefined) {
  return asOf === undefined ? {} : { asOf: { at: asOf.asOf.toISOString(), unavailable: asOf.unavailable, truncated: asOf.truncated } };
}

// Required in the advertised schema (spec §4.3), so a client knows to send it; a call without it
// is refused by the schema check as INVALID_INPUT naming `adminToken`, and still logged as
// admin_auth_denied (createMcpServer's refusedArguments).
export const adminTokenArgument = z.string().max(1024).describe("The operator's admin token.");

export const adminUserIdArgument = z.string().optional().describe('Only this tenant; every tenant when omitted.');

/** A space shared with the caller by grant: its owner and scope. */
export const spaceNameArgument = z
  .object({ owner: z.string().min(1).max(128), space: z.string().min(1).max(MEMORY_LIMITS.scopeMaxChars) })
  .strict();

/** `shared` of the read tools: which spaces shared with the caller are read besides its own memories. */
export const sharedArgument = z
  .union([z.enum(['default', 'all', 'none']), z.array(spaceNameArgument).min(1).max(MAX_NAMED_SPACES)])
  .describe('Spaces shared with you to include: default (the ones you chose), all, none, or [{owner, space}].');

/** How a hit from a shared space is labelled: whose memory it is and which space it came through. */
export function sharedLabel(memory: { userId: string; scope: string | null }, reader: string) {
  return memory.userId === reader ? {} : { shared: { owner: memory.userId, space: memory.scope } };
}
