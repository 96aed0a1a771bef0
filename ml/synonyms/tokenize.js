#!/usr/bin/env node
// Tokenise both sides of the training pairs exactly as Trove does (contentTerms from the built extractive answerer).
//   node ml/synonyms/tokenize.js [in=$ML_CACHE/synonyms/pairs.jsonl] [out=$ML_CACHE/synonyms/terms.jsonl]
// (ML_CACHE defaults to ~/.cache/trove-ml)
// Output: one JSON object a line: {"p": package, "q": [query terms], "c": [code terms]}.
'use strict';
const fs = require('fs');
const path = require('path');
const readline = require('readline');

const ML_CACHE = process.env.ML_CACHE || path.join(require('os').homedir(), '.cache', 'trove-ml');
const DIST = path.resolve(__dirname, '../../dist/src/modules/intelligence/text/extractive-answerer.js');

function load() {
  // dist/ may be rebuilt concurrently by someone else: retry a few times.
  for (let i = 0; ; i++) {
    try {
      return require(DIST).contentTerms;
    } catch (err) {
      if (i >= 20) throw err;
      delete require.cache[DIST];
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000);
    }
  }
}

async function main() {
  const input = process.argv[2] || path.join(ML_CACHE, 'synonyms', 'pairs.jsonl');
  const output = process.argv[3] || path.join(ML_CACHE, 'synonyms', 'terms.jsonl');
  const contentTerms = load();
  const out = fs.createWriteStream(output);
  let n = 0;
  for await (const line of readline.createInterface({ input: fs.createReadStream(input) })) {
    if (!line.trim()) continue;
    const r = JSON.parse(line);
    out.write(JSON.stringify({ p: r.package, q: contentTerms(r.query), c: contentTerms(r.code) }) + '\n');
    n++;
  }
  out.end();
  await new Promise((res) => out.on('finish', res));
  console.log(`${n} pairs tokenised -> ${output}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
