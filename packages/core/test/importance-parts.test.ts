import { describe, expect, it } from 'vitest';
import { IMPORTANCE_WEIGHTS, importanceScore } from '../src/domain/importance.js';
import { ACCESS_SATURATION, importanceParts, PINNED_FLOOR } from '../src/index.js';

const DAY = 86_400_000;
const now = new Date('2026-05-01T12:00:00.000Z');

describe('importanceParts, the memory page’s breakdown of the importance score', () => {
  it('adds up to importanceScore for every mix of inputs, with its weights', () => {
    for (const importance of [null, 0, 0.2, 0.7, 1]) {
      for (const accessCount of [0, 1, 5, ACCESS_SATURATION, 500]) {
        for (const ageDays of [0, 0.5, 14, 40, 400]) {
          for (const pinned of [false, true]) {
            const inputs = { importance, accessCount, pinned, createdAt: new Date(now.getTime() - ageDays * DAY), lastAccessedAt: null };
            const parts = importanceParts(inputs, now, 14);
            const sum = parts.explicit.contribution + parts.recency.contribution + parts.access.contribution + parts.pinnedLift;
            expect(parts.score).toBe(importanceScore(inputs, now, 14));
            expect(sum).toBeCloseTo(parts.score, 12);
            expect(parts.explicit.weight).toBe(IMPORTANCE_WEIGHTS.explicit);
            expect(parts.recency.weight).toBe(IMPORTANCE_WEIGHTS.recency);
            expect(parts.access.weight).toBe(IMPORTANCE_WEIGHTS.access);
            if (!pinned) expect(parts.pinnedLift).toBe(0);
            else expect(parts.score).toBeGreaterThanOrEqual(PINNED_FLOOR);
          }
        }
      }
    }
  });

  it('names each part: a stated or default importance, the days since the last touch, the reads', () => {
    const parts = importanceParts(
      {
        importance: null,
        accessCount: 3,
        pinned: true,
        createdAt: new Date(now.getTime() - 30 * DAY),
        lastAccessedAt: new Date(now.getTime() - 14 * DAY),
      },
      now,
      14,
    );
    expect(parts.explicit).toMatchObject({ value: 0.5, stated: false, contribution: 0.2 });
    expect(parts.recency.daysSinceTouched).toBe(14);
    expect(parts.recency.value).toBeCloseTo(0.5, 12);
    expect(parts.access).toMatchObject({ reads: 3, value: Math.log2(4) / Math.log2(1 + ACCESS_SATURATION) });
    expect(parts.pinnedLift).toBeCloseTo(PINNED_FLOOR - (0.2 + 0.35 * 0.5 + 0.25 * parts.access.value), 12);
    expect(parts.score).toBe(PINNED_FLOOR);
  });
});
