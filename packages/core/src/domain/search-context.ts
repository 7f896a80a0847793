import { formatSearchDate, resolveRelativeDates } from './temporal-context.js';

/** How much of each neighbouring turn is indexed with a memory. */
export const NEIGHBOUR_CONTEXT_CHARS = 600;
/**
 * How many turns before a memory are indexed with it. Measured on the conversational benchmark
 * (ingest, evidence-recall@5): one turn 0.632, two 0.642, three 0.636.
 */
export const NEIGHBOUR_TURNS = 2;
/** How much of the caller's metadata is indexed with a memory. */
const METADATA_CONTEXT_CHARS = 600;

/** What a memory can be found by besides its own words (spec-free: memsvc's choice, documented in docs/). */
export interface SearchContextSources {
  /** The memory's own text: its relative dates ("yesterday") are resolved against `date`. */
  readonly content: string;
  /** When it was said or written (a conversation's date), if known. */
  readonly date?: Date | undefined;
  /** Who said it; indexed unless the content already names them. */
  readonly speaker?: string | undefined;
  /**
   * What was said just before it in the same conversation, nearest first. An answer often comes
   * a turn or two after the words a question will use ("What concert was it?" — "It was Matt
   * Patterson"), so the nearest NEIGHBOUR_TURNS are indexed with it, without their speakers: who
   * spoke before a memory is not what the memory is about.
   */
  readonly previous?: readonly string[] | undefined;
  readonly scope?: string | null | undefined;
  readonly tags?: readonly string[] | undefined;
  /** The caller's metadata: its words (keys and text values) are indexed too. */
  readonly metadata?: Readonly<Record<string, unknown>> | undefined;
}

/**
 * The search representation of a memory beyond its content: the date written the ways people
 * ask for it, absolute dates for the relative ones in the text, the speaker, the turns before it,
 * scope, tags and the metadata's words. Indexed for full text at a lower weight than the content
 * (LEXICAL_RANKING.contextWeight), never embedded (the vector, which the write rules compare, is
 * the content's) and never returned: the content stays as written. Undefined when there is
 * nothing to add.
 */
export function buildSearchContext(sources: SearchContextSources): string | undefined {
  const parts: string[] = [];
  if (sources.date && !Number.isNaN(sources.date.getTime())) {
    parts.push(`on ${formatSearchDate(sources.date)}`);
    const resolved = resolveRelativeDates(sources.content, sources.date);
    if (resolved.length > 0) parts.push(`when: ${resolved.join('; ')}`);
  }
  if (sources.speaker && !sources.content.toLowerCase().includes(sources.speaker.toLowerCase())) parts.push(`speaker ${sources.speaker}`);
  for (const previous of (sources.previous ?? []).slice(0, NEIGHBOUR_TURNS)) {
    parts.push(neighbourQuote(previous));
  }
  if (sources.scope) parts.push(`scope ${sources.scope}`);
  if (sources.tags && sources.tags.length > 0) parts.push(`tags ${sources.tags.join(' ')}`);
  const metadataWords = sources.metadata ? metadataText(withoutConversationKeys(sources.metadata)).slice(0, METADATA_CONTEXT_CHARS) : '';
  if (metadataWords) parts.push(metadataWords);
  return parts.length > 0 ? parts.join('; ') : undefined;
}

/** A conversation reference in a memory's metadata, in either of the shapes memsvc reads. */
export interface ConversationReference {
  readonly id: string | undefined;
  readonly turn: number | undefined;
  readonly date: Date | undefined;
  readonly speaker: string | undefined;
}

/**
 * Where a memory sits in a conversation, from the caller's metadata: `conversationId`, `turn`,
 * `sessionDate` or `date`, `speaker` at the top level, or `conversation: {id, turn, date, role}`
 * as `ingest_conversation` writes it. Anything missing or malformed is undefined.
 */
export function conversationReference(metadata: Readonly<Record<string, unknown>>): ConversationReference {
  const nested = isRecord(metadata.conversation) ? metadata.conversation : {};
  const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);
  const turn = [metadata.turn, nested.turn].find((value) => typeof value === 'number' && Number.isInteger(value) && value >= 0);
  const dateText = text(metadata.sessionDate) ?? text(metadata.date) ?? text(nested.date);
  const date = dateText && /^\d{4}-\d{2}-\d{2}/.test(dateText) ? new Date(`${dateText.slice(0, 10)}T00:00:00Z`) : undefined;
  return {
    id: text(metadata.conversationId) ?? text(nested.id),
    turn: turn as number | undefined,
    date: date && !Number.isNaN(date.getTime()) ? date : undefined,
    speaker: text(metadata.speaker) ?? text(nested.role),
  };
}

/** "Caroline: I went…": a conversation turn written as a memory starts with its speaker. */
const SPEAKER_PREFIX = /^\p{L}[\p{L}\p{N} ._'-]{0,39}:\s+/u;

/** Whether a memory is written as a conversation turn ("<speaker>: <text>"). */
export function isConversationTurn(content: string): boolean {
  return SPEAKER_PREFIX.test(content);
}

/**
 * Whether a memory is a turn of a conversation (its metadata names one, or it is written as
 * "<speaker>: …"): what was said then, not a standing fact. Chit-chat swaps names and numbers
 * constantly, so changed-fact detection leaves turns alone (measured: on LoCoMo it lowered
 * evidence-recall@5 from 0.673 to 0.667 through turns).
 */
export function isConversationMemory(memory: { readonly content: string; readonly metadata: Readonly<Record<string, unknown>> }): boolean {
  if (conversationReference(memory.metadata).id !== undefined) return true;
  // A speaker is one word ("user", "Caroline") or a name of two or three capitalised words;
  // "Marco has a new phone number: …" and "I switched dentists: …" are statements.
  const words = SPEAKER_PREFIX.exec(memory.content)?.[0].replace(/:\s*$/u, '').trim().split(/\s+/);
  if (words === undefined) return false;
  return words.length === 1 || (words.length <= 3 && words.every((word) => /^\p{Lu}/u.test(word)));
}

/**
 * Who said a memory, when it is a conversation turn: the speaker its metadata names (`speaker`,
 * or the `role` ingest writes), else the "<speaker>: " its content starts with.
 */
export function speakerOf(memory: { readonly content: string; readonly metadata: Readonly<Record<string, unknown>> }): string | undefined {
  return conversationReference(memory.metadata).speaker ?? SPEAKER_PREFIX.exec(memory.content)?.[0].replace(/:\s+$/u, '').trim();
}

/**
 * How a memory is quoted in the search context of the memories written after it: `after: ` and
 * its first NEIGHBOUR_CONTEXT_CHARS without a speaker prefix. An erasure removes these quotes.
 */
export function neighbourQuote(previous: string): string {
  return `after: ${withoutSpeakerPrefix(previous).slice(0, NEIGHBOUR_CONTEXT_CHARS)}`;
}

/** "Caroline: I went…" → "I went…" (one prefix only). */
export function withoutSpeakerPrefix(said: string): string {
  return said.replace(SPEAKER_PREFIX, '');
}

/** The conversation reference has its own parts of the context; its ids and turn numbers are not words. */
function withoutConversationKeys(metadata: Readonly<Record<string, unknown>>): Record<string, unknown> {
  const {
    conversationId: _id,
    turn: _turn,
    sessionDate: _sessionDate,
    date: _date,
    speaker: _speaker,
    conversation: _conversation,
    ...rest
  } = metadata;
  return rest;
}

/** Keys and text values of a metadata object (two levels deep), as words. */
function metadataText(metadata: Readonly<Record<string, unknown>>): string {
  const words: string[] = [];
  const visit = (value: unknown, depth: number) => {
    if (typeof value === 'string') words.push(value);
    else if (typeof value === 'number' && Number.isFinite(value)) words.push(String(value));
    else if (Array.isArray(value) && depth < 2) for (const item of value.slice(0, 20)) visit(item, depth + 1);
    else if (isRecord(value) && depth < 2)
      for (const [key, inner] of Object.entries(value).slice(0, 20)) {
        words.push(key);
        visit(inner, depth + 1);
      }
  };
  visit(metadata, 0);
  return words.join(' ').replace(/\s+/g, ' ').trim();
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
