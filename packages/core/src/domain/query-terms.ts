/**
 * Agents ask in questions. The words that make a sentence a question — question words,
 * auxiliaries and modals, pronouns, and the framing of "what kind of…" or "would … likely" —
 * say nothing about which memory answers it, yet a memory that happens to contain "would" or
 * "kind" would score on them. They are removed before ranking; names, numbers and every other
 * word stay. (The full-text configuration drops the commonest of them too; this list covers
 * the ones it keeps, such as "would", "could", "might", "likely", "kind".)
 */
const QUESTION_NOISE = new Set(
  [
    // question words
    'what whats which who whom whose when where why how whatever whichever whoever',
    // auxiliaries and modals, with their contractions' stems
    'am is are was were be been being do does did done doing have has had having',
    // ("may" is left alone: it is also a month)
    'will would shall should can could might must ought',
    'didn doesn don isn aren wasn weren won wouldn couldn shouldn hasn haven hadn cant didnt doesnt dont isnt wont',
    // pronouns
    'i me my mine myself you your yours yourself yourselves he him his himself she her hers herself it its itself',
    'we us our ours ourselves they them their theirs themselves someone somebody something anyone anybody anything',
    'everyone everybody everything',
    // question framing
    'kind kinds type types sort sorts likely ever also please tell',
    // "how long ago", "what did I … most recently": they ask when, which a memory's date answers, not its words
    'ago recently',
  ]
    .join(' ')
    .split(' '),
);

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)?/gu;

/**
 * The query with its question noise removed, everything else (punctuation, hyphenated names,
 * numbers, other scripts) as written. When nothing but noise is left, the query is returned as
 * it came: a question made only of such words still deserves its literal matches.
 */
export function rankingQueryText(query: string): string {
  let kept = 0;
  const stripped = query.replace(WORD, (word) => {
    const bare = word.toLowerCase().replace(/['’].*$/u, '');
    if (QUESTION_NOISE.has(bare)) return ' ';
    kept++;
    return word;
  });
  return kept > 0 ? stripped.replace(/\s+/gu, ' ').trim() : query;
}
