import { speakerOf } from './search-context.js';

/**
 * A question that names a person ("What did Melanie do while camping?") is answered, more often
 * than not, by what that person said. BM25 gives a speaker's name little weight — half the turns
 * of a two-person conversation carry it — so when the query names the speaker of some of the
 * candidates, the turns of the other speakers (and memories with no speaker) count this much
 * less: their score is divided by 1 + NAMED_SPEAKER_BOOST. A clearly better match by someone
 * else still ranks first; a query that names no speaker changes nothing.
 *
 * Measured on the LoCoMo development conversations (`local` embedder, evidence-recall@5 on a
 * top-30 replay, ingest / turns+context / turns): 0.701 / 0.695 / 0.657 without it; 0.1 → 0.710 /
 * 0.705 / 0.665; 0.3 → 0.724 / 0.721 / 0.673; 0.6 → 0.728 / 0.726 / 0.679. 0.3 is chosen below the
 * best: past it the gains are small and a stronger pull would bury what another person said
 * about the one named.
 */
export const NAMED_SPEAKER_BOOST = 0.3;

/**
 * The same, when the query names the speaker by grammatical person in a chat with an assistant
 * ("what did I buy …" → the user). What a user said about themselves is what a later question
 * about them is answered by; the assistant's turns around it (advice, lists, restatements) share
 * its words and outnumber it. A role is a coarser pull than a name (it splits a chat in two, not
 * a group in many), so it is measured on its own: LongMemEval (`ingest`, turn any@5) in
 * docs/retrieval.md.
 */
export const ROLE_SPEAKER_BOOST = 0.6;

/** How a memory's speaker stands in a query: named by their name, by grammatical person, or not at all. */
export type SpeakerNaming = 'name' | 'role' | false;

/**
 * The roles of a chat with an assistant, as transcripts name them (`ingest_conversation`'s roles,
 * and the message roles of the model APIs). A person asking about such a chat names its speakers
 * by grammatical person: "I", "my" is the user — the one who asks. "You" is the assistant only as
 * the one who said something before ("what did you suggest for the trip?", "you told me …",
 * "our conversation about …"): a "you" that is asked to do something now ("can you suggest …",
 * "do you have any tips") addresses the assistant and says nothing about who said the answer.
 * A question that asks to be reminded of something ("can you remind me …", "I'm trying to recall
 * …", "do you remember …") asks what was said before, by either side: its "I" is the one asking,
 * not the one who said it, so it names neither (RECALLING).
 */
const ROLE_NAMED_BY = {
  user: /\b(i|me|my|mine|myself)\b/u,
  assistant:
    /\b(?:you|we)\s+(?:\w+\s+)?(?:said|told|mentioned|recommended|suggested|gave|provided|listed|described|wrote|shared|explained|named|talked|discussed|chatted|created|proposed|offered)\b|\bdid\s+you\b|\b(?:our|we)\s+(?:\w+\s+)?(?:conversation|chat|discussion)\b/u,
} as const;

/** Asking to be reminded of what was said before (see ROLE_NAMED_BY). */
const RECALLING = /\bremind\s+me\b|\brecall\b|\bremember(?:ed)?\b/u;

/** Decides, for one query, whether and how a memory's speaker is named in it. */
export function speakerNamedIn(
  query: string,
): (memory: { readonly content: string; readonly metadata: Readonly<Record<string, unknown>> }) => SpeakerNaming {
  const wordList = wordsOf(query);
  const words = ` ${wordList.join(' ')} `;
  const plain = wordList.join(' ');
  // A question in both persons ("did you answer what I asked?"), or asking to be reminded, names neither.
  const recalling = RECALLING.test(plain);
  const user = ROLE_NAMED_BY.user.test(plain) && !recalling;
  const assistant = ROLE_NAMED_BY.assistant.test(plain) && !recalling;
  const byPerson: Readonly<Record<string, boolean>> = { user: user && !assistant, assistant: assistant && !user };
  const named = new Map<string, SpeakerNaming>();
  return (memory) => {
    const speaker = speakerOf(memory);
    if (speaker === undefined) return false;
    let answer = named.get(speaker);
    if (answer === undefined) {
      const speakerWords = wordsOf(speaker);
      const role = speakerWords.length === 1 ? byPerson[speakerWords[0] as string] : undefined;
      answer = speakerWords.length > 0 && words.includes(` ${speakerWords.join(' ')} `) ? 'name' : role === true ? 'role' : false;
      named.set(speaker, answer);
    }
    return answer;
  };
}

/** Case-folded words (letters and digits), possessives dropped: "Melanie's" → "melanie". */
function wordsOf(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+(?:['’]\p{L}+)?/gu) ?? []
  ).map((word) => word.replace(/['’]\p{L}+$/u, ''));
}
