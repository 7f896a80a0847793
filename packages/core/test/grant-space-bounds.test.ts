import { describe, expect, it } from 'vitest';
import { candidatesInside } from '../src/domain/grant-space-bounds.js';
import { supersessionRequest } from '../src/domain/supersession-plan.js';
import { type MemoryRecord, MemsvcError } from '../src/index.js';
import { verifies } from './requirements.js';

const memory = (id: string, scope: string | null) => ({ id, scope, deletedAt: null, supersededBy: null }) as unknown as MemoryRecord;
const inA = memory('in-a', 'project:a');
const inB = memory('in-b', 'project:b');
const unscoped = memory('unscoped', null);

/** The code, field and id a refused plan throws with. */
function refusal(plan: () => unknown): unknown {
  try {
    plan();
    return undefined;
  } catch (error) {
    return error instanceof MemsvcError ? { code: error.code, field: error.data.field, memoryId: error.data.memoryId } : error;
  }
}

describe('a write under a grant is bound to the granted space (core decides it once)', () => {
  it(
    verifies('R-GRANT-SUPERSEDES', 'supersedes under a grant retires only current memories inside the space; any other id is FORBIDDEN'),
    () => {
      const bound = (ids: string[]) => supersessionRequest(ids, { space: 'project:a' });
      expect(
        bound(['in-a'])
          ?.plan([inA], 'new', [])
          .map((effect) => effect.memory.id),
      ).toEqual(['in-a']);
      // Outside the space, and unknown: the same answer, so it tells nothing about which ids exist.
      for (const [ids, found] of [
        [['in-b'], [inB]],
        [['unscoped'], [unscoped]],
        [
          ['in-a', 'in-b'],
          [inA, inB],
        ],
        [['nowhere'], []],
      ] as const) {
        expect(refusal(() => bound([...ids])?.plan(found, 'new', []))).toEqual({
          code: 'FORBIDDEN',
          field: 'supersedes',
          memoryId: ids.at(-1),
        });
      }
      // Without a grant, the owner's own memories of any scope are its to retire.
      expect(
        supersessionRequest(['in-b'])
          ?.plan([inB], 'new', [])
          .map((effect) => effect.memory.id),
      ).toEqual(['in-b']);
    },
  );

  it(
    verifies('R-GRANT-SUPERSEDES', 'under a grant no candidate outside the space is a duplicate, a contradiction or a changed fact'),
    () => {
      const candidates = {
        exact: inB,
        neighbours: [
          { memory: inB, similarity: 0.9 },
          { memory: inA, similarity: 0.85 },
        ],
        related: [unscoped, inA],
      };
      expect(candidatesInside(candidates, 'project:a')).toEqual({
        exact: undefined,
        neighbours: [{ memory: inA, similarity: 0.85 }],
        related: [inA],
      });
      expect(candidatesInside(candidates, undefined)).toBe(candidates);
    },
  );
});
