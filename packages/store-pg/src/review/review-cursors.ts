import { MemsvcError } from '@memsvc/core';
import { isUuid } from '../ids/uuid-v7.js';

/** Where a page of contradicted pairs stopped: the last pair's two ids. */
export interface PairCursor {
  readonly highId: string;
  readonly lowId: string;
}

/** Where a page of low-importance memories stopped: the last row's stored score and id. */
export interface ScoreCursor {
  readonly score: number;
  readonly id: string;
}

export function encodePairCursor(cursor: PairCursor): string {
  return `${cursor.highId}_${cursor.lowId}`;
}

export function decodePairCursor(text: string): PairCursor {
  const [highId = '', lowId = '', ...rest] = text.split('_');
  if (rest.length > 0 || !isUuid(highId) || !isUuid(lowId)) throw invalidCursor();
  return { highId: highId.toLowerCase(), lowId: lowId.toLowerCase() };
}

/** The score as JavaScript prints a double: the shortest text that reads back as the same double in PostgreSQL. */
export function encodeScoreCursor(cursor: ScoreCursor): string {
  return `${cursor.score}_${cursor.id}`;
}

export function decodeScoreCursor(text: string): ScoreCursor {
  const [scoreText = '', id = '', ...rest] = text.split('_');
  const score = Number(scoreText);
  if (rest.length > 0 || scoreText === '' || !Number.isFinite(score) || !isUuid(id)) throw invalidCursor();
  return { score, id: id.toLowerCase() };
}

function invalidCursor(): MemsvcError {
  return new MemsvcError('INVALID_INPUT', 'cursor is not one this server returned (expected the nextCursor of a previous page)', {
    field: 'cursor',
  });
}
