// Cuts snippet windows from one split of the language corpus and writes their features (the
// detector's own feature code, from dist/) as a CSR matrix for ml/language/train.py.
//
//   npx nest build && node ml/language/featurize.js <corpus.jsonl> <out prefix> <recipe: train|dev> [bits]
//
// Output: <prefix>.indptr (int64), .indices (int32), .data (float32), .labels (uint8),
// .meta.json ({classes, bits, rows, perClass, buckets}). Deterministic (seeded by file path).
'use strict';
const fs = require('node:fs');
const readline = require('node:readline');
const path = require('node:path');
const zlib = require('node:zlib');
const { windowsOf, hash } = require('./windows');
const { languageFeatures } = require(path.join(__dirname, '..', '..', 'dist', 'src', 'modules', 'intelligence', 'language', 'features'));
const { CLASSES } = require('./classes');

/** Windows per file by line-count bucket: [minK, maxK, count multiplier, minLines, minChars]. */
const RECIPES = {
  // mostly short snippets (the hard case), some longer ones, a few one-liners
  train: [
    [1, 3, 2, 1, 12],
    [2, 6, 4, 2, 25],
    [7, 20, 2, 2, 25],
    [21, 60, 1, 2, 25],
  ],
  dev: [
    [2, 6, 1, 2, 25],
    [7, 20, 1, 2, 25],
    [21, 60, 1, 2, 25],
  ],
};
/** Samples per language the train recipe aims at (files of rare languages give more windows each). */
const TARGET_PER_CLASS = { train: 9000, dev: 240 };
const MAX_WINDOWS_PER_FILE = 40;

async function main() {
  const [input, prefix, recipeName = 'train', bitsArg = '18'] = process.argv.slice(2);
  const recipe = RECIPES[recipeName];
  const bits = Number(bitsArg);
  const classIndex = new Map(CLASSES.map((c, i) => [c, i]));
  // Never train on a package the committed held-out set was cut from (whatever split a rebuilt
  // corpus puts it in).
  const heldOut = new Set(
    zlib
      .gunzipSync(fs.readFileSync(path.join(__dirname, '..', '..', 'eval', 'data', 'language-heldout.jsonl.gz')))
      .toString('utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l).source),
  );
  let skipped = 0;
  const files = new Map(); // lang -> [{path, text, source}]
  const rl = readline.createInterface({ input: fs.createReadStream(input), crlfDelay: Infinity });
  for await (const line of rl) {
    if (!line.trim()) continue;
    const rec = JSON.parse(line);
    if (!classIndex.has(rec.lang)) continue;
    if (heldOut.has(rec.source)) {
      skipped++;
      continue;
    }
    if (!files.has(rec.lang)) files.set(rec.lang, []);
    files.get(rec.lang).push({ path: `${rec.source}/${rec.path}`, text: rec.text });
  }
  const indptr = [0];
  let indices = new Int32Array(1 << 24);
  let data = new Float32Array(1 << 24);
  let nnz = 0;
  const labels = [];
  const perClass = {};
  const unit = recipe.reduce((s, r) => s + r[2], 0);
  for (const [lang, list] of [...files.entries()].sort()) {
    const target = TARGET_PER_CLASS[recipeName];
    const perFile = Math.min(MAX_WINDOWS_PER_FILE, Math.max(1, Math.ceil(target / list.length / unit)));
    let n = 0;
    for (const file of list) {
      if (n >= target) break;
      for (const [minK, maxK, mult, minLines, minChars] of recipe) {
        const seed = hash(`${recipeName}:${minK}:${file.path}`);
        for (const w of windowsOf(file.text, lang, { seed, count: perFile * mult, minK, maxK, minLines, minChars })) {
          const f = languageFeatures(w.text, bits);
          while (nnz + f.indices.length > indices.length) {
            const i2 = new Int32Array(indices.length * 2);
            i2.set(indices);
            indices = i2;
            const d2 = new Float32Array(data.length * 2);
            d2.set(data);
            data = d2;
          }
          indices.set(f.indices, nnz);
          data.set(f.values, nnz);
          nnz += f.indices.length;
          indptr.push(nnz);
          labels.push(classIndex.get(lang));
          n++;
        }
      }
    }
    perClass[lang] = n;
  }
  fs.writeFileSync(`${prefix}.indptr`, Buffer.from(BigInt64Array.from(indptr.map(BigInt)).buffer));
  fs.writeFileSync(`${prefix}.indices`, Buffer.from(indices.buffer, 0, nnz * 4));
  fs.writeFileSync(`${prefix}.data`, Buffer.from(data.buffer, 0, nnz * 4));
  fs.writeFileSync(`${prefix}.labels`, Buffer.from(Uint8Array.from(labels).buffer));
  fs.writeFileSync(`${prefix}.meta.json`, JSON.stringify({ classes: CLASSES, bits, rows: labels.length, nnz, perClass }, null, 1));
  console.log(
    `${recipeName}: ${labels.length} windows, ${nnz} features (${skipped} files of held-out packages skipped); per class ${JSON.stringify(perClass)}`,
  );
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
