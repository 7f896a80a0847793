import { describe, expect, it } from 'vitest';
import { NAMED_SPEAKER_BOOST, ROLE_SPEAKER_BOOST, speakerNamedIn } from '../src/domain/named-speaker.js';
import { rankCandidates } from '../src/domain/recall-ranking.js';
import { speakerOf } from '../src/domain/search-context.js';
import { FUSION_WEIGHTS, type MemoryRecord, type RecallCandidate } from '../src/index.js';
import { verifies } from './requirements.js';

const memory = (content: string, metadata: Record<string, unknown> = {}) => ({ content, metadata });

describe('named speakers (a question about someone is answered by what they said)', () => {
  it(verifies('R-RECALL-SPEAKER', "a memory's speaker is its metadata's speaker or role, else its content's “<speaker>: ” prefix"), () => {
    expect(speakerOf(memory('Melanie: We went camping.'))).toBe('Melanie');
    expect(speakerOf(memory('Dr. Ann Lee: take two.'))).toBe('Dr. Ann Lee');
    expect(speakerOf(memory('user: hi', { conversation: { id: 'c', turn: 0, role: 'user' } }))).toBe('user');
    expect(speakerOf(memory('plain text', { speaker: 'Jon' }))).toBe('Jon');
    expect(speakerOf(memory('The deploy target is eu-west-1'))).toBeUndefined();
    expect(speakerOf(memory('Note at 10:30: call Bob'))).toBeUndefined();
  });

  it(
    verifies('R-RECALL-SPEAKER', 'a speaker is named when all their words stand in the query as words, in any case, possessive or not'),
    () => {
      const named = speakerNamedIn("What did Melanie's family do while camping with dr. ann lee?");
      expect(named(memory('Melanie: We roasted marshmallows.'))).toBe('name');
      expect(named(memory('Dr. Ann Lee: I came too.'))).toBe('name');
      expect(named(memory('Mel: hi'))).toBe(false);
      expect(named(memory('Caroline: Sounds fun!'))).toBe(false);
      expect(named(memory('A memory with no speaker'))).toBe(false);
    },
  );

  it(
    verifies(
      'R-RECALL-SPEAKER',
      'in a chat with an assistant, "I" and "my" name the user, "you" the assistant only as the one who said something before, and a query in both, or asking to be reminded, names neither',
    ),
    () => {
      const user = memory('user: I bought my sister a Kindle for her birthday.', { conversation: { id: 'c', turn: 0, role: 'user' } });
      const assistant = memory('assistant: Great choice! E-readers make good gifts.', {
        conversation: { id: 'c', turn: 1, role: 'assistant' },
      });
      const caroline = memory('Caroline: I bought a Kindle.');
      const asksAboutMe = speakerNamedIn('What did I buy my sister for her birthday?');
      expect([asksAboutMe(user), asksAboutMe(assistant), asksAboutMe(caroline)]).toEqual(['role', false, false]);
      for (const saidBefore of [
        'Which e-reader did you suggest?',
        'What was the name of the e-reader you recommended?',
        'Which store had you mentioned for e-readers?',
        'Going back to our conversation about e-readers, which one was it?',
      ]) {
        const asksAboutYou = speakerNamedIn(saidBefore);
        expect([asksAboutYou(user), asksAboutYou(assistant)], saidBefore).toEqual([false, 'role']);
      }
      // "You" asked to do something now addresses the assistant: the question is still about the user.
      for (const request of ['Do you have any gift ideas for my sister?', 'Could you suggest a book for my commute?']) {
        const asks = speakerNamedIn(request);
        expect([asks(user), asks(assistant)], request).toEqual(['role', false]);
      }
      // Asking to be reminded asks what was said before, by either side: "I" is only the one asking.
      for (const reminded of [
        'Can you remind me what I bought my sister?',
        "I'm planning a trip to Rome again: can you remind me of that restaurant near the Vatican?",
        "I'm trying to recall which e-reader I picked.",
        'Do you remember the e-reader I liked?',
      ]) {
        const asks = speakerNamedIn(reminded);
        expect([asks(user), asks(assistant)], reminded).toEqual([false, false]);
      }
      const both = speakerNamedIn('What did you recommend for my sister?');
      expect([both(user), both(assistant)]).toEqual([false, false]);
      // Someone's name still names them, whatever person the question is in.
      expect(speakerNamedIn('What did the user buy?')(user)).toBe('name');
    },
  );

  it(
    verifies('R-RECALL-SPEAKER', "when the query names a candidate's speaker, the others' scores are divided by 1 + NAMED_SPEAKER_BOOST"),
    () => {
      const now = new Date('2026-05-01T00:00:00Z');
      const candidate = (id: string, lexicalScore: number, content: string): RecallCandidate => ({
        memory: { id, importanceScore: 0.5, createdAt: now, metadata: {}, content } as unknown as MemoryRecord,
        vectorRank: undefined,
        lexicalRank: 1,
        lexicalScore,
        similarity: undefined,
      });
      const byCaroline = candidate('caroline', 10, 'Caroline: Melanie loves camping with her kids.');
      const byMelanie = candidate('melanie', 9, 'Melanie: We roasted marshmallows by the fire.');
      const unnamed = candidate('note', 9.5, 'Camping gear list: tent, marshmallows');
      const query = 'What did Melanie do while camping?';
      const ranked = rankCandidates([byCaroline, byMelanie, unnamed], FUSION_WEIGHTS.disabled, { now, limit: 3, query });
      expect(ranked.map((r) => r.memory.id)).toEqual(['melanie', 'caroline', 'note']);
      const melanie = ranked[0];
      const caroline = ranked[1];
      expect(melanie?.score).toBe(melanie?.matchScore);
      expect(caroline?.score).toBeCloseTo((caroline?.matchScore ?? 0) / (1 + NAMED_SPEAKER_BOOST), 12);
      // A clearly better match by someone else still leads; a query naming no speaker changes nothing.
      const far = candidate('far', 20, 'Caroline: Melanie went camping at the lake and roasted marshmallows.');
      expect(rankCandidates([far, byMelanie], FUSION_WEIGHTS.disabled, { now, limit: 1, query })[0]?.memory.id).toBe('far');
      // Named by grammatical person only: the role's pull, ROLE_SPEAKER_BOOST.
      const chat = (id: string, lexicalScore: number, role: string): RecallCandidate => ({
        ...candidate(id, lexicalScore, `${role}: e-readers`),
        memory: { ...candidate(id, lexicalScore, `${role}: e-readers`).memory, metadata: { conversation: { id: 'c', turn: 0, role } } },
      });
      const byRole = rankCandidates([chat('assistant', 10, 'assistant'), chat('user', 8, 'user')], FUSION_WEIGHTS.disabled, {
        now,
        limit: 2,
        query: 'Which e-reader did I buy?',
      });
      expect(byRole.map((r) => r.memory.id)).toEqual(['user', 'assistant']);
      expect(byRole[1]?.score).toBeCloseTo((byRole[1]?.matchScore ?? 0) / (1 + ROLE_SPEAKER_BOOST), 12);
      const plain = rankCandidates([byCaroline, byMelanie, unnamed], FUSION_WEIGHTS.disabled, { now, limit: 3, query: 'camping' });
      expect(plain.every((r) => r.score === r.matchScore)).toBe(true);
      expect(plain.map((r) => r.memory.id)).toEqual(['caroline', 'note', 'melanie']);
    },
  );
});
