// The LongMemEval part of `pnpm eval:conversations` is a gate: its scoring must count what the
// dataset README defines, or the gate compares the wrong things. Synthetic histories only: the
// dataset is never copied into the repository.
import { describe, expect, it } from 'vitest';
import { parseQuestion } from '../../eval/longmemeval-dataset.mjs';
import { scoreSessions, scoreTurns, sessionsOfTopTurns } from '../../eval/longmemeval-metrics.mjs';

const turn = (key: string, sessionId = 's') => ({ key, sessionId });

describe('LongMemEval scoring', () => {
  it('counts an evidence turn in the top 5 for any@5, and not one in 6th place', () => {
    const filler = [[turn('0:1')], [turn('0:2')], [turn('0:3')], [turn('0:4')], [turn('0:5')]];
    expect(scoreTurns([...filler.slice(0, 4), [turn('1:0')]], ['1:0']).turnAny).toBe(1);
    expect(scoreTurns([...filler, [turn('1:0')]], ['1:0']).turnAny).toBe(0);
  });

  it('counts the chunks of one turn once in nDCG@10, so splitting a turn cannot raise the score', () => {
    const once = scoreTurns([[turn('1:0')], [turn('0:1')]], ['1:0', '2:0']);
    const twice = scoreTurns([[turn('1:0')], [turn('1:0')]], ['1:0', '2:0']);
    expect(twice.turnNdcg).toBeCloseTo(once.turnNdcg, 10);
    expect(once.turnNdcg).toBeCloseTo(1 / (1 + 1 / Math.log2(3)), 10);
    expect(scoreTurns([[turn('1:0')], [turn('2:0')]], ['1:0', '2:0']).turnNdcg).toBeCloseTo(1, 10);
  });

  it('scores sessions by the sessions of the top 5: any for one answer session, all for every one', () => {
    const ranked = [[turn('0:0', 'a')], [turn('1:0', 'x')], [turn('2:0', 'y')], [turn('3:0', 'z')], [turn('4:0', 'w')], [turn('5:0', 'b')]];
    const sessions = sessionsOfTopTurns(ranked);
    expect(sessions).toEqual(['a', 'x', 'y', 'z', 'w']);
    expect(scoreSessions(sessions, ['a', 'b'])).toEqual({ sessionAny: 1, sessionAll: 0 });
    expect(scoreSessions(sessions, ['a'])).toEqual({ sessionAny: 1, sessionAll: 1 });
  });

  it('puts a history in the order its sessions took place, and keys each turn by its place', () => {
    const question = parseQuestion({
      question_id: 'q1',
      question_type: 'knowledge-update',
      question: 'Where do I live now?',
      question_date: '2023/05/30 (Tue) 10:18',
      answer: 'Berlin',
      answer_session_ids: ['later'],
      haystack_session_ids: ['later', 'earlier'],
      haystack_dates: ['2023/05/02 (Tue) 09:00', '2023/04/01 (Sat) 18:30'],
      haystack_sessions: [
        [{ role: 'user', content: 'I moved to Berlin.', has_answer: true }],
        [{ role: 'user', content: 'I live in Paris.' }],
      ],
    });
    expect(question.askedAt).toBe('2023-05-30T10:18:00Z');
    expect(question.sessions.map((session: { id: string }) => session.id)).toEqual(['earlier', 'later']);
    expect(question.sessions[1].at).toBe('2023-05-02T09:00:00Z');
    expect(question.evidence).toEqual(['1:0']);
  });
});
