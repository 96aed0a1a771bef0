// Cuts snippet windows from one split of the language corpus and writes their features (the
// detector's own feature code, from dist/) as a CSR matrix for ml/language/train.py.
//
//   npx nest build && node ml/language/featurize.js <corpus.jsonl> <out prefix> <recipe: train|dev> [bits] [windows per language]
//
// Output: <prefix>.indptr (int64), .indices (int32), .data (float32), .labels (uint8),
// .meta.json ({classes, bits, rows, perClass, buckets}). Deterministic (seeded by file path).
'use strict';
const fs = require('node:fs');
const readline = require('node:readline');
const path = require('node:path');
const { windowsOf, hash, readWindows } = require('./windows');
const { languageFeatures } = require(
  path.join(__dirname, '..', '..', 'dist', 'src', 'modules', 'intelligence', 'language', 'features'),
);
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
  const [input, prefix, recipeName = 'train', bitsArg = '18', targetArg] = process.argv.slice(2);
  const recipe = RECIPES[recipeName];
  const bits = Number(bitsArg);
  const classIndex = new Map(CLASSES.map((c, i) => [c, i]));
  // Never train on a package the committed held-out set was cut from (whatever split a rebuilt
  // corpus puts it in), nor on a file of another package that holds one of its windows (the same
  // file shipped twice: texlive packages, vendored copies, another version).
  const heldOutSet = readWindows();
  const heldOut = new Set(heldOutSet.map((w) => w.source));
  const holdsHeldOutWindow = windowFinder(heldOutSet.map((w) => w.text));
  let skipped = 0;
  let copies = 0;
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
    if (holdsHeldOutWindow(rec.text)) {
      copies++;
      continue;
    }
    if (!files.has(rec.lang)) files.set(rec.lang, []);
    files.get(rec.lang).push({ source: rec.source, path: `${rec.source}/${rec.path}`, text: rec.text });
  }
  const indptr = [0];
  let indices = new Int32Array(1 << 24);
  let data = new Float32Array(1 << 24);
  let nnz = 0;
  const labels = [];
  const perClass = {};
  const unit = recipe.reduce((s, r) => s + r[2], 0);
  for (const [lang, inFileOrder] of [...files.entries()].sort()) {
    // The window budget runs out before the files do for the common languages: deal the files
    // round-robin over their packages, so every package contributes, not the first ones listed.
    const list = roundRobin(inFileOrder);
    const target = targetArg ? Number(targetArg) : TARGET_PER_CLASS[recipeName];
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
  fs.writeFileSync(
    `${prefix}.meta.json`,
    JSON.stringify({ classes: CLASSES, bits, rows: labels.length, nnz, perClass }, null, 1),
  );
  console.log(
    `${recipeName}: ${labels.length} windows, ${nnz} features (${skipped} files of held-out packages and ${copies} files holding a held-out window skipped); per class ${JSON.stringify(perClass)}`,
  );
}

/**
 * A test for "this text holds one of these windows": every pair of consecutive non-blank lines
 * (trimmed) of some window occurs in the text. Pairs are hashed; a window is found when all of
 * its distinct pairs are.
 */
function windowFinder(windows) {
  const pairsOf = (text) => {
    const lines = text
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    const pairs = new Set();
    for (let i = 0; i + 1 < lines.length; i++) pairs.add(hash(`${lines[i]}\n${lines[i + 1]}`));
    return pairs;
  };
  const windowsWith = new Map(); // pair -> window indices
  const needed = windows.map((text, w) => {
    const pairs = pairsOf(text);
    for (const p of pairs) {
      if (!windowsWith.has(p)) windowsWith.set(p, []);
      windowsWith.get(p).push(w);
    }
    return pairs.size;
  });
  return (text) => {
    const found = new Map();
    for (const p of pairsOf(text)) {
      for (const w of windowsWith.get(p) ?? []) {
        const n = (found.get(w) ?? 0) + 1;
        if (n === needed[w]) return true;
        found.set(w, n);
      }
    }
    return false;
  };
}

/** The files one per package in turn (packages sorted, each package's files in their order). */
function roundRobin(list) {
  const bySource = new Map();
  for (const file of list) {
    if (!bySource.has(file.source)) bySource.set(file.source, []);
    bySource.get(file.source).push(file);
  }
  const queues = [...bySource.keys()].sort().map((k) => bySource.get(k));
  const out = [];
  for (let i = 0; out.length < list.length; i++) for (const q of queues) if (i < q.length) out.push(q[i]);
  return out;
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
