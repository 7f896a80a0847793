import { MemsvcError } from '../errors/memsvc-error.js';
import { neighbourQuote, withoutSpeakerPrefix } from './search-context.js';

/** Most memories one erase call names; a whole user is erased in batches of this size. */
export const MAX_ERASE_IDS = 100;

/**
 * Every place memsvc keeps something of a memory, as an erasure receipt counts it: the row (with
 * its vector), the audit's copies of its words (the events stay, without them), its lexical
 * postings, the term statistics no other memory of the tenant needs any more, the links to or
 * from it, the import ledger's entries, the other memories' search contexts that quoted it, and
 * the other rows that named it (a replacement marker, an audit snapshot, metadata); and, when a
 * whole user is erased, the grants the user gave or received (their space names are the user's).
 */
export const ERASURE_PLACES = [
  'memories',
  'vectors',
  'versions',
  'lexicalPostings',
  'termStatistics',
  'links',
  'importLedger',
  'searchContexts',
  'references',
  'grants',
] as const;
export type ErasurePlace = (typeof ERASURE_PLACES)[number];
export type ErasureCounts = Readonly<Record<ErasurePlace, number>>;

/** What an erasure did, and what proves it later (MemoryEngine.verifyErasure). */
export interface ErasureReceipt {
  readonly erasureId: string;
  readonly erasedAt: Date;
  /** The audit actor that erased. */
  readonly actor: string;
  /** The erased ids, sorted. */
  readonly memoryIds: readonly string[];
  /** `sha256:<hex>` of `erasedIdsText(memoryIds)`. */
  readonly digest: string;
  readonly counts: ErasureCounts;
  /** `completed`, or `pending` while a whole user's erasure is still under way. */
  readonly state: 'pending' | 'completed';
}

/** What a check of an erasure found: verified when nothing of the erased memories remains anywhere. */
export interface ErasureCheck {
  readonly erasureId: string;
  readonly verified: boolean;
  /** Whether the ids still give the receipt's digest (the record was not altered). */
  readonly digestMatches: boolean;
  /** What remains of the erased memories, per place (all zero when verified). */
  readonly remaining: ErasureCounts;
}

/** The text an erasure's digest is taken over: the ids, sorted, one per line. */
export function erasedIdsText(ids: readonly string[]): string {
  return [...ids].sort().join('\n');
}

/** The ids of one erase call, checked: 1 to MAX_ERASE_IDS, each a non-empty string; repeats dropped. */
export function checkEraseIds(ids: readonly string[]): string[] {
  const unique = [...new Set(ids)];
  if (unique.length === 0 || unique.length > MAX_ERASE_IDS) {
    throw new MemsvcError('INVALID_INPUT', `memoryIds must hold 1 to ${MAX_ERASE_IDS} ids`, { field: 'memoryIds' });
  }
  if (unique.some((id) => typeof id !== 'string' || id.length === 0 || id.length > 64)) {
    throw new MemsvcError('INVALID_INPUT', 'memoryIds must be memory ids', { field: 'memoryIds' });
  }
  return unique;
}

/** What the search contexts of later memories quote of an erased memory (search-context.ts). */
export function quotedInLaterContexts(content: string): string {
  return neighbourQuote(content);
}

/**
 * Every quote later memories may hold of a memory whose versions said `contents`: a later turn
 * quotes the text as it was when the turn was written, so an edited memory's earlier versions
 * are quoted too. Ingest quotes a turn's own text, which the memory stores behind "<role>: ":
 * a turn that itself starts like a speaker ("Note: …") loses that too, so both readings count.
 */
export function quotesOfVersions(contents: readonly string[]): string[] {
  const quotes = new Set<string>();
  for (const content of contents) {
    quotes.add(neighbourQuote(content));
    quotes.add(neighbourQuote(withoutSpeakerPrefix(content)));
  }
  return [...quotes];
}

/**
 * A search context without its quotes of erased memories, its parts still joined by "; "; null
 * when nothing is left. A quote is removed only as a whole part of the context: a short quote
 * ("after: hi") leaves a longer one it begins ("after: hiking in May") alone. White space around
 * the quoted text does not count: ingest quotes a turn as sent, the memory keeps it trimmed.
 * Longer quotes go first, so a shorter one never cuts into them.
 */
export function searchContextWithout(context: string, quotes: readonly string[]): string | null {
  let rest = context;
  for (const quote of [...quotes].sort((a, b) => b.length - a.length)) {
    const text = quotedText(quote);
    if (text.length === 0) continue;
    const head = quote.startsWith(QUOTE_HEAD) ? `${escapeRegExp(QUOTE_HEAD.trim())}\\s*` : '';
    rest = rest.replace(new RegExp(`(^|; )${head}${escapeRegExp(text)}\\s*(?=; |$)`, 'g'), '$1');
  }
  const cleaned = rest
    .split('; ')
    .filter((part) => part.trim().length > 0)
    .join('; ')
    .trim();
  return cleaned.length > 0 ? cleaned : null;
}

/** How every quote begins (neighbourQuote). */
const QUOTE_HEAD = 'after: ';

/**
 * The quoted text of a quote, trimmed: what any context holding the quote contains, however
 * much white space the turn was sent with (a store narrows the contexts to rewrite by it).
 */
export function quotedText(quote: string): string {
  return (quote.startsWith(QUOTE_HEAD) ? quote.slice(QUOTE_HEAD.length) : quote).trim();
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
