import { describe, expect, it } from 'vitest';
import { buildSearchContext, conversationReference, isConversationTurn } from '../src/domain/search-context.js';
import { verifies } from './requirements.js';

describe('search context', () => {
  it(verifies('R-SEARCH-CONTEXT', 'writes the date, the absolute dates of relative ones, the speaker and the two turns before'), () => {
    const context = buildSearchContext({
      content: 'I went to the support group yesterday',
      date: new Date('2023-05-08T13:56:00Z'),
      speaker: 'Caroline',
      previous: ['Melanie: How was your week?', 'Caroline: Hi Mel!', 'a third turn back'],
    });
    expect(context).toBe(
      'on 8 May 2023 May 2023 2023-05-08; when: 7 May 2023 May 2023 2023-05-07; speaker Caroline; after: How was your week?; after: Hi Mel!',
    );
    // A speaker the content names already adds nothing.
    expect(buildSearchContext({ content: 'Caroline: hello', speaker: 'Caroline' })).toBeUndefined();
  });

  it(verifies('R-SEARCH-CONTEXT', 'adds scope, tags and the words of the caller’s metadata, not its conversation keys'), () => {
    const context = buildSearchContext({
      content: 'invoices live in PostgreSQL',
      scope: 'billing',
      tags: ['ops', 'db'],
      metadata: { team: 'payments', conversationId: 'c-1', turn: 12, links: ['runbook'] },
    });
    expect(context).toBe('scope billing; tags ops db; team payments links runbook');
  });

  it(verifies('R-SEARCH-CONTEXT', 'is undefined when the caller gave nothing, and bounds the previous turn'), () => {
    expect(buildSearchContext({ content: 'a fact' })).toBeUndefined();
    expect(buildSearchContext({ content: 'x', metadata: {} })).toBeUndefined();
    const long = buildSearchContext({ content: 'x', previous: ['y'.repeat(5000), 'z'.repeat(5000)] });
    expect(long?.length).toBeLessThan(1300);
  });

  it(verifies('R-SEARCH-CONTEXT', 'reads a conversation reference in either shape, ignoring malformed parts'), () => {
    expect(conversationReference({ conversationId: 'c-1', turn: 3, sessionDate: '2023-05-08', speaker: 'Mel' })).toEqual({
      id: 'c-1',
      turn: 3,
      date: new Date('2023-05-08T00:00:00Z'),
      speaker: 'Mel',
    });
    expect(conversationReference({ conversation: { id: 'c-2', turn: 0, date: '2024-01-01', role: 'user' } })).toEqual({
      id: 'c-2',
      turn: 0,
      date: new Date('2024-01-01T00:00:00Z'),
      speaker: 'user',
    });
    expect(conversationReference({ conversationId: 7, turn: -1, date: 'yesterday' })).toEqual({
      id: undefined,
      turn: undefined,
      date: undefined,
      speaker: undefined,
    });
  });
});

describe('conversation turns', () => {
  it(verifies('R-SEARCH-CONTEXT', 'recognises a memory written as "<speaker>: <text>"'), () => {
    expect(isConversationTurn('Caroline: I went to the support group')).toBe(true);
    expect(isConversationTurn('assistant: the port is 5433')).toBe(true);
    expect(isConversationTurn('Dr. Smith: take two')).toBe(true);
    expect(isConversationTurn('The invoices live in PostgreSQL')).toBe(false);
    expect(isConversationTurn('https://example.com: a link')).toBe(false);
    expect(isConversationTurn(': no speaker')).toBe(false);
  });
});
