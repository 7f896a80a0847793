// @ts-check
// Reads the LongMemEval-S development split for `pnpm eval:conversations`, from outside the
// repository at run time (../shared/datasets/longmemeval-dev, MIT, copyright (c) 2024 Di Wu): none
// of it is copied into the project. Each file is one question with its own history of ~48
// timestamped user–assistant sessions; the turns marked `has_answer` are its evidence turns.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One file of the split, as the dataset writes it (the fields read here).
 * @typedef {{
 *   question_id: string, question_type: string, question: string, question_date: string,
 *   answer_session_ids: string[], haystack_session_ids: string[], haystack_dates: string[],
 *   haystack_sessions: { role: string, content: string, has_answer?: boolean }[][]
 * }} RawQuestion
 * @typedef {{ key: string, role: string, content: string, hasAnswer: boolean }} HistoryTurn
 * @typedef {{ id: string, at: string, turns: HistoryTurn[] }} HistorySession
 * @typedef {{
 *   id: string, type: string, question: string, askedAt: string, answerSessionIds: string[],
 *   sessions: HistorySession[], turns: (HistoryTurn & { sessionId: string })[], evidence: string[]
 * }} LongMemEvalQuestion
 */

/** The six question types of the split, in the order the report prints them. */
export const QUESTION_TYPES = [
  'single-session-user',
  'single-session-assistant',
  'single-session-preference',
  'multi-session',
  'knowledge-update',
  'temporal-reasoning',
];

/**
 * "2023/05/30 (Tue) 10:18" → "2023-05-30T10:18:00Z" (the dataset gives no zone; UTC is as good as any).
 * @param {string | undefined} text
 */
export function parseLongMemEvalDate(text) {
  const match = /^\s*(\d{4})\/(\d{2})\/(\d{2})\s*(?:\([A-Za-z]+\))?\s*(\d{1,2}):(\d{2})\s*$/.exec(text ?? '');
  if (!match) throw new Error(`unparseable LongMemEval date ${JSON.stringify(text)}`);
  const [, year, month, day, hour, minute] = match;
  return `${year}-${month}-${day}T${/** @type {string} */ (hour).padStart(2, '0')}:${minute}:00Z`;
}

/**
 * One file → {id, type, question, askedAt, answerSessionIds, sessions, turnCount, evidence}.
 * Sessions come in the order they took place (the files list a fifth of them out of order), so a
 * write of them in order tells memsvc which statement of a changed fact is the newer one. Each
 * turn gets a key `<session position>:<turn position>` that names it whatever ids the dataset
 * repeats; `evidence` holds the keys of the turns marked `has_answer`.
 * @param {RawQuestion} raw
 * @returns {LongMemEvalQuestion}
 */
export function parseQuestion(raw) {
  const sessions = raw.haystack_sessions
    .map((turns, i) => ({
      id: /** @type {string} */ (raw.haystack_session_ids[i]),
      at: parseLongMemEvalDate(raw.haystack_dates[i]),
      turns,
      order: i,
    }))
    .sort((a, b) => a.at.localeCompare(b.at) || a.order - b.order)
    .map((session, position) => ({
      id: session.id,
      at: session.at,
      turns: session.turns.map((turn, i) => ({
        key: `${position}:${i}`,
        role: turn.role,
        content: turn.content,
        hasAnswer: turn.has_answer === true,
      })),
    }));
  const turns = sessions.flatMap((session) => session.turns.map((turn) => ({ ...turn, sessionId: session.id })));
  return {
    id: raw.question_id,
    type: raw.question_type,
    question: raw.question,
    askedAt: parseLongMemEvalDate(raw.question_date),
    answerSessionIds: [...new Set(raw.answer_session_ids)],
    sessions,
    turns,
    evidence: turns.filter((turn) => turn.hasAnswer).map((turn) => turn.key),
  };
}

/**
 * The split from `dir` ({questions} sorted by type then id), or undefined when the directory is
 * absent. `perType` keeps the first n questions (by id) of each type, for a quicker subset.
 * @param {string} dir
 * @param {{ perType?: number }} [options]
 */
export function loadLongMemEval(dir, { perType = Number.POSITIVE_INFINITY } = {}) {
  if (!existsSync(dir)) return undefined;
  const files = readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .sort();
  const all = files.map((file) => parseQuestion(JSON.parse(readFileSync(join(dir, file), 'utf8'))));
  const questions = QUESTION_TYPES.flatMap((type) => all.filter((question) => question.type === type).slice(0, perType));
  return { questions, files: files.length };
}
