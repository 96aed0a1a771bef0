// Development samples for the detector's rules, from outside the held-out set's packages (every
// package of eval/data/language-heldout.jsonl.gz is left out by name). Used to find a rule's
// false hits and to choose its thresholds; never reported as held-out figures.
//
//   md / txt   Markdown from the `.md` files of node_modules (3 per package) against plain text
//              from Debian's documentation on this machine (README, NEWS, *.txt under
//              /usr/share/doc, the common licenses) and LICENSE / *.txt files in node_modules.
//              The plain-text side is not clean (a README without an extension may be Markdown):
//              read its md answers, do not just count them.
//   readme     The fenced code blocks of those READMEs whose info string names a language
//              (```js, ```bash, ```ts, ```json, ...; 8 per package and language): snippets as
//              developers write and copy them. The tag is the author's word (a ```js block may
//              hold TypeScript).
//   js / ts    Windows of the `.js` (6 per package) and `.ts` files (40 per package) of node_modules.
//   corpus     With `--cache DIR` (the corpus's fetch cache, ml/language/corpus): the fenced code
//              blocks of the `.md` files of its extracted npm and Debian source packages, held-out
//              packages left out (README blocks in many languages, not only JS and shell).
//
// Windows are cut as the held-out set's are (ml/language/windows.js: 2-6, 7-20 and 21-60 lines).
//
//   npx nest build && node ml/language/dev-samples.js [--dist dist] [--only readme,md,...] [--show md]
//                                                     [--cache $ML_CACHE/language/cache]
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { windowsOf, hash, readWindows } = require('./windows');

const args = process.argv.slice(2);
const opt = (name, fallback) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : fallback);
const root = path.resolve(__dirname, '..', '..');
const dist = path.resolve(opt('dist', path.join(root, 'dist')));
const only = opt('only', undefined)?.split(',');
const show = opt('show', undefined);
const cache = opt('cache', undefined);
const { LanguageDetector } = require(path.join(dist, 'src', 'modules', 'intelligence', 'language-detector.service'));

const STRATA = [
  ['short', 2, 6],
  ['medium', 7, 20],
  ['long', 21, 60],
];

/** README info strings -> Trove's codes. */
const FENCE_LANGUAGES = {
  js: 'js',
  javascript: 'js',
  jsx: 'js',
  mjs: 'js',
  cjs: 'js',
  ts: 'ts',
  typescript: 'ts',
  tsx: 'ts',
  sh: 'sh',
  bash: 'sh',
  shell: 'sh',
  zsh: 'sh',
  json: 'json',
  jsonc: 'json',
  yaml: 'yaml',
  yml: 'yaml',
  html: 'html',
  css: 'css',
  scss: 'scss',
  python: 'py',
  py: 'py',
  go: 'go',
  rust: 'rs',
  java: 'java',
  c: 'c',
  cpp: 'cpp',
  ruby: 'rb',
  php: 'php',
  sql: 'sql',
  xml: 'xml',
  toml: 'toml',
  ini: 'ini',
  dockerfile: 'dockerfile',
  powershell: 'ps1',
  ps1: 'ps1',
  bat: 'bat',
  cmd: 'bat',
  lua: 'lua',
  kotlin: 'kt',
  swift: 'swift',
  dart: 'dart',
  csharp: 'cs',
  perl: 'pl',
  scala: 'scala',
};

function walk(dir, test, out = [], depth = 0) {
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

const read = (file) => {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

/** One window per stratum of each file; the same first 300 characters (one license in 50 packages) count once. */
function windows(files, lang) {
  const out = [];
  const seen = new Set();
  for (const file of files) {
    const text = read(file);
    if (!text || text.length < 200 || seen.has(text.slice(0, 300))) continue;
    seen.add(text.slice(0, 300));
    for (const [stratum, minK, maxK] of STRATA) {
      const [w] = windowsOf(text, lang, { seed: hash(stratum + file), count: 1, minK, maxK });
      if (w) out.push({ lang, stratum, file, text: w.text });
    }
  }
  return out;
}

const heldOut = new Set(readWindows().map((w) => w.source.replace(/^(?:npm|deb|debsrc):/, '')));
const modules = path.join(root, 'node_modules');
const packageOf = (file) =>
  file
    .slice(modules.length + 1)
    .split(/\/node_modules\//)
    .pop()
    .match(/^(?:@[^/]+\/)?[^/]+/)[0];

/** Files of node_modules outside the held-out packages, at most `perPackage` per package. */
function moduleFiles(test, perPackage) {
  const count = new Map();
  return walk(modules, test).filter((file) => {
    const pkg = packageOf(file);
    if (heldOut.has(pkg)) return false;
    count.set(pkg, (count.get(pkg) ?? 0) + 1);
    return count.get(pkg) <= perPackage;
  });
}

function readmeBlocks(files, packageOfFile = packageOf) {
  const out = [];
  const seen = new Set();
  const perKey = new Map();
  for (const file of files) {
    const text = read(file) ?? '';
    for (const m of text.matchAll(/^ {0,3}(```+|~~~+)[ \t]*([\w+#-]*)[^\n]*\n([\s\S]*?)\n {0,3}\1[ \t]*$/gm)) {
      const lang = FENCE_LANGUAGES[m[2].toLowerCase()];
      const body = m[3];
      if (
        !lang ||
        body.replace(/\s/g, '').length < 25 ||
        body.split('\n').filter((l) => l.trim()).length < 2 ||
        seen.has(body)
      )
        continue;
      seen.add(body);
      const key = `${packageOfFile(file)}:${lang}`;
      perKey.set(key, (perKey.get(key) ?? 0) + 1);
      if (perKey.get(key) > 8) continue;
      const lines = body.split('\n').length;
      out.push({ lang, stratum: lines <= 6 ? 'short' : lines <= 20 ? 'medium' : 'long', file, text: body });
    }
  }
  return out;
}

const markdown = moduleFiles((n) => /\.md$/i.test(n), 3);
const samples = {
  md: () => windows(markdown, 'md'),
  txt: () =>
    windows(
      [
        ...walk(modules, (n) => /^(?:LICEN[CS]E(?:-MIT)?|AUTHORS|NOTICE|README)(?:\.txt)?$|\.txt$/i.test(n)),
        ...walk('/usr/share/doc', (n) => /^(?:README|NEWS|AUTHORS|THANKS|TODO|BUGS|FAQ)(?:\.txt)?$|\.txt$/i.test(n)),
        ...walk('/usr/share/common-licenses', () => true),
      ],
      'txt',
    ),
  readme: () => readmeBlocks(moduleFiles((n) => /\.md$/i.test(n), Infinity)),
  js: () =>
    windows(
      moduleFiles((n) => /\.js$/.test(n) && !/\.min\.js$/.test(n), 6),
      'js',
    ),
  ts: () =>
    windows(
      moduleFiles((n) => /\.ts$/.test(n) && !/\.d\.[cm]?ts$/.test(n), 40),
      'ts',
    ),
};

/** The extracted packages of the corpus's cache (`<cache>/{npm,debsrc}/x/<name>`), held-out ones left out. */
function corpusMarkdown() {
  const files = [];
  for (const kind of ['debsrc', 'npm']) {
    const base = path.join(cache, kind, 'x');
    let names;
    try {
      names = fs.readdirSync(base).sort();
    } catch {
      continue;
    }
    for (const name of names) {
      const pkg = kind === 'npm' ? name.replace(/^_/, '@').replace('_', '/') : name;
      if (heldOut.has(pkg) || heldOut.has(name)) continue;
      files.push(...walk(path.join(base, name), (n) => /\.md$/i.test(n)).slice(0, 60));
    }
  }
  return files;
}
if (cache) samples.corpus = () => readmeBlocks(corpusMarkdown(), (file) => file.slice(cache.length).split(path.sep)[3]);

const detector = new LanguageDetector();
const pct = (a, n) => ((100 * a) / Math.max(1, n)).toFixed(1);
for (const [name, build] of Object.entries(samples)) {
  if (only && !only.includes(name)) continue;
  const list = build();
  const byLang = new Map();
  for (const w of list) {
    const got = detector.analyzeSync(w.text).classification.specific;
    const s = byLang.get(w.lang) ?? { n: 0, hit: 0, answers: {} };
    byLang.set(w.lang, s);
    s.n++;
    if (got === w.lang) s.hit++;
    else s.answers[got] = (s.answers[got] ?? 0) + 1;
    if (show === w.lang && got !== w.lang) console.log(`--- ${w.file} -> ${got}\n${w.text.slice(0, 400)}\n`);
  }
  for (const [lang, s] of [...byLang.entries()].sort((a, b) => b[1].n - a[1].n)) {
    if (s.n < 10) continue;
    const wrong = Object.entries(s.answers)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    console.log(
      `${name.padEnd(6)} ${lang.padEnd(4)} ${String(s.n).padStart(5)} windows  ${pct(s.hit, s.n).padStart(5)}%  mistaken for: ${wrong}`,
    );
  }
}
