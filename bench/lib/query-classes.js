'use strict';
// The queries of the benchmarks: search's classes (bench/search.js) and relevance's questions
// (bench/qgpt.js), drawn from the corpus generator's words (bench/lib/corpus.js) so that they hit real content.
const { ADJS, NOUNS, PROSE, TAGS, VERBS } = require('./corpus');

/**
 * [name, make] pairs; each make() draws one query's parameters ({ query } and / or
 * { searchable_tags }) from `q` (a Corpus, bench/search.js uses seed 7). Building the list
 * draws 2,000 sample assets from `q` first (the words and identifiers the queries pick from).
 */
function queryClasses(q) {
  const sample = Array.from({ length: 2000 }, () => q.asset());
  const words = [...new Set(sample.flatMap((a) => a.text.match(/[a-z]{5,}/g) ?? []))];
  const identifiers = [
    ...new Set(sample.flatMap((a) => a.text.match(/\b[a-z]+(?:[A-Z][a-z]+){1,3}\b|\b[a-z]+(?:_[a-z]+){1,3}\b/g) ?? [])),
  ];
  const mutate = (w) => {
    const i = 1 + q.int(w.length - 2);
    const kind = q.int(3);
    if (kind === 0) return w.slice(0, i) + w[i + 1] + w[i] + w.slice(i + 2); // transposition
    if (kind === 1) return w.slice(0, i) + w.slice(i + 1); // deletion
    return w.slice(0, i) + 'xqzj'[q.int(4)] + w.slice(i + 1); // substitution
  };
  return [
    ['word (1 word)', () => ({ query: q.pick(q.random() < 0.5 ? NOUNS : PROSE) })],
    ['words (2 words)', () => ({ query: `${q.pick(NOUNS)} ${q.pick(q.random() < 0.5 ? NOUNS : PROSE)}` })],
    ['identifier (camel/snake)', () => ({ query: q.pick(identifiers) })],
    [
      'identifier parts (phrase)',
      () => ({
        query: q
          .pick(identifiers)
          .replace(/([a-z])([A-Z])/g, '$1 $2')
          .replace(/_/g, ' ')
          .toLowerCase(),
      }),
    ],
    [
      'substring (4-6 chars inside a word)',
      () => {
        const w = q.pick(words);
        const len = 4 + q.int(3);
        const s = q.int(Math.max(1, w.length - len));
        return { query: w.slice(s, s + len) };
      },
    ],
    [
      'description (a sentence)',
      () => ({ query: `${q.pick(VERBS)} the ${q.pick(ADJS)} ${q.pick(NOUNS)} of a ${q.pick(NOUNS)}` }),
    ],
    ['typo (1 edit)', () => ({ query: mutate(q.pick(words.filter((w) => w.length >= 6))) })],
    ['typo + word', () => ({ query: `${q.pick(NOUNS)} ${mutate(q.pick(words.filter((w) => w.length >= 6)))}` })],
    ['tags (1-2)', () => ({ searchable_tags: q.random() < 0.5 ? q.pick(TAGS) : `${q.pick(TAGS)},${q.pick(TAGS)}` })],
    ['query + tag', () => ({ query: q.pick(NOUNS), searchable_tags: q.pick(TAGS) })],
  ];
}

/** A question for POST /qgpt/relevance drawn from `q` (bench/qgpt.js uses a Corpus of seed 7). */
function relevanceQuestion(q) {
  return `How do I ${q.pick(VERBS)} the ${q.pick(ADJS)} ${q.pick(NOUNS)} ${q.pick(NOUNS)}?`;
}

module.exports = { queryClasses, relevanceQuestion };
