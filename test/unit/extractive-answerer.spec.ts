import {
  Passage,
  bestPassages,
  contentTerms,
  hashedVector,
  passagesOf,
  rankPassages,
  standaloneQuery,
  stem,
} from '../../src/modules/intelligence/text/extractive-answerer';
import { textRank, topIndices } from '../../src/modules/intelligence/text/text-rank';

describe('content terms and stemming', () => {
  it.each([
    ['connections', 'connection'],
    ['connecting', 'connect'],
    ['connected', 'connect'],
    ['libraries', 'library'],
    ['classes', 'class'],
    ['class', 'class'],
    ['uses', 'uses'],
    ['bus', 'bus'],
  ])('stem(%s) = %s', (term, stemmed) => {
    expect(stem(term)).toBe(stemmed);
  });

  it('drops stopwords, numbers and single characters; keeps identifiers whole and as stemmed parts', () => {
    expect(contentTerms('How do I open the DatabaseConnections in 2024, x?')).toEqual([
      'open',
      'databaseconnection',
      'database',
      'connection',
    ]);
    expect(contentTerms('what is it and how does it work')).toEqual([]);
  });
});

describe('passages', () => {
  it('merges short paragraphs up to a passage, keeping the document index', () => {
    const short = (n: number) => `Paragraph ${n} is short.`;
    const passages = passagesOf([1, 2, 3].map(short).join('\n\n'), 4);
    expect(passages).toEqual([{ doc: 4, text: `${short(1)}\n\n${short(2)}\n\n${short(3)}` }]);
  });

  it('starts a new passage once one is long enough, and splits a long block by lines, never beyond 700 characters', () => {
    const sentence = 'This paragraph talks about one thing at length so that it is long enough. '.repeat(2).trim();
    expect(passagesOf(`${sentence}\r\n\r\n${sentence}`).map((p) => p.text)).toEqual([sentence, sentence]);

    const code = Array.from({ length: 60 }, (_, i) => `const value${i} = compute(${i}); // line ${i}`).join('\n');
    const pieces = passagesOf(code);
    expect(pieces.length).toBeGreaterThan(1);
    for (const piece of pieces) expect(piece.text.length).toBeLessThanOrEqual(700);
    expect(pieces.map((p) => p.text).join('\n')).toBe(code);
  });

  it('gives nothing for blank text', () => {
    expect(passagesOf('  \n\n \t\n')).toEqual([]);
  });
});

describe('passage ranking (BM25 + coverage)', () => {
  const passages: Passage[] = [
    { doc: 0, text: 'The weather is sunny today in Lisbon.' },
    { doc: 0, text: 'Retry the request with exponential backoff when the connection fails.' },
    { doc: 1, text: 'The connection pool keeps ten connections open.' },
    { doc: 2, text: 'Backoff grows exponentially: retry after 1, 2, 4 seconds.' },
  ];

  it('ranks passages holding more of the question first and leaves out those holding none of it', () => {
    const ranked = rankPassages('how do I retry with backoff when a connection fails?', passages);
    expect(ranked.map((p) => p.text)).toEqual([passages[1].text, passages[3].text, passages[2].text]);
    for (const p of ranked) expect(p.score).toBeGreaterThan(0);
    expect(ranked[0].score).toBeLessThanOrEqual(1);
    expect(rankPassages('how do I retry with backoff when a connection fails?', passages)).toEqual(ranked);
  });

  it('blends a passage with its closeness to the question, except for a document the closeness is not for (null): its words alone', () => {
    const docs: Passage[] = [
      { doc: 0, text: 'retry backoff' },
      { doc: 1, text: 'retry backoff' },
    ];
    const lexical = rankPassages('retry backoff', docs);
    // Document 1 is prose (null): ranked by its words, as without any closeness; document 0 is
    // blended half and half with a closeness of 0.2.
    const semantic = { weight: 0.5, similarity: (_terms: string[], doc: number) => (doc === 1 ? null : 0.2) };
    const blended = rankPassages('retry backoff', docs, [], [], semantic);
    const byDoc = new Map(blended.map((p) => [p.doc, p.score]));
    expect(byDoc.get(1)).toBe(lexical.find((p) => p.doc === 1)!.score);
    expect(byDoc.get(0)).toBeCloseTo(0.5 * lexical.find((p) => p.doc === 0)!.score + 0.5 * 0.2, 3);
  });

  it('lets priors of the documents decide between passages equally good, and keeps the input order on ties', () => {
    const twins: Passage[] = [
      { doc: 0, text: 'retry backoff' },
      { doc: 1, text: 'retry backoff' },
    ];
    expect(rankPassages('retry backoff', twins).map((p) => p.doc)).toEqual([0, 1]);
    expect(rankPassages('retry backoff', twins, [0, 1]).map((p) => p.doc)).toEqual([1, 0]);
  });

  it('weighs a match of the query with the names of a document: its title and the identifiers its code defines', () => {
    const code: Passage[] = [
      { doc: 0, text: 'def pad_to(text, length):\n    length = max(length, len(text))\n    return text.ljust(length)' },
      { doc: 1, text: 'def length(self):\n    return self._size' },
      { doc: 2, text: 'def remove_item(self, key):\n    self.items.remove(key)' },
      { doc: 3, text: 'def remove(self, key):\n    del self.items[key]' },
    ];
    // the body that says `length` three times loses to the function named so
    expect(rankPassages('length', code)[0].doc).toBe(1);
    // misspelt, as the passages' terms correct it
    expect(rankPassages('lenght', code)[0].doc).toBe(1);
    // exactly named beats a name with a part not asked
    expect(rankPassages('remove', code)[0].doc).toBe(3);
    // a title names a document as well: it decides between passages otherwise equal
    const twins: Passage[] = [
      { doc: 0, text: 'Rotate the logs daily and compress the old ones.' },
      { doc: 1, text: 'Rotate the logs daily and compress the old ones.' },
    ];
    expect(rankPassages('rotate logs', twins).map((p) => p.doc)).toEqual([0, 1]);
    expect(rankPassages('rotate logs', twins, [], [undefined, 'Rotate logs']).map((p) => p.doc)).toEqual([1, 0]);
    expect(rankPassages('rotate logs', twins, [], ['Compress files', 'Rotate logs']).map((p) => p.doc)).toEqual([1, 0]);
  });

  it('gives nothing for a question of stopwords only, or no passages', () => {
    expect(rankPassages('what is it?', passages)).toEqual([]);
    expect(rankPassages('retry', [])).toEqual([]);
  });

  it('takes the best n, at most perDoc from one document', () => {
    const ranked = [0, 0, 0, 1, 2].map((doc, i) => ({ doc, text: `p${i}`, score: 1 - i / 10 }));
    expect(bestPassages(ranked, 3).map((p) => p.text)).toEqual(['p0', 'p1', 'p3']);
    expect(bestPassages(ranked, 10, 1).map((p) => p.text)).toEqual(['p0', 'p3', 'p4']);
  });
});

describe('follow-up questions made standalone', () => {
  const history = [
    { role: 'USER', text: 'How does the PaymentGateway retry failed charges?' },
    { role: 'ASSISTANT', text: 'It uses a RetryPolicy with jitter.' },
  ];

  it('appends the terms of the latest user turn to a question that leans on it', () => {
    expect(standaloneQuery('and where is it configured?', history)).toBe(
      'and where is it configured? (context: PaymentGateway retry failed charges)',
    );
  });

  it('leaves a question alone that stands by itself, or when there is nothing before it', () => {
    const own = 'where is the webhook signature verified in billing';
    expect(standaloneQuery(`  ${own} `, history)).toBe(own);
    expect(standaloneQuery('and that?', [])).toBe('and that?');
  });

  it('takes the context from the assistant only when no user turn has any, and at most 8 words of it', () => {
    const long = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet';
    expect(standaloneQuery('why?', [{ role: 'ASSISTANT', text: long }])).toBe(
      'why? (context: alpha bravo charlie delta echo foxtrot golf hotel)',
    );
  });
});

describe('hashed term vectors', () => {
  it('are unit length, deterministic, and the same for the same stemmed terms in any order or case', () => {
    const v = hashedVector('Retry connections with backoff');
    expect(v).toHaveLength(256);
    expect(Math.sqrt(v.reduce((s, x) => s + x * x, 0))).toBeCloseTo(1, 5);
    expect(hashedVector('backoff WITH retry connection')).toEqual(v);
    expect(hashedVector('unrelated weather report')).not.toEqual(v);
    expect(hashedVector('x', 16)).toEqual(new Array(16).fill(0));
  });
});

describe('TextRank and top indices', () => {
  it('handles no sentence, one, and sentences sharing nothing (equal scores)', () => {
    expect(textRank([])).toEqual([]);
    expect(textRank([['a']])).toEqual([1]);
    const scores = textRank([['a'], ['b'], ['c']]);
    for (const s of scores) expect(s).toBeCloseTo(1 / 3, 9);
  });

  it('picks the k best, ties to the lower index, whatever k', () => {
    expect(topIndices([0.1, 0.5, 0.5, 0.2], 2)).toEqual([1, 2]);
    expect(topIndices([0.3, 0.1], 5)).toEqual([0, 1]);
    expect(topIndices([0.3, 0.1], 0)).toEqual([]);
    expect(topIndices([0.3, 0.1], -1)).toEqual([]);
  });
});

describe('contentTerms remembers the terms of words it has seen', () => {
  it('gives the same terms on every call, across more distinct words than it keeps', () => {
    const text = 'def getUserName(user_id): return USERS[user_id].fullName  # looks up the 2nd user';
    const first = contentTerms(text);
    // words whole and in parts, lowercased, stop words out, light stem (`looks` -> `look`)
    expect(first).toEqual(
      'def getusername user name user_id user id return user user_id user id fullname full name look up 2nd nd user'.split(
        ' ',
      ),
    );
    // more distinct words than the memory holds (it is cleared when full), then the same text again
    for (let i = 0; i < 25_000; i++) contentTerms(`word${i}x camelCase${i}Part`);
    expect(contentTerms(text)).toEqual(first);
    expect(contentTerms('Connections connecting')).toEqual(['connection', 'connect']);
  });
});
