import { namedTimes } from '../../src/modules/intelligence/text/time-words';

/** The times a question names (time-words.ts), as [from, to) days, relative to 2026-12-02. */
describe('time words', () => {
  const now = new Date('2026-12-02T09:00:00Z');
  const spans = (text: string) =>
    namedTimes(text, now).map((t) => `${t.from.toISOString().slice(0, 10)}..${t.to.toISOString().slice(0, 10)}`);

  it.each([
    // A day or month without its year is the latest one that has begun, not the nearest (May 2027).
    ['On May 2nd, which movie did I watch?', '2026-05-02..2026-05-03'],
    ['What did I cook on April 30th?', '2026-04-30..2026-05-01'],
    ['What did we plan in March?', '2026-03-01..2026-04-01'],
    ['What happened on December 1st?', '2026-12-01..2026-12-02'],
    ['What happened on December 2nd?', '2026-12-02..2026-12-03'],
    // A year said is kept, ahead or not.
    ['What is planned for May 2nd 2027?', '2027-05-02..2027-05-03'],
    ['What did we do on 7 May 2023?', '2023-05-07..2023-05-08'],
    ['What did we do last May?', '2026-05-01..2026-06-01'],
    ['What did we do in 2023?', '2023-01-01..2024-01-01'],
    ['What did we do yesterday?', '2026-12-01..2026-12-02'],
  ])('%s -> %s', (question, span) => {
    expect(spans(question)).toEqual([span]);
  });

  it('names no time in a question without one', () => {
    expect(spans('Which movie did you recommend to me?')).toEqual([]);
  });
});
