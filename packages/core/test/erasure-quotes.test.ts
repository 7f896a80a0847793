import { describe, expect, it } from 'vitest';
import { quotedInLaterContexts, quotesOfVersions, searchContextWithout } from '../src/domain/erasure.js';
import { buildSearchContext } from '../src/domain/search-context.js';
import { chunkTurn } from '../src/engine/ingest-conversation.js';
import { verifies } from './requirements.js';

describe('quotes an erasure removes', () => {
  it(verifies('R-ERASE-EVERY-VERSION', 'finds the quote of each version, and of a turn that itself starts like a speaker'), () => {
    const said = 'Note: my locker code is 1234';
    // Ingest quotes the turn's own text; the memory stores it behind "user: ".
    const later = buildSearchContext({ content: 'Noted.', previous: [said] }) ?? '';
    const stored = chunkTurn('user', said)[0] ?? '';
    expect(searchContextWithout(later, [quotedInLaterContexts(stored)])).toBe(later);
    expect(searchContextWithout(later, quotesOfVersions([stored]))).toBeNull();

    const edited = 'user: my locker code is 9876';
    const context = `${buildSearchContext({ content: 'ok', previous: ['user: my locker code is 1234'] })}; scope gym`;
    expect(searchContextWithout(context, quotesOfVersions([edited, 'user: my locker code is 1234']))).toBe('scope gym');
  });

  it(verifies('R-ERASE-QUOTE-WHOLE', "removes a quote only as a whole part: another memory's longer quote it begins stays"), () => {
    const context = 'after: hiking in May with Ana; after: hi; scope team';
    expect(searchContextWithout(context, [quotedInLaterContexts('user: hi')])).toBe('after: hiking in May with Ana; scope team');
    expect(searchContextWithout('after: hi', [quotedInLaterContexts('user: hi')])).toBeNull();
  });

  it(
    verifies('R-ERASE-EVERY-VERSION', 'finds the quote of a turn sent with spaces or newlines around it (the memory keeps it trimmed)'),
    () => {
      for (const said of ['My locker code is 1234\n', '  My locker code is 1234 ']) {
        const later = `${buildSearchContext({ content: 'Noted.', previous: [said] })}; scope gym`;
        const stored = chunkTurn('user', said)[0] ?? '';
        expect(searchContextWithout(later, quotesOfVersions([stored]))).toBe('scope gym');
      }
    },
  );
});
