/**
 * R-FACT-RELATED: the existing memories a new statement may change, for the calling agent to
 * judge. The agent is itself a language model: where the word rules cannot decide ("I moved to
 * Berlin" after "I live in Paris" says another verb; "I ran the Boston marathon" after "I'm
 * training for it" tells a finished event), the write names the candidates and says why, and the
 * agent passes `supersedes`. So `related` is wider than what a write marks replaced, and short:
 * MAX_RELATED entries, the surest first.
 */
import { sameWord } from './fact-alignment.js';
import { type FactShape, type FactToken, factShape } from './fact-shape.js';
import { ACQUIRING_VERBS, topicsOf } from './fact-topics.js';
import type { MemoryRecord } from './memory.js';
import { aboutSomeoneElse } from './topic-change.js';

/** At most this many memories are listed as related to a write: enough for a fact said a few times, short enough to read. */
export const MAX_RELATED = 5;

/** Why a memory is listed as related, in a few words an agent reads. */
export type RelatedReason =
  | 'changed fact'
  | 'contradiction'
  | 'same topic, different value'
  | 'ongoing, now told as done'
  | 'same subject, said as changed'
  | 'same subject, another value'
  | 'same owner, a new one acquired';

/** A memory a write may change, and why. */
export interface RelatedFinding {
  readonly memory: MemoryRecord;
  readonly reason: RelatedReason;
}

/** The cues after the rules' own findings, surest first: the first that holds is the memory's reason. */
const CUES: readonly (readonly [Exclude<RelatedReason, 'changed fact' | 'contradiction'>, (a: FactShape, b: FactShape) => boolean])[] = [
  ['same topic, different value', (a, b) => sameSubject(a, b) && sharesTopic(a, b)],
  ['ongoing, now told as done', (a, b) => a.ongoing && b.told && sharedWords(a, b) > 0],
  ['same subject, said as changed', (a, b) => sameSubject(a, b) && saysChanged(b) && sharedWords(a, b) > 0],
  ['same owner, a new one acquired', (a, b) => a.person !== '' && sameSubject(a, b) && acquires(b) && hasValue(a)],
  ['same subject, another value', (a, b) => sameSubject(a, b) && sharedWords(a, b) > 0 && anotherValue(a, b)],
];

/**
 * The related memories of a write of `content`: first the changed facts and contradictions the
 * rules found (in that order), then the `candidates` (most similar first) a cue links to the new
 * statement; each memory once, at most MAX_RELATED. Conversation turns and memories already
 * replaced or superseded are never candidates (the caller leaves them out).
 */
export function relatedMemories(
  content: string,
  found: { readonly changes: readonly MemoryRecord[]; readonly contradictions: readonly MemoryRecord[] },
  candidates: readonly MemoryRecord[],
): RelatedFinding[] {
  const listed: RelatedFinding[] = [
    ...found.changes.map((memory) => ({ memory, reason: 'changed fact' as const })),
    ...found.contradictions.map((memory) => ({ memory, reason: 'contradiction' as const })),
  ];
  const seen = new Set(listed.map((entry) => entry.memory.id));
  const newer = factShape(content);
  const cued: { finding: RelatedFinding; rank: number; order: number }[] = [];
  candidates.forEach((memory, order) => {
    if (seen.has(memory.id) || memory.content === content) return;
    seen.add(memory.id);
    const rank = cueRank(factShape(memory.content), newer);
    const cue = CUES[rank];
    if (cue) cued.push({ finding: { memory, reason: cue[0] }, rank, order });
  });
  cued.sort((x, y) => x.rank - y.rank || x.order - y.order);
  return [...listed, ...cued.map((entry) => entry.finding)].slice(0, MAX_RELATED);
}

/** Which of CUES links a newer statement to an older one (its index, surest first), or -1. */
function cueRank(older: FactShape, newer: FactShape): number {
  return CUES.findIndex(([, holds]) => holds(older, newer));
}

/** The cue that links `newer` to `older` (both said by whom they are about, as factShape reads them), or undefined. */
export function relatedCue(older: FactShape, newer: FactShape): RelatedReason | undefined {
  return CUES[cueRank(older, newer)]?.[0];
}

/**
 * Possibly one subject: "I" and "I" (or "we": a household), "we" and a thing of ours ("We store
 * backups…" / "Backups now go to…"), or a third person both open with ("Marta works…" / "Marta
 * was hired…"). Not when one is about someone of the speaker's the other is not ("my son").
 */
function sameSubject(a: FactShape, b: FactShape): boolean {
  if (aboutSomeoneElse(a, b)) return false;
  if (a.person !== '' && b.person !== '') return true;
  if (a.person === 'i' || b.person === 'i') return false;
  // "The team uses Jira" / "our issues are tracked in Linear": a team speaks of what it has.
  if ((a.person === 'we' || b.person === 'we') && sharesTopic(a, b)) return true;
  const [first, other] = [a.tokens[0], b.tokens[0]];
  if (first === undefined || other === undefined) return false;
  if (a.person === '' && b.person === '') return sameWord(first, other);
  // "we" and a thing: the thing the third-person statement opens with, named by the other.
  const [thing, ours] = a.person === '' ? [first, b] : [other, a];
  return ours.tokens.some((token) => sameWord(token, thing));
}

function sharesTopic(a: FactShape, b: FactShape): boolean {
  const topics = topicsOf(a);
  return [...topicsOf(b)].some((topic) => topics.has(topic));
}

/** The content words both say (the person's own pronouns are not words of the fact). */
function sharedWords(a: FactShape, b: FactShape): number {
  return a.tokens.filter((token) => token.word.length >= 2 && b.tokens.some((other) => sameWord(token, other))).length;
}

/** A past tense, "now", "these days", or a denial: the newer says something is no longer as it was. */
const saysChanged = (shape: FactShape) => shape.told || shape.timed || shape.negated;

const acquires = (shape: FactShape) => shape.tokens.some((token: FactToken) => token.past && ACQUIRING_VERBS.has(token.word));

/** The newer says a value of a kind the older says, that the older does not ("82 kg" / "76 kg"). */
function anotherValue(a: FactShape, b: FactShape): boolean {
  const kinds = new Set(a.tokens.filter((token) => token.kind !== 'word').map((token) => token.kind));
  return b.tokens.some((token) => kinds.has(token.kind) && !a.tokens.some((other) => sameWord(token, other)));
}

const hasValue = (shape: FactShape) => shape.tokens.some((token) => token.kind === 'name' || token.kind === 'number');
