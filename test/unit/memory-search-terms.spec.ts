import { ftsMatch, memorySearchTerms, tsQuery } from '../../src/modules/assets/workstream-summary.reader';

/** The words a memory search looks for, and the FTS5 / to_tsquery expressions made of them (WorkstreamSummaryReader.search). */
describe('memory search terms', () => {
  it('keeps runs of letters and digits, lower-cased and distinct; everything else separates', () => {
    expect(memorySearchTerms('Payment reconciliation: payment-retries (v2)!')).toEqual([
      'payment',
      'reconciliation',
      'retries',
      'v2',
    ]);
    expect(memorySearchTerms('src/jobs/reconcile_payments.ts')).toEqual(['src', 'jobs', 'reconcile', 'payments', 'ts']);
    expect(memorySearchTerms('Café 日本語 ٣٤')).toEqual(['café', '日本語', '٣٤']);
    expect(memorySearchTerms('\u0301abc')).toEqual(['abc']); // a leading combining mark is dropped, not the word
  });

  it('a query without a word has no terms', () => {
    for (const query of ['', '   ', '"', '*', '-', ':', "'", '""', '\\', '&|!', '💥', '()^'])
      expect(memorySearchTerms(query)).toEqual([]);
  });

  it('bounds the number and the length of terms', () => {
    expect(memorySearchTerms(Array.from({ length: 50 }, (_, i) => `w${i}`).join(' '))).toHaveLength(32);
    expect([...memorySearchTerms('x'.repeat(500))[0]]).toHaveLength(64);
  });

  it('quotes every term (operators are words), ORs them, and matches words of 3+ characters as prefixes', () => {
    // Function words alone are searched for (a query of nothing else).
    expect(memorySearchTerms('OR "a" AND not')).toEqual(['or', 'a', 'and', 'not']);
    const terms = ['near', 'reconcil', 'or', 'a', 'and', 'not'];
    expect(ftsMatch(terms)).toBe('"near"* OR "reconcil"* OR "or" OR "a" OR "and"* OR "not"*');
    expect(tsQuery(terms)).toBe("'near':* | 'reconcil':* | 'or' | 'a' | 'and':* | 'not':*");
  });

  it('leaves English function words out of a query that has other words', () => {
    expect(memorySearchTerms('What did we decide about the payment queue?')).toEqual(['decide', 'payment', 'queue']);
    expect(memorySearchTerms('Which lessons was Melanie taking in 2023')).toEqual([
      'lessons',
      'melanie',
      'taking',
      '2023',
    ]);
    expect(memorySearchTerms('what is it')).toEqual(['what', 'is', 'it']);
  });
});
