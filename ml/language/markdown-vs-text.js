// Where the detector puts the line between Markdown (md) and plain text (txt), checked on windows
// from outside the held-out set's packages: Markdown from the `.md` files of the npm packages in
// node_modules (at most 3 files per package, none of a package of eval/data/language-heldout), plain
// text from Debian's documentation on this machine (README, NEWS, *.txt under /usr/share/doc, the
// common licenses) and the LICENSE / *.txt files in node_modules. Windows are cut as the held-out
// set's are (ml/language/windows.js: 2-6, 7-20 and 21-60 lines). The plain-text side is not clean
// (a README without an extension may be Markdown), so read its md answers, do not just count them.
//
//   npx nest build && node ml/language/markdown-vs-text.js [--dist dist] [--show md|txt]
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');
const { windowsOf, hash } = require('./windows');

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const root = path.resolve(__dirname, '..', '..');
const dist = path.resolve(opt('dist', path.join(root, 'dist')));
const show = opt('show', undefined);
const { LanguageDetector } = require(path.join(dist, 'src', 'modules', 'intelligence', 'language-detector.service'));

const STRATA = [
  ['short', 2, 6],
  ['medium', 7, 20],
  ['long', 21, 60],
];

function walk(dir, test, out, depth = 0) {
  let entries;
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries.sort((a, b) => a.name.localeCompare(b.name))) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      if (depth < 6) walk(p, test, out, depth + 1);
    } else if (e.isFile() && test(e.name)) out.push(p);
  }
  return out;
}

function windows(files, lang) {
  const out = [];
  const seen = new Set();
  for (const file of files) {
    let text;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    if (text.length < 200 || seen.has(text.slice(0, 300))) continue; // the same license in 50 packages counts once
    seen.add(text.slice(0, 300));
    for (const [stratum, minK, maxK] of STRATA) {
      const [w] = windowsOf(text, lang, { seed: hash(stratum + file), count: 1, minK, maxK });
      if (w) out.push({ lang, stratum, file, text: w.text });
    }
  }
  return out;
}

const heldOut = new Set(
  zlib
    .gunzipSync(fs.readFileSync(path.join(root, 'eval', 'data', 'language-heldout.jsonl.gz')))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l).source.replace(/^(?:npm|deb|debsrc):/, '')),
);
const modules = path.join(root, 'node_modules');
const perPackage = new Map();
const markdownFiles = walk(modules, (n) => /\.md$/i.test(n), []).filter((file) => {
  const pkg = file
    .slice(modules.length + 1)
    .split(/\/node_modules\//)
    .pop()
    .match(/^(?:@[^/]+\/)?[^/]+/)[0];
  if (heldOut.has(pkg)) return false;
  perPackage.set(pkg, (perPackage.get(pkg) ?? 0) + 1);
  return perPackage.get(pkg) <= 3;
});
const textFiles = [
  ...walk(modules, (n) => /^(?:LICEN[CS]E(?:-MIT)?|AUTHORS|NOTICE|README)(?:\.txt)?$|\.txt$/i.test(n), []),
  ...walk('/usr/share/doc', (n) => /^(?:README|NEWS|AUTHORS|THANKS|TODO|BUGS|FAQ)(?:\.txt)?$|\.txt$/i.test(n), []),
  ...walk('/usr/share/common-licenses', () => true, []),
];

const detector = new LanguageDetector();
for (const [lang, list] of [
  ['md', windows(markdownFiles, 'md')],
  ['txt', windows(textFiles, 'txt')],
]) {
  const answers = {};
  const byStratum = {};
  for (const w of list) {
    const got = detector.analyzeSync(w.text).classification.specific;
    answers[got] = (answers[got] ?? 0) + 1;
    const s = (byStratum[w.stratum] ??= { n: 0, hit: 0 });
    s.n++;
    if (got === lang) s.hit++;
    if (show === lang && got !== lang && (got === 'md' || got === 'txt')) console.log(`--- ${w.file} -> ${got}\n${w.text.slice(0, 400)}\n`);
  }
  const pct = (a, n) => ((100 * a) / n).toFixed(1);
  const top = Object.entries(answers)
    .sort((a, b) => b[1] - a[1])
    .slice(0, 6)
    .map(([k, v]) => `${k} ${v}`)
    .join(', ');
  console.log(
    `${lang}: ${list.length} windows, ${pct(answers[lang] ?? 0, list.length)}% ${lang} (` +
      STRATA.map(([s]) => `${s} ${pct(byStratum[s]?.hit ?? 0, byStratum[s]?.n ?? 1)}`).join(', ') +
      `); answers: ${top}`,
  );
}
