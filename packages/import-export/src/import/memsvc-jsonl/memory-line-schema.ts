import { z } from 'zod';
import { EXPORT_FORMAT } from '../../export/export-format.js';

/**
 * The shapes of a `memsvc-export` file's lines (docs/export-format.md), checked field by field
 * on the way in. Objects are strict: a key this version does not know would be lost on import,
 * so it is refused rather than dropped.
 */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// What the export writes (Date#toISOString): UTC, milliseconds. Anything looser could not round trip.
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

const id = z.string().regex(UUID, 'must be a UUID');
const instant = z
  .string()
  .regex(ISO_INSTANT, 'must be an ISO 8601 UTC time with milliseconds (2026-05-01T12:00:00.000Z)')
  .refine((value) => !Number.isNaN(Date.parse(value)), 'must be a real date')
  .transform((value) => new Date(value));
const jsonObject = z.record(z.string(), z.json());
const fraction = z.number().min(0).max(1);

/** Line 1: only what a reader must check; `filters` and `includes` are informative. */
export const headerLineSchema = z.object({
  format: z.literal(EXPORT_FORMAT),
  version: z.number(),
  exportedAt: z.string(),
  userId: z.string(),
  filters: z.record(z.string(), z.unknown()),
  includes: z.object({ history: z.boolean(), audit: z.boolean(), vectors: z.boolean() }).strict(),
});

const linkSchema = z
  .object({
    id,
    targetMemoryId: id.nullable(),
    targetLocator: z.string().min(1),
    rel: z.enum(['relates-to', 'duplicate-of', 'contradicts', 'superseded-by', 'supersedes', 'derived-from', 'source-of']),
    origin: z.enum(['authored', 'derived']),
    score: z.number().nullable(),
    note: z.string().nullable(),
    metadata: jsonObject,
    createdAt: instant,
  })
  .strict();

const historySchema = z
  .object({
    version: z.number().int().min(1),
    content: z.string().nullable(),
    tags: z.array(z.string()),
    metadata: jsonObject,
    importance: fraction.nullable(),
    pinned: z.boolean(),
    supersededBy: id.nullable(),
    action: z.string().min(1),
    recordedAt: instant,
  })
  .strict();

const auditSchema = z
  .object({
    action: z.string().min(1),
    actor: z.string(),
    version: z.number().int().nullable(),
    before: jsonObject.nullable(),
    after: jsonObject.nullable(),
    createdAt: instant,
  })
  .strict();

/** Every other line: one memory, its links and, when the export included them, history, audit and vector. */
export const memoryLineSchema = z
  .object({
    id,
    tier: z.enum(['stm', 'ltm']),
    scope: z.string().min(1).max(256).nullable(),
    content: z.string().min(1),
    tags: z.array(z.string().min(1)),
    metadata: jsonObject,
    importance: fraction.nullable(),
    importanceScore: z.number(),
    pinned: z.boolean(),
    stale: z.boolean(),
    contradicted: z.boolean(),
    supersededBy: id.nullable(),
    // Files written before changed facts were marked have no `replacedBy`.
    replacedBy: id.nullable().optional(),
    accessCount: z.number().int().min(0).max(2_147_483_647),
    lastAccessedAt: instant.nullable(),
    expiresAt: instant.nullable(),
    deletedAt: instant.nullable(),
    version: z.number().int().min(1).max(2_147_483_647),
    embeddingModel: z.string().nullable(),
    searchContext: z.string().nullable(),
    createdAt: instant,
    updatedAt: instant,
    links: z.array(linkSchema),
    history: z.array(historySchema).optional(),
    audit: z.array(auditSchema).optional(),
    embedding: z
      .object({ vector: z.array(z.number()).min(1), embeddedAt: instant.nullable() })
      .strict()
      .nullable()
      .optional(),
  })
  .strict()
  // The database's rule (spec §2.1): short-term memories always expire, long-term ones never.
  .refine((line) => (line.tier === 'stm') === (line.expiresAt !== null), {
    path: ['expiresAt'],
    message: 'must be set for a stm memory and null for an ltm one',
  });

/** A memory line as parsed. */
export type MemoryLine = z.infer<typeof memoryLineSchema>;
