// Offline enrichment on the held-out (docstring, function) pairs (eval/data/nl-code-pairs.jsonl):
// each function is saved as a user would save it, without its docstring, and the name,
// description and tags Trove generates for it are checked against the docstring it never saw.
//
//   npx nest build && node eval/enrichment.js [--dist <dist dir>] [--out results.json] [--data <pairs.jsonl>]
//
// - name mentions the symbol: the function's name appears in the generated name;
// - name says what it does: the name has a purpose clause ("read_config: reads config (...)"); and of
//   those, the share whose clause shares a word (stemmed) with the docstring Trove never saw;
// - description is one sentence: starts with a capital, ends with one full stop, <= 200 chars;
// - tags: the share of key-term tags (the language tag aside) that are words of the docstring
//   (stemmed), and the share that are the function's own local variable or parameter names (not
//   a type, not a word of the function's own name).
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const dist = path.resolve(opt('dist', path.join(__dirname, '..', 'dist')));
const out = opt('out', undefined);
// --data eval/data/dev-nl-code-pairs.jsonl: the dev pairs, for tuning (the default set is for reporting)
const dataFile = path.resolve(opt('data', path.join(__dirname, 'data', 'nl-code-pairs.jsonl')));
const src = (p) => require(path.join(dist, 'src', p));
const { CodeTerms } = src('modules/intelligence/code-terms');
const { LanguageDetector } = src('modules/intelligence/language-detector.service');
const { contentTerms } = src('modules/intelligence/text/extractive-answerer');
const { identifierWords } = src('modules/intelligence/text/what-it-does');

const pairs = fs
  .readFileSync(dataFile, 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l));

/**
 * The parenthesised lists of the function's signature (everything up to the first line end at
 * depth 0 after a list closed: receiver, parameters and named results of Go, a Python signature
 * over several lines), each split at its top-level commas.
 */
function signatureParts(code) {
  const lists = [];
  let parts = [];
  let depth = 0;
  let part = '';
  let closed = false;
  for (const ch of code.slice(0, 2000)) {
    if (ch === '\n' && depth === 0 && closed) break;
    if (ch === '(' || ch === '[' || ch === '{') {
      if (depth > 0) part += ch;
      if (ch === '(' || depth > 0) depth++;
    } else if (depth > 0 && (ch === ')' || ch === ']' || ch === '}')) {
      depth--;
      if (depth === 0) {
        parts.push(part);
        lists.push(parts);
        parts = [];
        part = '';
        closed = true;
      } else part += ch;
    } else if (depth === 1 && ch === ',') {
      parts.push(part);
      part = '';
    } else if (depth > 0) part += ch;
  }
  return lists;
}

/**
 * Names bound in the function: its parameters (per part of the signature, a `$name` or else the
 * first identifier: Go's `v Version` binds `v`, not the type; Python's `path: str = None` binds
 * `path`) and the variables it assigns (any of the pair languages).
 */
function variableNames(code, lang) {
  const names = new Set();
  for (const parts of signatureParts(code)) {
    // Go names all of a list's entries or none: `(Version, error)` are types, `(i, j int)` names
    if (lang === 'go' && !parts.some((p) => /\w\s+[\w*.[\]]/.test(p.trim()))) continue;
    for (const part of parts) {
      const m = /[$@%]([A-Za-z_]\w*)/.exec(part) ?? /^[\s*&.]*([A-Za-z_]\w*)/.exec(part);
      if (m) names.add(m[1].toLowerCase());
    }
  }
  for (const m of code.matchAll(
    /(?:^|[\s(,;])(?:my\s+|local\s+|var\s+|let\s+|const\s+)?[$@]?([A-Za-z_]\w*)\s*(?::=|=(?!=|>))/gm,
  ))
    names.add(m[1].toLowerCase());
  return names;
}

async function main() {
  const terms = new CodeTerms();
  const detector = new LanguageDetector();
  const rows = [];
  for (const p of pairs) {
    const label = await detector.detect(p.code);
    const name = terms.suggestName(p.code, label.specific) ?? '';
    const description = terms.describeSnippet(p.code, label.generic, label.specific) ?? '';
    const tags = terms.suggestTags(p.code, label.specific, 5);
    const languageTag = terms.languageLabel(label.specific)?.toLowerCase();
    const keyTags = tags.filter((t) => t !== languageTag);
    const doc = new Set(contentTerms(p.query));
    const vars = variableNames(p.code, p.lang);
    // a word of the function's own name is what it is about, even when a parameter shares it (`format(format)`)
    const ownName = new Set(identifierWords(p.symbol).map((w) => w.toLowerCase()));
    const purpose = /: (.+) \(/.exec(name)?.[1];
    rows.push({
      id: p.id,
      lang: p.lang,
      name,
      description,
      tags,
      nameHasSymbol: name.includes(p.symbol),
      nameSaysWhat: purpose !== undefined,
      purposeInDoc: purpose !== undefined && contentTerms(purpose).some((t) => doc.has(t)),
      oneSentence:
        /^[A-Z`"]/.test(description) &&
        /\.$/.test(description) &&
        !/[.!?]\s+[A-Z]/.test(description.slice(0, -1)) &&
        description.length <= 200,
      tagsInDoc: keyTags.filter((t) => contentTerms(t).some((x) => doc.has(x))).length,
      tagsVariables: keyTags.filter((t) => vars.has(t) && !ownName.has(t)).length,
      keyTags: keyTags.length,
    });
  }
  const n = rows.length;
  const share = (f) => ((100 * rows.filter(f).length) / n).toFixed(1);
  const keyTags = rows.reduce((s, r) => s + r.keyTags, 0);
  const inDoc = rows.reduce((s, r) => s + r.tagsInDoc, 0);
  const vars = rows.reduce((s, r) => s + r.tagsVariables, 0);
  const lines = [
    `Enrichment of ${n} functions saved without their docstrings (${path.relative(path.join(__dirname, '..'), dataFile)})`,
    '',
    '| measure | value |',
    '|---|---:|',
    `| name mentions the function's symbol | ${share((r) => r.nameHasSymbol)}% |`,
    `| name says what it does (a purpose clause) | ${share((r) => r.nameSaysWhat)}% |`,
    `| of those, the clause shares a word with the unseen docstring | ${((100 * rows.filter((r) => r.purposeInDoc).length) / Math.max(1, rows.filter((r) => r.nameSaysWhat).length)).toFixed(1)}% |`,
    `| description is one sentence (capital, one full stop, <= 200 chars) | ${share((r) => r.oneSentence)}% |`,
    `| key-term tags that are words of the unseen docstring | ${((100 * inDoc) / Math.max(1, keyTags)).toFixed(1)}% of ${keyTags} |`,
    `| key-term tags that are the function's variable or parameter names | ${((100 * vars) / Math.max(1, keyTags)).toFixed(1)}% |`,
    '',
    'Examples:',
    ...rows
      .filter((_, i) => i % Math.ceil(n / 8) === 0)
      .map((r) => `- ${r.lang} \`${r.name}\` | ${r.description} | ${r.tags.join(', ')}`),
  ];
  console.log(lines.join('\n'));
  if (out) {
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify({ n, rows }, null, 1));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
