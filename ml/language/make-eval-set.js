// Builds the held-out evaluation set of the language detector from the corpus's test split
// (packages that neither training nor tuning saw): per language, up to PER_STRATUM windows in
// each of three sizes, each window from a different file while files last, the files taken
// round-robin over the language's packages.
//
//   node ml/language/make-eval-set.js $ML_CACHE/language/corpus/test.jsonl eval/data/language-heldout.jsonl.gz
'use strict';
const fs = require('node:fs');
const zlib = require('node:zlib');
const readline = require('node:readline');
const { windowsOf, hash, rng } = require('./windows');
const { CLASSES } = require('./classes');

const STRATA = [
  ['short', 2, 6],
  ['medium', 7, 20],
  ['long', 21, 60],
];
const PER_STRATUM = 50;

async function main() {
  const [input, output] = process.argv.slice(2);
  const files = new Map();
  const rl = readline.createInterface({ input: fs.createReadStream(input), crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line.trim()) continue;
    const rec = JSON.parse(line);
    if (!CLASSES.includes(rec.lang)) continue;
    if (!files.has(rec.lang)) files.set(rec.lang, []);
    files.get(rec.lang).push(rec);
  }
  const out = [];
  const seen = new Set();
  for (const [lang, list] of [...files.entries()].sort()) {
    // A fixed shuffle of the files, then dealt round-robin over packages, so that every package
    // gives about as many windows as any other: one package of 150 locale data files must not
    // stand for a whole language.
    const random = rng(hash(lang));
    const shuffled = list
      .map((f) => ({ f, k: random() }))
      .sort((a, b) => a.k - b.k)
      .map((x) => x.f);
    const byPackage = new Map();
    for (const f of shuffled) {
      if (!byPackage.has(f.source)) byPackage.set(f.source, []);
      byPackage.get(f.source).push(f);
    }
    const queues = [...byPackage.values()];
    const order = [];
    for (let i = 0; order.length < shuffled.length; i++) for (const q of queues) if (i < q.length) order.push(q[i]);
    for (const [stratum, minK, maxK] of STRATA) {
      let taken = 0;
      for (let round = 0; round < 3 && taken < PER_STRATUM; round++) {
        for (const f of order) {
          if (taken >= PER_STRATUM) break;
          const [w] = windowsOf(f.text, lang, {
            seed: hash(`eval:${stratum}:${round}:${f.source}/${f.path}`),
            count: 1,
            minK,
            maxK,
          });
          if (!w || seen.has(w.text)) continue;
          seen.add(w.text);
          out.push({ lang, stratum, lines: w.lines, source: f.source, path: f.path, text: w.text });
          taken++;
        }
      }
    }
  }
  fs.writeFileSync(output, zlib.gzipSync(out.map((r) => JSON.stringify(r)).join('\n') + '\n', { level: 9 }));
  const count = {};
  for (const r of out) count[r.lang] = (count[r.lang] ?? 0) + 1;
  console.log(`${out.length} windows, ${Object.keys(count).length} languages: ${JSON.stringify(count)}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
