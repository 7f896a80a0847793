import { describe, expect, it } from 'vitest';
import { ASKING_DISCOUNT, asksQuestion } from '../src/domain/asking-turn.js';
import { FOLLOW_UP_SUPPORT, withFollowUpSupport } from '../src/domain/follow-up-support.js';
import { rankCandidates } from '../src/domain/recall-ranking.js';
import { FUSION_WEIGHTS, type MemoryRecord, type RecallCandidate } from '../src/index.js';
import { verifies } from './requirements.js';

const turnOf = (id: string, turn: number) => ({ conversation: { id, turn, chunk: 0, role: 'user' } });
const matched = (matchScore: number, metadata: Record<string, unknown> = {}, content = 'a statement') => ({
  memory: { metadata, content } as MemoryRecord,
  matchScore,
});

describe('follow-up support (a turn lifted by the turns after it)', () => {
  it(verifies('R-RECALL-FOLLOW-UP', 'adds (1 − match) · weight · Σ next turns’ match / distance, for the two turns after'), () => {
    const { weight } = FOLLOW_UP_SUPPORT;
    const scores = withFollowUpSupport([
      matched(0.3, turnOf('c1', 4)),
      matched(0.8, turnOf('c1', 5)),
      matched(0.6, turnOf('c1', 6)),
      matched(0.9, turnOf('c1', 7)),
    ]);
    expect(scores[0]).toBeCloseTo(0.3 + 0.7 * weight * (0.8 + 0.6 / 2), 12);
    expect(scores[1]).toBeCloseTo(0.8 + 0.2 * weight * (0.6 + 0.9 / 2), 12);
    expect(scores[2]).toBeCloseTo(0.6 + 0.4 * weight * 0.9, 12);
    // The last turn has no follow-ups: its own match.
    expect(scores[3]).toBe(0.9);
  });

  it(
    verifies(
      'R-RECALL-FOLLOW-UP',
      'never lowers a score, never passes 1, and ignores turns before, other conversations and plain memories',
    ),
    () => {
      const scores = withFollowUpSupport([
        matched(0.2, turnOf('c1', 1)),
        matched(1, turnOf('c1', 0)),
        matched(1, turnOf('c2', 2)),
        matched(1, turnOf('c1', 4)),
        matched(0.5),
        matched(0.99, turnOf('c3', 0)),
        matched(1, turnOf('c3', 1)),
        matched(1, turnOf('c3', 2)),
      ]);
      expect(scores.slice(0, 5)).toEqual([0.2, 1, 1, 1, 0.5]);
      expect(scores[5]).toBeGreaterThan(0.99);
      expect(scores[5]).toBeLessThanOrEqual(1);
    },
  );

  it(verifies('R-RECALL-FOLLOW-UP', 'reads the turn from create_memory metadata too, and counts a chunked turn by its best chunk'), () => {
    const scores = withFollowUpSupport([
      matched(0.4, { conversationId: 'chat-9', turn: 2 }),
      matched(0.2, { conversationId: 'chat-9', turn: 3 }),
      matched(0.7, { conversationId: 'chat-9', turn: 3 }),
    ]);
    expect(scores[0]).toBeCloseTo(0.4 + 0.6 * FOLLOW_UP_SUPPORT.weight * 0.7, 12);
    expect(withFollowUpSupport([matched(0.4, { conversationId: 'chat-9', turn: 2 })], { weight: 0, turns: 2, replyWeight: 0 })).toEqual([
      0.4,
    ]);
  });

  it(verifies('R-RECALL-FOLLOW-UP', 'reorders recall: the answer followed by matching turns passes a slightly better lone match'), () => {
    const now = new Date('2026-05-01T00:00:00Z');
    const candidate = (id: string, lexicalScore: number, metadata: Record<string, unknown>): RecallCandidate => ({
      memory: { id, importanceScore: 0.5, createdAt: now, metadata, content: `turn ${id}` } as MemoryRecord,
      vectorRank: undefined,
      lexicalRank: 1,
      lexicalScore,
      similarity: undefined,
    });
    const candidates = [candidate('lone', 6, {}), candidate('answer', 5, turnOf('c1', 3)), candidate('follow-up', 8, turnOf('c1', 4))];
    const ranked = rankCandidates(candidates, FUSION_WEIGHTS.disabled, { now, limit: 3 });
    expect(ranked.map((r) => r.memory.id)).toEqual(['follow-up', 'answer', 'lone']);
    const answer = ranked[1];
    expect(answer?.score).toBeGreaterThan(answer?.matchScore ?? 1);
    expect(ranked[2]?.score).toBe(ranked[2]?.matchScore);
    expect(
      rankCandidates(candidates, FUSION_WEIGHTS.disabled, { now, limit: 3, followUps: { weight: 0, turns: 2, replyWeight: 0 } }).map(
        (r) => r.memory.id,
      ),
    ).toEqual(['follow-up', 'lone', 'answer']);
  });
});

describe('reply support and the asking discount (a question turn lifts its reply, and counts less itself)', () => {
  const asking = (matchScore: number, metadata: Record<string, unknown>) => matched(matchScore, metadata, 'Ann: What inspired you?');

  it(verifies('R-RECALL-REPLY', 'the turn right after a matching question turn gains (1 − s) · replyWeight · the question’s match'), () => {
    const { replyWeight } = FOLLOW_UP_SUPPORT;
    const noFollowUps = { ...FOLLOW_UP_SUPPORT, weight: 0 };
    const scores = withFollowUpSupport(
      [asking(0.8, turnOf('c1', 4)), matched(0.3, turnOf('c1', 5)), matched(0.3, turnOf('c1', 6))],
      noFollowUps,
    );
    expect(scores[0]).toBe(0.8);
    expect(scores[1]).toBeCloseTo(0.3 + 0.7 * replyWeight * 0.8, 12);
    // Only the turn right after the question is its reply.
    expect(scores[2]).toBe(0.3);
  });

  it(
    verifies(
      'R-RECALL-REPLY',
      'a statement before a turn lifts nothing; nor does a question of another conversation; with follow-ups, both apply',
    ),
    () => {
      const scores = withFollowUpSupport([
        matched(0.9, turnOf('c1', 1)),
        matched(0.2, turnOf('c1', 2)),
        asking(0.9, turnOf('c2', 1)),
        matched(0.2, turnOf('c3', 2)),
      ]);
      expect(scores[1]).toBe(0.2);
      expect(scores[3]).toBe(0.2);
      const { weight, replyWeight } = FOLLOW_UP_SUPPORT;
      const both = withFollowUpSupport([asking(0.6, turnOf('c1', 1)), matched(0.2, turnOf('c1', 2)), matched(0.5, turnOf('c1', 3))]);
      const afterFollowUps = 0.2 + 0.8 * weight * 0.5;
      expect(both[1]).toBeCloseTo(afterFollowUps + (1 - afterFollowUps) * replyWeight * 0.6, 12);
      expect(Math.max(...both)).toBeLessThanOrEqual(1);
    },
  );

  it(verifies('R-RECALL-ASKING', 'asksQuestion is a question mark, ASCII or full-width, anywhere in the content'), () => {
    expect(asksQuestion('Caroline: Do you have any pets?')).toBe(true);
    expect(asksQuestion('Hi! Have you been? I went last week.')).toBe(true);
    expect(asksQuestion('ペットはいますか？')).toBe(true);
    expect(asksQuestion('Melanie: We got another cat named Bailey.')).toBe(false);
  });

  it(
    verifies('R-RECALL-ASKING', 'recall ranks the reply to a matching question above the question, and keeps matchScore the memory’s own'),
    () => {
      const now = new Date('2026-05-01T00:00:00Z');
      const candidate = (id: string, lexicalScore: number, content: string, turn: number): RecallCandidate => ({
        memory: {
          id,
          importanceScore: 0.5,
          createdAt: now,
          metadata: turnOf('c1', turn) as Record<string, unknown>,
          content,
        } as MemoryRecord,
        vectorRank: undefined,
        lexicalRank: 1,
        lexicalScore,
        similarity: undefined,
      });
      const question = candidate('question', 10, 'Mel: What inspired your painting?', 3);
      const reply = candidate('reply', 8, 'Caroline: A visit to the LGBTQ center.', 4);
      const ranked = rankCandidates([question, reply], FUSION_WEIGHTS.disabled, { now, limit: 2 });
      expect(ranked.map((r) => r.memory.id)).toEqual(['reply', 'question']);
      const [first, second] = ranked;
      expect(second?.matchScore).toBeGreaterThan(first?.matchScore ?? 1);
      // The question keeps its follow-up support from the reply; the discount applies on top.
      const [questionLifted] = withFollowUpSupport([
        { memory: question.memory, matchScore: second?.matchScore ?? 0 },
        { memory: reply.memory, matchScore: first?.matchScore ?? 0 },
      ]);
      expect(second?.score).toBeCloseTo((questionLifted ?? 0) * (1 - ASKING_DISCOUNT), 12);
      const off = rankCandidates([question, reply], FUSION_WEIGHTS.disabled, {
        now,
        limit: 2,
        followUps: { ...FOLLOW_UP_SUPPORT, replyWeight: 0 },
      });
      expect(off.map((r) => r.memory.id)).toEqual(['question', 'reply']);
    },
  );
});
