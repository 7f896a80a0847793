import { describe, expect, it } from 'vitest';
import { continuedConversation } from '../src/domain/continued-conversation.js';
import { verifies } from './requirements.js';

const now = new Date('2026-05-01T09:00:00Z');
const turn = (content: string, metadata: Record<string, unknown> = {}) => ({ content, metadata });

describe('the place of a turn stored without a conversation', () => {
  it(verifies('R-SEARCH-CONTEXT', 'continues the conversation of the turn just before it, whichever shape placed that turn'), () => {
    expect(
      continuedConversation(turn('Ben: Flights are booked'), [turn('Ana: Lisbon?', { conversation: { id: 'c', turn: 3 } })], now),
    ).toEqual({
      id: 'c',
      turn: 4,
    });
    expect(continuedConversation(turn('Ben: Flights are booked'), [turn('Ana: Lisbon?', { conversationId: 'd', turn: 0 })], now)).toEqual({
      id: 'd',
      turn: 1,
    });
  });

  it(verifies('R-SEARCH-CONTEXT', 'starts a conversation after a plain fact, an unplaced memory or nothing, with an id of its own'), () => {
    const alone = continuedConversation(turn('Ben: Flights are booked'), [], now);
    expect(alone).toEqual({ id: expect.stringMatching(/^conv-[0-9a-f]{16}$/), turn: 0 });
    expect(continuedConversation(turn('Ben: Flights are booked'), [turn('The invoices live in PostgreSQL')], now)).toEqual(alone);
    expect(continuedConversation(turn('Ben: Something else'), [], now)?.id).not.toBe(alone?.id);
  });

  it(verifies('R-SEARCH-CONTEXT', 'leaves a plain fact and a memory its caller placed as they are'), () => {
    expect(continuedConversation(turn('Marco has a new phone number: 0612'), [], now)).toBeUndefined();
    expect(continuedConversation(turn('Ben: Flights are booked', { conversation: 'trip' }), [], now)).toBeUndefined();
  });
});
