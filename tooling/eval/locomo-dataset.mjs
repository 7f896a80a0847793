// @ts-check
// Reads the LoCoMo development split for `pnpm eval:conversations`, from outside the repository
// at run time: the data is CC BY-NC and evaluation-only, so none of it is ever copied into the
// project (no fixtures, no snippets). Turns each file into one conversation: its sessions in
// order with parsed dates, its turns with a global 0-based index, and its questions of
// categories 1-4 with their evidence resolved to turns that exist.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

export const LOCOMO_FILES = ['26.json', '30.json', '41.json', '42.json', '43.json'];

/**
 * @typedef {{ iso: string, human: string }} SessionDate
 * @typedef {{ diaId: string, speaker: string, text: string, content: string, index: number, session: number, date: SessionDate }} Turn
 * @typedef {{ number: number, date: SessionDate, turns: Turn[] }} Session
 * @typedef {{ conv: string, question: string, category: number, evidence: string[] }} Question
 * @typedef {{ id: string, speakers: string[], sessions: Session[], turns: Turn[], questions: Question[], unresolved: string[], dropped: number }} Conversation
 */

/**
 * What the questions of each category are; category 5 (adversarial, unanswerable) is left out.
 * The dataset README lists the names in another order, but the questions decide: category 2 is
 * mostly "when" questions, category 1 has about three evidence turns a question, category 3 asks
 * what someone "would" do, category 4 has about one evidence turn a question.
 */
/** @type {Record<string, string>} */
export const CATEGORY_NAMES = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

const MONTHS = ['january', 'february', 'march', 'april', 'may', 'june', 'july', 'august', 'september', 'october', 'november', 'december'];

/**
 * "1:56 pm on 8 May, 2023" → {iso: '2023-05-08', human: '8 May 2023'}. Only the calendar date
 * is kept: the clock time has no time zone, and both memsvc's ingest and the baseline index the
 * day, not the minute.
 * @param {string | undefined} text
 * @returns {SessionDate}
 */
export function parseSessionDate(text) {
  const match = /^\s*\d{1,2}:\d{2}\s*[ap]m\s+on\s+(\d{1,2})\s+([A-Za-z]+),?\s+(\d{4})\s*$/i.exec(text ?? '');
  const month = match ? MONTHS.indexOf(/** @type {string} */ (match[2]).toLowerCase()) : -1;
  if (!match || month < 0) throw new Error(`unparseable session date ${JSON.stringify(text)}`);
  const day = Number(match[1]);
  const year = Number(match[3]);
  const iso = `${year}-${String(month + 1).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  const name = /** @type {string} */ (MONTHS[month]);
  return { iso, human: `${day} ${/** @type {string} */ (name[0]).toUpperCase()}${name.slice(1)} ${year}` };
}

/**
 * One file → {id, speakers, sessions, turns, questions, unresolved, dropped}.
 * @param {string} id
 * @param {any} raw the file's JSON, as the dataset has it
 * @returns {Conversation}
 */
export function parseConversation(id, raw) {
  // Sessions are the `session_N` keys holding a list; some files carry `session_N_date_time`
  // for sessions that have no turns, and those are skipped.
  const sessionNumbers = Object.keys(raw)
    .map((key) => /^session_(\d+)$/.exec(key))
    .filter((match) => match && Array.isArray(raw[match[0]]))
    .map((match) => Number(/** @type {RegExpExecArray} */ (match)[1]))
    .sort((a, b) => a - b);
  /** @type {Session[]} */
  const sessions = [];
  /** @type {Turn[]} */
  const turns = [];
  for (const number of sessionNumbers) {
    const date = parseSessionDate(raw[`session_${number}_date_time`]);
    /** @type {Session} */
    const session = { number, date, turns: [] };
    for (const turn of raw[`session_${number}`]) {
      /** @type {Turn} */
      const unit = {
        diaId: turn.dia_id,
        speaker: turn.speaker,
        text: turn.text,
        content: `${turn.speaker}: ${turn.text}`,
        index: turns.length,
        session: number,
        date,
      };
      session.turns.push(unit);
      turns.push(unit);
    }
    sessions.push(session);
  }
  const byDiaId = new Map(turns.map((turn) => [turn.diaId, turn]));
  /** @type {Question[]} */
  const questions = [];
  /** @type {string[]} */
  const unresolved = [];
  let dropped = 0;
  for (const qa of raw.qa ?? []) {
    if (![1, 2, 3, 4].includes(qa.category)) continue;
    // Only evidence ids naming a turn count; malformed ones ("D:11:26", "D8:6; D9:17") and ids
    // of turns that are not in the file are reported, not guessed at.
    /** @type {string[]} */
    const evidence = [];
    for (const diaId of qa.evidence ?? []) {
      if (byDiaId.has(diaId)) {
        if (!evidence.includes(diaId)) evidence.push(diaId);
      } else unresolved.push(diaId);
    }
    if (evidence.length === 0) {
      dropped++;
      continue;
    }
    questions.push({ conv: id, question: qa.question, category: qa.category, evidence });
  }
  return { id, speakers: [raw.speaker_a, raw.speaker_b], sessions, turns, questions, unresolved, dropped };
}

/**
 * The split from `dir`, or undefined when the directory (or a file of it) is absent.
 * @param {string} dir
 * @returns {{ conversations: Conversation[], missing?: undefined } | { missing: string[], conversations?: undefined } | undefined}
 */
export function loadLocomo(dir) {
  if (!existsSync(dir)) return undefined;
  const missing = LOCOMO_FILES.filter((file) => !existsSync(join(dir, file)));
  if (missing.length > 0) return { missing };
  const conversations = LOCOMO_FILES.map((file) =>
    parseConversation(file.replace(/\.json$/, ''), JSON.parse(readFileSync(join(dir, file), 'utf8'))),
  );
  return { conversations };
}
