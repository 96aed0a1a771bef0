// Secret detection (src/modules/assets/sensitives): recall on labelled synthetic secrets and false
// positives on clean code, per split.
//
//   npx nest build && node eval/secrets.js [--split heldout|dev] [--per-provider 40] [--clean 3000] [--out FILE]
//
// - recall: the share of labelled samples (eval/secrets-corpus.js: one secret in its provider's
//   format, in a snippet of code) where a detected secret overlaps the labelled span; per provider.
// - false positives: the share of clean snippets (windows of 20-80 lines of source files of the
//   Debian and npm packages on this machine: /usr/lib/python3, /usr/share, node_modules) with any
//   detection. Files are split by a hash of their path: dev and heldout read different files.
//   Every flagged clean snippet is listed (rule and file, never the matched text) for review.
// - time: ms per snippet of the detector (p50, p95), labelled and clean together.
// - prefilter: the share of texts the detector's prefilter (hasCandidate) lets through to
//   secretlint's preset, and the recall and false positives of the preset run on every text
//   (`scan(text, { prefilter: false })`): what the prefilter costs, on the same split.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');
const { generate } = require('./secrets-corpus');

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const split = opt('split', 'heldout');
const perProvider = Number(opt('per-provider', 40));
const cleanCount = Number(opt('clean', 3000));
const out = opt('out', path.join(__dirname, 'results', `secrets-${split}.json`));
const dist = path.resolve(opt('dist', path.join(__dirname, '..', 'dist')));
const { detectSecrets, scan, hasCandidate } = require(
  path.join(dist, 'src', 'modules', 'assets', 'sensitives', 'secret-detector'),
);

const ROOTS = ['/usr/lib/python3', '/usr/share', path.join(__dirname, '..', 'node_modules')];
const EXT = /\.(?:py|js|mjs|cjs|ts|sh|rb|pl|pm|go|c|h|java|json|ya?ml|conf|cfg|ini|toml|md|txt|xml|properties)$/;
/** The detector's own package (its docs and rules quote sample secrets on purpose). */
const SKIP = /node_modules\/@secretlint\//;
/** Files of a split read from each root, at most (in path order: each root's first packages). */
const FILES_PER_ROOT = 15000;

function* walk(dir, depth = 0) {
  if (depth > 12) return;
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : 1));
  for (const e of entries) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* walk(p, depth + 1);
    else if (e.isFile() && EXT.test(e.name) && !SKIP.test(p)) yield p;
  }
}

function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Clean snippets of this split: a seeded sample of files whose path hash falls in it, one window of lines each. */
function cleanSnippets() {
  const parity = split === 'dev' ? 0 : 1;
  const files = [];
  for (const root of ROOTS) {
    let taken = 0;
    for (const f of walk(root)) {
      if (createHash('sha1').update(f).digest()[0] % 2 !== parity) continue;
      files.push(f);
      if (++taken >= FILES_PER_ROOT) break;
    }
  }
  const random = rng(split === 'dev' ? 11 : 12);
  for (let i = files.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [files[i], files[j]] = [files[j], files[i]];
  }
  const snippets = [];
  for (const file of files) {
    if (snippets.length >= cleanCount) break;
    let text;
    try {
      if (fs.statSync(file).size > 2_000_000) continue;
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    if (text.includes('\u0000') || text.includes('\ufffd')) continue;
    const lines = text.split('\n');
    if (lines.length < 5) continue;
    const size = 20 + Math.floor(random() * 61);
    const from = Math.floor(random() * Math.max(1, lines.length - size));
    const snippet = lines.slice(from, from + size).join('\n');
    if (snippet.trim().length < 80 || snippet.length > 20000) continue;
    snippets.push({ file, from, text: snippet });
  }
  return { snippets, files: files.length };
}

const quantile = (sorted, q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];

async function main() {
  const times = [];
  const timed = async (text) => {
    const t0 = performance.now();
    const found = await detectSecrets(text);
    times.push(performance.now() - t0);
    return found;
  };
  await detectSecrets('warm up'); // the first call loads the rules

  const samples = generate(split, perProvider);
  const byProvider = {};
  let hits = 0;
  let hitsUnfiltered = 0;
  let samplesPassed = 0;
  const overlaps = (found, s) => found.some((f) => f.start < s.end && f.end > s.start);
  for (const s of samples) {
    const found = await timed(s.text);
    const hit = overlaps(found, s);
    if (overlaps(await scan(s.text, { prefilter: false }), s)) hitsUnfiltered++;
    if (hasCandidate(s.text)) samplesPassed++;
    const p = (byProvider[s.provider] ??= { n: 0, hits: 0 });
    p.n++;
    if (hit) {
      p.hits++;
      hits++;
    }
  }

  const { snippets, files } = cleanSnippets();
  const flagged = [];
  let flaggedUnfiltered = 0;
  let cleanPassed = 0;
  for (const s of snippets) {
    const found = await timed(s.text);
    if ((await scan(s.text, { prefilter: false })).length) flaggedUnfiltered++;
    if (hasCandidate(s.text)) cleanPassed++;
    if (found.length)
      flagged.push({
        file: s.file.replace(path.join(__dirname, '..'), '.'),
        line: s.from + 1,
        rules: found.map((f) => f.rule),
      });
  }

  times.sort((a, b) => a - b);
  const result = {
    split,
    labelled: { samples: samples.length, recall: hits / samples.length, byProvider },
    clean: {
      snippets: snippets.length,
      filesInSplit: files,
      flagged: flagged.length,
      falsePositiveRate: flagged.length / snippets.length,
      items: flagged,
    },
    msPerSnippet: { p50: quantile(times, 0.5), p95: quantile(times, 0.95), max: times[times.length - 1] },
    prefilter: {
      labelledPassed: samplesPassed / samples.length,
      cleanPassed: cleanPassed / snippets.length,
      recallWithout: hitsUnfiltered / samples.length,
      falsePositiveRateWithout: flaggedUnfiltered / snippets.length,
    },
  };
  fs.mkdirSync(path.dirname(out), { recursive: true });
  fs.writeFileSync(out, JSON.stringify(result, null, 2));

  const pct = (x) => `${(100 * x).toFixed(2)}%`;
  console.log(`## Secret detection, ${split} split\n`);
  console.log(`Recall: ${pct(result.labelled.recall)} of ${samples.length} labelled secrets`);
  console.log(
    `False positives: ${pct(result.clean.falsePositiveRate)} (${flagged.length} of ${snippets.length} clean snippets)`,
  );
  console.log(
    `Detector time per snippet: p50 ${result.msPerSnippet.p50.toFixed(2)} ms, p95 ${result.msPerSnippet.p95.toFixed(2)} ms`,
  );
  const pf = result.prefilter;
  console.log(
    `Prefilter: lets ${pct(pf.labelledPassed)} of labelled and ${pct(pf.cleanPassed)} of clean snippets through to secretlint; ` +
      `without it: recall ${pct(pf.recallWithout)}, false positives ${pct(pf.falsePositiveRateWithout)}\n`,
  );
  console.log('| provider | recall | n |\n| --- | --- | --- |');
  for (const [p, v] of Object.entries(byProvider)) console.log(`| ${p} | ${pct(v.hits / v.n)} | ${v.n} |`);
  if (flagged.length) {
    console.log('\nFlagged clean snippets (rule, file:line):');
    for (const f of flagged) console.log(`- ${f.rules.join(', ')}  ${f.file}:${f.line}`);
  }
  console.log(`\n(written to ${path.relative(process.cwd(), out)})`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
