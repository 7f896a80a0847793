import { InMemoryMemoryStore, inMemoryEngine, ManualClock, StaticEmbedder } from '@memsvc/core/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { verifies } from '../../core/test/requirements.js';
import { connectedClient } from './connected-client.js';

// Issue 38 (Deliver 3), as a client reads the tools: each output says when a memory was said and
// how long ago, by the server's clock, and shows the memory that replaced another before it.
const PARIS = 'I live in Paris';
const BERLIN = 'I moved last month, so I live in Berlin now';
const VECTORS: Record<string, number[]> = { [PARIS]: [1, 0, 0], [BERLIN]: [0.9, Math.sqrt(1 - 0.81), 0] };

type Hit = { id: string; score: number; said: string; ago: string; replacedBy?: string; replaces?: string[] };

describe('time and replacements in tool outputs', () => {
  const clock = new ManualClock('2026-11-20T09:00:00Z');
  let client: Client;
  let paris: string;
  let berlin: string;

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, JSON.stringify(result.structuredContent)).not.toBe(true);
    return result as { structuredContent: Record<string, unknown>; content: { type: string; text: string }[] };
  };

  beforeEach(async () => {
    clock.set('2026-11-20T09:00:00Z');
    const store = new InMemoryMemoryStore({ clock });
    const engine = inMemoryEngine(store, { embedder: new StaticEmbedder(VECTORS), clock });
    client = await connectedClient(engine, clock);
    paris = ((await call('remember', { content: PARIS })).structuredContent.memoryId as string) ?? '';
    clock.set('2026-11-24T14:05:00Z');
    const moved = await call('remember', { content: BERLIN });
    berlin = moved.structuredContent.memoryId as string;
    expect(moved.structuredContent.contradictions).toEqual([expect.objectContaining({ memoryId: paris })]);
    clock.set('2026-11-27T14:05:00Z');
  });
  afterEach(async () => {
    await client.close();
  });

  it(verifies('R-TIME-SAID', 'recall hits carry said (UTC, to the minute) and ago by the server clock'), async () => {
    const { structuredContent } = await call('recall', { query: 'where do I live' });
    const hits = structuredContent.results as Hit[];
    expect(hits.map((hit) => [hit.id, hit.said, hit.ago])).toEqual([
      [berlin, '2026-11-24T14:05Z', '3 days ago'],
      [paris, '2026-11-20T09:00Z', '7 days ago'],
    ]);
    clock.advance(60 * 60_000);
    const later = (await call('recall', { query: 'where do I live' })).structuredContent.results as Hit[];
    expect(later.map((hit) => hit.ago)).toEqual(['3 days ago', '7 days ago']);
    expect(structuredContent.count).toBe(2);
  });

  it(
    verifies('R-TIME-CURRENT-FIRST', 'recall puts the replacement first and labels both, adding it when the search missed it'),
    async () => {
      const both = (await call('recall', { query: 'where do I live' })).structuredContent.results as Hit[];
      expect(both[0]).toMatchObject({ id: berlin, replaces: [paris] });
      expect(both[0]).not.toHaveProperty('replacedBy');
      expect(both[1]).toMatchObject({ id: paris, replacedBy: berlin });
      expect(both[1]).not.toHaveProperty('replaces');

      const missed = (await call('recall', { query: 'Paris' })).structuredContent;
      const hits = missed.results as Hit[];
      expect(hits.map((hit) => hit.id)).toEqual([berlin, paris]);
      expect(hits[0]?.score).toBe(hits[1]?.score);
      expect(missed.count).toBe(2);
    },
  );

  it(
    verifies('R-TIME-CURRENT-FIRST', 'prompt_context, compress_context, load_context and reflect read Berlin before Paris, dated'),
    async () => {
      const now = '## Memory Context (now 2026-11-27T14:05Z)\n';
      const current = `### 2026-11-24T14:05Z, 3 days ago (id ${berlin}, current, replaces ${paris})\n${BERLIN}`;
      const outdated = `### 2026-11-20T09:00Z, 7 days ago (id ${paris}, outdated, replaced by ${berlin})\n${PARIS}`;
      const blocks = [
        (await call('prompt_context', { query: 'Paris' })).structuredContent.context,
        (await call('compress_context', { query: 'where do I live' })).structuredContent.context,
        (await call('load_context', {})).structuredContent.context,
        (await call('reflect', { query: 'where do I live' })).structuredContent.summary,
      ] as string[];
      for (const text of blocks) {
        expect(text.startsWith(now)).toBe(true);
        expect(text).toContain(current);
        expect(text).toContain(outdated);
        expect(text.indexOf(current)).toBeLessThan(text.indexOf(outdated));
        // Still one fence: the labels are inside it, the memories still data.
        expect(text.split('<<untrusted-memory>>')).toHaveLength(2);
      }
      const prompt = await call('prompt_context', { query: 'Paris' });
      expect(prompt.structuredContent).toMatchObject({ memoryIds: [berlin, paris], candidatesFound: 2 });
      expect(prompt.content[0]?.text).toBe(prompt.structuredContent.context);
    },
  );
});
