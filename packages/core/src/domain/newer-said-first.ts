/**
 * R-FACT-NEWER-FIRST: a soft reading order for the changes no rule dared mark. When a write could
 * not decide whether a new statement changed an older one, it lists the older as `related`
 * (related-memories.ts: "I'm on Android now" after "My phone is an iPhone"); the agent may never
 * pass `supersedes`. When a recall finds both, the newer is read first — it is what the speaker
 * said last on that subject — but nothing is marked: the older is neither labelled replaced nor
 * hidden (the newer takes the older's score when higher, so the list reads in score order).
 * Look-alikes share the write's cues ("Kenji owns the billing service" / "Kenji now also owns
 * search"), so the newer goes first only when it answers the question as well as the older and
 * says another value in place of one of the older's (readsFirst). "Who owns billing?" asks what
 * only the older says, and keeps its order. Measured by the fact-change eval: none of the suite's
 * look-alikes is reordered.
 */
import { isValue, sameWord } from './fact-alignment.js';
import { type FactShape, type FactToken, factShape } from './fact-shape.js';
import { topicsOf } from './fact-topics.js';
import type { MemoryRecord } from './memory.js';
import { READ_TIME_DETECTED } from './read-time-fact-changes.js';
import { relatedCue } from './related-memories.js';
import { isConversationMemory } from './search-context.js';

/**
 * Of the best READ_TIME_DETECTED of `ranked` (best first), each memory a newer one among them
 * should be read before, as older id → newer id: said later, in the same scope, and read first
 * asked `query` (readsFirst). Conversation turns never: a turn is what was said then, not a
 * standing fact. The first such newer in rank order wins.
 */
export function newerSaidFirst(ranked: readonly { readonly memory: MemoryRecord }[], query: string): Map<string, string> {
  const ahead = new Map<string, string>();
  const top = ranked.slice(0, READ_TIME_DETECTED).filter((hit) => !isConversationMemory(hit.memory));
  if (top.length < 2) return ahead;
  const asked = factShape(query);
  for (const older of top) {
    const newer = top.find(
      (candidate) =>
        candidate.memory.createdAt > older.memory.createdAt &&
        candidate.memory.scope === older.memory.scope &&
        readsFirst(asked, factShape(older.memory.content), factShape(candidate.memory.content)),
    );
    if (newer) ahead.set(older.memory.id, newer.memory.id);
  }
  return ahead;
}

/**
 * Whether, asked `query`, the newer statement is read before the older: a write's cue links them
 * (relatedCue), the newer adds nothing beside the older ("also"), names no other thing of the
 * speaker's (sameThings), says every query word the older says (answersAsWell) and replaces one of
 * the older's values (replacesSomething); an older told as an event keeps its place.
 */
export function readsFirst(query: FactShape, older: FactShape, newer: FactShape): boolean {
  // What happened stays what happened ("The auth service was written by Dana"): a later event is another one.
  if (older.told && !older.timed) return false;
  return (
    !newer.adds &&
    sameThings(older, newer) &&
    relatedCue(older, newer) !== undefined &&
    answersAsWell(query, older, newer) &&
    replacesSomething(query, older, newer)
  );
}

/**
 * A change says another value in place of one the older said: a word of the older the query does
 * not ask for is gone from the newer ("I joined the Acme running club" keeps all of "I work at
 * Acme": an addition), and where the older says a value, the newer says one of its kind ("I now
 * work remotely on Fridays" names a day, not another employer).
 */
function replacesSomething(query: FactShape, older: FactShape, newer: FactShape): boolean {
  const says = (shape: FactShape, token: FactToken) => shape.tokens.some((other) => sameWord(token, other));
  if (!older.tokens.some((token) => !says(query, token) && !says(newer, token))) return false;
  const kinds = new Set(older.tokens.filter(isValue).map((token) => token.kind));
  return kinds.size === 0 || newer.tokens.some((token) => kinds.has(token.kind));
}

/**
 * "I weigh 82 kg" / "My suitcase weighs 23 kg": a thing of the speaker's the newer names ("my
 * suitcase") must be one the older names too, or of a topic the older speaks of ("Upgraded my
 * phone…" after "I have an iPhone 12"): else the newer is about that thing, not the older's fact.
 */
function sameThings(older: FactShape, newer: FactShape): boolean {
  const olderTopics = topicsOf(older);
  return [...newer.possessed].every((item) => {
    const thing = item.slice(item.indexOf('>') + 1);
    const named = older.tokens.some((token) => token.word === thing || token.lower === thing);
    return named || [...topicsOf(thing)].some((topic) => olderTopics.has(topic));
  });
}

/**
 * Whether the newer statement says every word of the query the older says — the same word, or a
 * word of the same topic ("where does the user work?": "works at Acme" / "joined Globex") — and
 * the older says at least one: the question is not about what only the older says.
 */
function answersAsWell(query: FactShape, older: FactShape, newer: FactShape): boolean {
  const matched = query.tokens.filter((token) => older.tokens.some((other) => sameWord(token, other)));
  if (matched.length === 0) return false;
  const newerTopics = topicsOf(newer);
  return matched.every(
    (token) =>
      newer.tokens.some((other) => sameWord(token, other)) ||
      [...topicsOf(token.lower ?? token.word)].some((topic) => newerTopics.has(topic)),
  );
}
