// Learns which words that begin function names are verbs -> src/modules/intelligence/text/name-verbs.json
// (read by what-it-does.ts), from (docstring, function) training pairs: a word counts as a verb when the
// docstrings of the functions named after it start with that verb ("Gets ...", "Get ..." for `get_user`).
//
//   npx nest build     # the name splitting comes from dist/ (what-it-does.ts), as at run time
//   node ml/verbs/learn.js [--out FILE] $ML_CACHE/verbs/pairs.jsonl [more pairs.jsonl ...]
//
// The pairs are the code-search embedding's training pairs (ml/embedding/README.md): packages disjoint, by
// name and by Debian source package, from the retrieval held-out and dev sets that eval/enrichment.js reads.
// A word is kept when at least MIN_PAIRS functions of at least MIN_PACKAGES packages start with it (and say
// more after it), at least MIN_AGREE of their docstrings start with it as a verb (imperative or third
// person), and at least MIN_THIRD in the third person (an imperative alone could be a noun: "Absolute path
// of ..." for `absolute_path`). The hand-written verbs of what-it-does.ts stay; this adds the ones the data shows.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const MIN_PAIRS = 8;
const MIN_PACKAGES = 3;
const MIN_AGREE = 0.25;
const MIN_THIRD = 2;
const repo = path.join(__dirname, '..', '..');
const { identifierWords, thirdPerson } = require(path.join(repo, 'dist/src/modules/intelligence/text/what-it-does'));

const args = process.argv.slice(2);
const outAt = args.indexOf('--out');
const out =
  outAt >= 0
    ? path.resolve(args.splice(outAt, 2)[1])
    : path.join(repo, 'src/modules/intelligence/text/name-verbs.json');
const files = args;
if (files.length === 0) {
  console.error('usage: node ml/verbs/learn.js [--out FILE] PAIRS.jsonl [...]');
  process.exit(2);
}
const stats = new Map(); // word -> {pairs, agree, third, packages}
let read = 0;
for (const file of files) {
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const pair = JSON.parse(line);
    read++;
    const parts = identifierWords(pair.symbol);
    if (parts.length < 2 || !/^[a-z]{2,}$/.test(parts[0])) continue;
    const word = parts[0];
    const lead = (pair.query.trim().split(/\s+/)[0] ?? '').toLowerCase().replace(/[^a-z]/g, '');
    const s = stats.get(word) ?? { pairs: 0, agree: 0, third: 0, packages: new Set() };
    s.pairs++;
    const third = lead === thirdPerson(word);
    if (third || lead === word) s.agree++;
    if (third) s.third++;
    s.packages.add(pair.package);
    stats.set(word, s);
  }
}
const verbs = [...stats.entries()]
  .filter(
    ([, s]) =>
      s.pairs >= MIN_PAIRS && s.packages.size >= MIN_PACKAGES && s.agree / s.pairs >= MIN_AGREE && s.third >= MIN_THIRD,
  )
  .sort((a, b) => b[1].pairs - a[1].pairs || (a[0] < b[0] ? -1 : 1));
fs.writeFileSync(
  out,
  JSON.stringify(
    {
      about:
        'Words that begin function names and are verbs there, learned from docstring / function pairs by ml/verbs/learn.js',
      pairs: read,
      namesOfTwoOrMoreWords: [...stats.values()].reduce((n, s) => n + s.pairs, 0),
      verbs: verbs.map(([w]) => w),
    },
    null,
    1,
  ) + '\n',
);
console.log(`${verbs.length} verbs -> ${out}`);
console.log(verbs.map(([w, s]) => `${w} ${s.agree}/${s.pairs}`).join(', '));
const rejected = [...stats.entries()]
  .filter(([, s]) => s.pairs >= 30 && s.agree / s.pairs < MIN_AGREE)
  .sort((a, b) => b[1].pairs - a[1].pairs);
console.log(
  '\nfrequent first words not taken as verbs:',
  rejected
    .slice(0, 40)
    .map(([w, s]) => `${w} ${s.agree}/${s.pairs}`)
    .join(', '),
);
