// Snippet windows cut from source files, for training the language classifier and for its
// held-out evaluation set: a run of k consecutive lines at a seeded random start, blank lines
// trimmed at both ends. Deterministic: the same file, seed and k give the same window.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

/** mulberry32, the benches' seeded PRNG (deterministic across runs and machines). */
const rng = require('../../bench/lib/corpus').mulberry32;

/** 32-bit FNV-1a of a string (seeds from file paths). */
function hash(text) {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
  return h >>> 0;
}

/** A line that is only a comment (or a comment's continuation) in the usual syntaxes. */
const COMMENT = /^\s*(?:\/\/|\/\*|\*|#(?:\s|$|#)|--(?:\s|$)|;;|%\s|<!--|"""|'''|REM\s|rem\s|::\s|\(\*|\{-)/;

/**
 * Whether a window is a snippet someone would save: at least `minLines` non-blank lines, at
 * least `minChars` non-space characters, and not only comment lines (a comment alone names
 * no language: `# TODO` is Python, shell, Ruby, Perl, R, YAML...). Markdown is prose by design.
 */
function usable(lines, lang, minLines = 2, minChars = 25) {
  const nonBlank = lines.filter((l) => l.trim());
  if (nonBlank.length < minLines) return false;
  if (nonBlank.join('').replace(/\s+/g, '').length < minChars) return false;
  if (lang !== 'md' && nonBlank.every((l) => COMMENT.test(l))) return false;
  return true;
}

function normalise(text) {
  return text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
}

/**
 * Up to `count` windows of the file, with line counts drawn from [minK, maxK]; each window must
 * be `usable`. Returns [{ text, lines, start }].
 */
function windowsOf(text, lang, { seed, count, minK, maxK, minLines = 2, minChars = 25, tries = 8 }) {
  const lines = normalise(text).split('\n');
  const random = rng(seed);
  const out = [];
  const seen = new Set();
  for (let attempt = 0; attempt < count * tries && out.length < count; attempt++) {
    const k = minK + Math.floor(random() * (maxK - minK + 1));
    const start = Math.floor(random() * Math.max(1, lines.length - k + 1));
    let slice = lines.slice(start, start + k);
    while (slice.length && !slice[0].trim()) slice = slice.slice(1);
    while (slice.length && !slice[slice.length - 1].trim()) slice = slice.slice(0, -1);
    if (!usable(slice, lang, minLines, minChars)) continue;
    const windowText = slice.join('\n');
    if (seen.has(windowText)) continue;
    seen.add(windowText);
    out.push({ text: windowText, lines: slice.length, start });
  }
  return out;
}

/** The committed held-out evaluation set of the detector. */
const HELD_OUT_FILE = path.join(__dirname, '..', '..', 'eval', 'data', 'language-heldout.jsonl.gz');

/** A set of windows as make-eval-set.js writes it (gzipped JSON lines: lang, stratum, source, path, text). */
function readWindows(file = HELD_OUT_FILE) {
  return zlib
    .gunzipSync(fs.readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
}

module.exports = { rng, hash, usable, windowsOf, normalise, HELD_OUT_FILE, readWindows };
