import { CodeEmbedding, similarity } from '../../src/modules/intelligence/text/code-embedding';
import { rankPassages } from '../../src/modules/intelligence/text/extractive-answerer';
import { splitRun } from '../../src/modules/intelligence/text/word-split';

/** Identifiers written as one lowercase run of words (word-split.ts, ml/word-parts). */
describe('joined-word identifiers', () => {
  it.each([
    ['valuestodict', ['values', 'to', 'dict']],
    ['localzone', ['local', 'zone']],
    ['fromutc', ['from', 'utc']],
    ['readlines', ['read', 'lines']],
    ['getcontents', ['get', 'contents']],
    ['isinstance', ['is', 'instance']],
    ['setdefault', ['set', 'default']],
    ['isstate', ['is', 'state']],
    ['getid', ['get', 'id']],
    ['devops', ['dev', 'ops']],
  ])('splits %s into its words', (run, parts) => {
    expect(splitRun(run)).toEqual(parts);
  });

  it.each([
    'parameter',
    'namespace',
    'mantissa',
    'numerator',
    'indentation',
    'hostname',
    'datetime',
    'keyword',
    // English words, plural and inflected forms included: never cut into counted words
    'therefore',
    'website',
    'servers',
    'retention',
    'incident',
    'widgets',
    'consent',
    // a two-letter word only where identifiers put it: "red is", "of ten" are no split
    'redis',
    'often',
  ])('leaves %s, a word in its own right (or not a sure split), whole', (word) => {
    expect(splitRun(word)).toEqual([]);
  });

  it('splits only runs of lowercase letters long enough to hold two words', () => {
    expect(splitRun('getUser')).toEqual([]);
    expect(splitRun('read_lines')).toEqual([]);
    expect(splitRun('get')).toEqual([]);
    expect(splitRun('utf8data')).toEqual([]);
    expect(splitRun('qzxwvkjq')).toEqual([]);
  });

  it("gives the offline embedding a vector for a joined name it has no term for, near the question's", () => {
    const model = CodeEmbedding.load();
    const code = model.code('valuestodict')!;
    expect(code).toBeDefined();
    const asked = model.question('convert the values to a dict')!;
    expect(similarity(asked, code)).toBeGreaterThan(similarity(asked, model.code('localzone')!));
  });

  it('lets a joined name answer a question its code shares no other word with', () => {
    const passages = [
      {
        doc: 0,
        text: 'def valuestodict(key):\n    out = {}\n    for i in range(count(key)):\n        out[i] = item(key, i)\n    return out',
      },
      { doc: 1, text: 'def merge(a, b):\n    out = copy(a)\n    out.update(b)\n    return out' },
    ];
    const ranked = rankPassages('values to dict', passages);
    expect(ranked.map((p) => p.doc)).toEqual([0]);
    expect(ranked[0].score).toBeGreaterThan(0.2);
  });
});
