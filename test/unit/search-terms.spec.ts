import fc from 'fast-check';
import {
  MAX_INDEXED_CHARS,
  MAX_TERM,
  allowedEdits,
  anchorLength,
  editDistance,
  identifierParts,
  indexText,
  isKeyTerm,
  isVocabularyTerm,
  queryWords,
  reverse,
  vocabulary,
  words,
} from '../../src/modules/intelligence/text/terms';

/** Optimal-string-alignment distance, the textbook way (no cut-off): the reference for editDistance. */
function osa(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

describe('identifier parts', () => {
  it.each([
    ['getUserName', ['get', 'user', 'name']],
    ['GetUserName', ['get', 'user', 'name']],
    ['HTTPServer', ['http', 'server']],
    ['XMLHttpRequest', ['xml', 'http', 'request']],
    ['snake_case_name', ['snake', 'case', 'name']],
    ['SCREAMING_CASE', ['screaming', 'case']],
    ['_private', ['private']],
    ['utf8', ['utf', '8']],
    ['v2Api', ['v', '2', 'api']],
    ['straßeName', ['straße', 'name']],
    ['ÉcoleNormale', ['école', 'normale']],
  ])('%s -> %j', (token, parts) => {
    expect(identifierParts(token)).toEqual(parts);
  });

  it.each(['lowercase', '12345', 'Hello', 'ABC', '日本語'])('%s has no parts beyond itself', (token) => {
    expect(identifierParts(token)).toEqual([]);
  });
});

describe('words and the indexed text', () => {
  it('splits on anything but letters, digits and underscores (kebab-case is two words), keeping case', () => {
    expect(words('my-component: getUserName(x_1) 日本語 — café!')).toEqual([
      'my',
      'component',
      'getUserName',
      'x_1',
      '日本語',
      'café',
    ]);
  });

  it('leaves out runs longer than MAX_TERM (hashes, base64) and text past MAX_INDEXED_CHARS', () => {
    expect(words(`short ${'a'.repeat(MAX_TERM)} ${'b'.repeat(MAX_TERM + 1)} end`)).toEqual([
      'short',
      'a'.repeat(MAX_TERM),
      'end',
    ]);
    expect(words(`${'x '.repeat(MAX_INDEXED_CHARS / 2)}tail`)).not.toContain('tail');
  });

  it('indexes every word lowercased, followed by its identifier parts', () => {
    expect(indexText('getUserName and HTTPServer, snake_case')).toBe(
      'getusername get user name and httpserver http server snake_case snake case',
    );
    expect(indexText('  ...  ')).toBe('');
  });
});

describe('query words', () => {
  it('keeps each word once (case-insensitively), as typed, with its parts taken from the typed case', () => {
    expect(queryWords('getUserName GETUSERNAME getusername other')).toEqual([
      { raw: 'getUserName', whole: 'getusername', parts: ['get', 'user', 'name'] },
      { raw: 'other', whole: 'other', parts: [] },
    ]);
  });

  it('reduces query syntax to plain words: quotes, operators and wildcards are not special', () => {
    expect(queryWords('"foo bar" NEAR(baz, 2) qux* -minus col:val OR AND NOT ^x').map((w) => w.whole)).toEqual([
      'foo',
      'bar',
      'near',
      'baz',
      '2',
      'qux',
      'minus',
      'col',
      'val',
      'or',
      'and',
      'not',
      'x',
    ]);
    expect(queryWords('"*" - ( ) ^ :')).toEqual([]);
  });

  it('takes at most 16 words', () => {
    const query = Array.from({ length: 30 }, (_, i) => `w${i}`).join(' ');
    expect(queryWords(query).map((w) => w.whole)).toEqual(Array.from({ length: 16 }, (_, i) => `w${i}`));
  });
});

describe('vocabulary and key terms', () => {
  it.each([
    ['abc', true],
    ['ab', false],
    ['a'.repeat(32), true],
    ['a'.repeat(33), false],
    ['snake_case', true],
    ['été', true],
    ['x86', true],
    ['1abc', false],
    ['_abc', false],
    ['Abc', false],
  ])('isVocabularyTerm(%s) = %s', (term, expected) => {
    expect(isVocabularyTerm(term)).toBe(expected);
  });

  it('lists the distinct vocabulary terms of an indexed text', () => {
    expect(vocabulary(indexText('getUserName getUserName of 42 to x9 user'))).toEqual([
      'getusername',
      'get',
      'user',
      'name',
    ]);
  });

  it('key terms leave out stopwords, language keywords and numbers', () => {
    expect(['database', 'connection', 'retry_policy'].filter(isKeyTerm)).toEqual([
      'database',
      'connection',
      'retry_policy',
    ]);
    expect(
      ['the', 'function', 'return', 'const', 'string', 'null', 'self', 'using', '2024', 'ab'].filter(isKeyTerm),
    ).toEqual([]);
  });

  it('reverses by code point (suffix lookups of non-BMP text stay valid)', () => {
    expect(reverse('abc')).toBe('cba');
    expect(reverse('a😀b')).toBe('b😀a');
  });
});

describe('edit distance and the corrections allowed', () => {
  it.each([
    ['kitten', 'sitting', 3, 3],
    ['kitten', 'sitting', 2, 3],
    ['recieve', 'receive', 1, 1],
    ['ab', 'ba', 1, 1],
    ['ca', 'abc', 3, 3],
    ['same', 'same', 0, 0],
    ['a', 'abcdef', 2, 3],
    ['', 'abc', 3, 3],
  ])('editDistance(%s, %s, max %i) = %i', (a, b, max, expected) => {
    expect(editDistance(a, b, max)).toBe(expected);
  });

  it('is the optimal-string-alignment distance, or max + 1 once it must exceed max', () => {
    const word = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'd'), maxLength: 9 });
    fc.assert(
      fc.property(word, word, fc.integer({ min: 0, max: 4 }), (a, b, max) => {
        expect(editDistance(a, b, max)).toBe(Math.min(osa(a, b), max + 1));
        expect(editDistance(b, a, max)).toBe(editDistance(a, b, max));
      }),
      { numRuns: 500 },
    );
  });

  it('allows no correction under 4 characters, one under 8, two from 8', () => {
    expect([1, 3, 4, 7, 8, 20].map(allowedEdits)).toEqual([0, 0, 1, 1, 2, 2]);
  });

  it('anchors one edit away: a correction shares the first or the last anchorLength characters of the misspelling', () => {
    const letters = fc.string({ unit: fc.constantFrom('a', 'b', 'c', 'x'), minLength: 3, maxLength: 14 });
    const edit = fc.record({
      kind: fc.constantFrom('substitute', 'insert', 'delete', 'transpose'),
      at: fc.nat(),
      char: fc.constantFrom('a', 'b', 'z'),
    });
    fc.assert(
      fc.property(letters, edit, (correct, { kind, at, char }) => {
        const i = at % correct.length;
        const typed =
          kind === 'substitute'
            ? correct.slice(0, i) + char + correct.slice(i + 1)
            : kind === 'insert'
              ? correct.slice(0, i) + char + correct.slice(i)
              : kind === 'delete'
                ? correct.slice(0, i) + correct.slice(i + 1)
                : i + 1 < correct.length
                  ? correct.slice(0, i) + correct[i + 1] + correct[i] + correct.slice(i + 2)
                  : correct;
        if (allowedEdits(typed.length) < 1) return;
        const k = anchorLength(typed.length);
        expect(k).toBeGreaterThanOrEqual(1);
        expect(correct.startsWith(typed.slice(0, k)) || correct.endsWith(typed.slice(-k))).toBe(true);
      }),
      { numRuns: 1000 },
    );
  });
});
