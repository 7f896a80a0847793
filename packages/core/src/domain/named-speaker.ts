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
 * The roles of a chat with an assistant, as transcripts name them (`ingest_conversation`'s roles,
 * and the message roles of the model APIs). A person asking about such a chat names its speakers
 * by grammatical person: "I", "my" is the user — the one who asks — and "you", "your" the
 * assistant ("what did I buy my sister?", "what did you suggest for the trip?").
 */
const ROLE_NAMED_BY = { user: /\b(i|me|my|mine|myself)\b/u, assistant: /\b(you|your|yours|yourself)\b/u } as const;

/** Decides, for one query, whether a memory's speaker is named in it. */
export function speakerNamedIn(
  query: string,
): (memory: { readonly content: string; readonly metadata: Readonly<Record<string, unknown>> }) => boolean {
  const wordList = wordsOf(query);
  const words = ` ${wordList.join(' ')} `;
  const plain = wordList.join(' ');
  // A question in both persons ("did you answer what I asked?") names neither.
  const user = ROLE_NAMED_BY.user.test(plain);
  const assistant = ROLE_NAMED_BY.assistant.test(plain);
  const byPerson: Readonly<Record<string, boolean>> = { user: user && !assistant, assistant: assistant && !user };
  const named = new Map<string, boolean>();
  return (memory) => {
    const speaker = speakerOf(memory);
    if (speaker === undefined) return false;
    let answer = named.get(speaker);
    if (answer === undefined) {
      const speakerWords = wordsOf(speaker);
      const role = speakerWords.length === 1 ? byPerson[speakerWords[0] as string] : undefined;
      answer = role === true || (speakerWords.length > 0 && words.includes(` ${speakerWords.join(' ')} `));
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
