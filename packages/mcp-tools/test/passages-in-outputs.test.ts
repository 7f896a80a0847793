import { PASSAGES } from '@memsvc/core';
import { InMemoryMemoryStore, inMemoryEngine, ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { connectedClient } from './connected-client.js';

// Issue 39 (Deliver 3), as a client reads the tools: a hit on a long memory (an assistant's
// answer, a document) shows the passage that matched, not the whole text.
const ANSWER =
  `assistant: ${'Here is some general advice on travelling light and planning ahead. '.repeat(12)}` +
  '\n\nFor live music, Red Rocks Amphitheatre near Denver hosts concerts most summer evenings.\n\n' +
  `${'Remember to check the weather and book early in peak season. '.repeat(12)}`;
const SHORT = 'user: I love live music and I am going to Denver in June.';

type Hit = { id: string; text: string; excerpt?: { start: number; end: number; length: number } };

describe('passages in tool outputs', () => {
  const clock = new ManualClock('2026-11-20T09:00:00Z');
  let client: Client;
  let answerId: string;
  let shortId: string;

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, JSON.stringify(result.structuredContent)).not.toBe(true);
    return result.structuredContent as Record<string, unknown>;
  };

  beforeEach(async () => {
    const store = new InMemoryMemoryStore({ clock });
    const engine = inMemoryEngine(store, { embedder: new StaticEmbedder({}, undefined), clock });
    client = await connectedClient(engine, clock);
    answerId = ((await call('create_memory', { content: ANSWER, type: 'long-term' })).memory as { id: string }).id;
    shortId = ((await call('create_memory', { content: SHORT, type: 'long-term' })).memory as { id: string }).id;
  });
  afterEach(async () => {
    await client.close();
  });

  it(verifies('R-RECALL-PASSAGE', 'recall shows a long hit as the passage that matched, with its excerpt offsets'), async () => {
    expect(ANSWER.length).toBeGreaterThan(PASSAGES.wholeUpTo);
    const hits = (await call('recall', { query: 'which concerts at Red Rocks near Denver?' })).results as Hit[];
    const long = hits.find((hit) => hit.id === answerId);
    expect(long?.text).toBe(`…${ANSWER.slice(long?.excerpt?.start, long?.excerpt?.end)}…`);
    expect(long?.text).toContain('Red Rocks Amphitheatre near Denver hosts concerts');
    expect(long?.text.length).toBeLessThanOrEqual(PASSAGES.maxChars + 2);
    expect(long?.excerpt?.length).toBe(ANSWER.length);
    // A short memory is whole, with no excerpt.
    const short = hits.find((hit) => hit.id === shortId);
    expect(short?.text).toBe(SHORT);
    expect(short).not.toHaveProperty('excerpt');
  });

  it(verifies('R-RECALL-PASSAGE', 'fullContent and get_memory return the long memory whole'), async () => {
    const hits = (await call('recall', { query: 'Red Rocks concerts', fullContent: true })).results as Hit[];
    const long = hits.find((hit) => hit.id === answerId);
    expect(long?.text).toBe(ANSWER);
    expect(long).not.toHaveProperty('excerpt');
    expect(((await call('get_memory', { memoryId: answerId })).memory as { content: string }).content).toBe(ANSWER);
  });

  it(verifies('R-RECALL-PASSAGE', 'prompt_context packs the passage of a long memory, marked as an excerpt'), async () => {
    const { context } = (await call('prompt_context', { query: 'Red Rocks concerts near Denver', tokenBudget: 2000 })) as {
      context: string;
    };
    expect(context).toContain(`(id ${answerId}, excerpt: characters `);
    expect(context).toContain('Red Rocks Amphitheatre near Denver hosts concerts');
    expect(context.split('Here is some general advice').length - 1).toBeLessThan(12);
  });
});
