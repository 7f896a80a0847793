import { z } from 'zod';

/**
 * Tool schemas as an agent reads them in `tools/list`, where every byte is paid for in every
 * session. Two habits keep them small: no `$schema` keyword on each schema (the MCP default
 * dialect reads the keywords used here the same way), and no pattern or bound a model does not
 * need to see (the server still checks them).
 */
const WITHOUT_SCHEMA_KEYWORD = { $schema: undefined } as const;

/** A tool's arguments: exactly these keys, nothing else. */
export function toolInput<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object(shape).strict().meta(WITHOUT_SCHEMA_KEYWORD);
}

/**
 * The typed error every failing tool returns under `structuredContent.error` (tool-result.ts):
 * `{code, message, data?}`, said once in the server instructions rather than in every schema.
 */
const errorOutput = z.unknown();

/**
 * A tool's structured result. Every field is optional because one schema covers three shapes:
 * the success result, the typed error (`{error}`, which the SDK client validates too), and the
 * subset a caller without `memories:read` is shown (content-visibility.ts). Unknown keys are
 * refused, so a field added to a result without its schema fails the tests. A shape with an
 * `error` field of its own (a reindex job's) must admit the typed error's object too.
 */
export function toolOutput<Shape extends z.ZodRawShape>(shape: Shape) {
  return z
    .object({ error: errorOutput, ...shape })
    .partial()
    .meta(WITHOUT_SCHEMA_KEYWORD);
}

/**
 * A memory in a result: the fields an agent acts on, named; the others (tier, tags, metadata,
 * scores, dates) allowed without being spelled out, to keep every schema short. Optional, as a
 * caller without `memories:read` sees only its id and version.
 */
export const memoryOutput = z.looseObject({ id: z.string(), content: z.string(), version: z.number() }).partial();

/** Any JSON object (a job's progress, an audit entry, a summary), advertised as just that. */
export const objectOutput = z.looseObject({}).meta({ properties: undefined, additionalProperties: undefined });

/** Ids of memories. */
export const idsOutput = z.array(z.string());
