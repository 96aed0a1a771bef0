// Per-language offsets on the classifier's scores, chosen for the whole detector on a dev set.
//
// The classifier is trained with balanced classes, one-vs-rest: its scores are not calibrated
// against each other, and on windows valid in two languages (TypeScript without types, C++
// without C++ syntax, SCSS without SCSS syntax) which one wins is decided by those raw scores.
// This adds one number per language to the classifier's log-scores (its bias), chosen by
// coordinate ascent on the accuracy of the whole detector (rules, highlight.js blend, grammar
// checks, dialect markers) over a set of windows the classifier was not trained on.
//
//   node ml/language/tune-offsets.js --dist <dist whose language-model.bin was trained without the set>
//        --set $ML_CACHE/language/devset.jsonl.gz [--folds 2] [--only ts,cpp,scss] [--out offsets.json]
//   node ml/language/tune-offsets.js --apply offsets.json --model src/modules/intelligence/language/language-model.bin
//
// With --folds 2 it also reports a cross-check: offsets chosen on half of the set's packages,
// measured on the other half (and the other way round), so a gain that is only noise shows.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const { createHash } = require('node:crypto');
const { readWindows } = require('./windows');

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};

/** Offsets to try for one language per sweep, and how many sweeps. */
const GRID = [-1.5, -1, -0.75, -0.5, -0.25, 0, 0.25, 0.5, 0.75, 1, 1.5];
const SWEEPS = 3;
/** A change must fix at least this many more windows than it breaks (against noise). */
const MIN_GAIN = 2;

if (opt('apply')) {
  applyOffsets(opt('apply'), opt('model'));
} else {
  tune();
}

/** Adds the offsets to the bias of a model file (layout: language-model.ts). */
function applyOffsets(offsetsFile, modelFile) {
  const offsets = JSON.parse(fs.readFileSync(offsetsFile, 'utf8'));
  const buf = fs.readFileSync(modelFile);
  if (buf.toString('latin1', 0, 4) !== 'TRVL') throw new Error(`${modelFile} is not a language model`);
  const headerLength = buf.readUInt32LE(4);
  const header = JSON.parse(buf.toString('utf8', 8, 8 + headerLength));
  const c = header.classes.length;
  const biasAt = 8 + headerLength + 4 * c;
  for (let k = 0; k < c; k++) {
    const o = offsets[header.classes[k]] ?? 0;
    buf.writeFloatLE(buf.readFloatLE(biasAt + 4 * k) + o, biasAt + 4 * k);
  }
  fs.writeFileSync(modelFile, buf);
  console.log(
    `added offsets to ${Object.keys(offsets).filter((k) => offsets[k]).length} languages' bias in ${modelFile}`,
  );
}

function tune() {
  const dist = path.resolve(opt('dist', 'dist'));
  const setFile = opt('set');
  const folds = Number(opt('folds', 1));
  const out = opt('out');
  const lib = (p) => require(path.join(dist, 'src', 'modules', 'intelligence', p));
  const { LanguageDetector, head } = lib('language-detector.service');
  const { languageModel } = lib('language/language-model');
  const { hljsRelevance } = lib('language/hljs-scorer');
  const { DEFAULT_WEIGHTS, blendScores, hljsScores, ranked } = lib('language/blend');
  const { markdownScore, refineDialect, ruledOut } = lib('language/rules');

  const set = readWindows(setFile).slice(0, Number(opt('limit', Infinity)));
  const detector = new LanguageDetector();
  const model = languageModel();
  const classes = model.classes;

  // What does not depend on the offsets, once per window: the rules' and prose test's answer
  // (`quick`), else the classifier's probabilities; highlight.js relevance and the grammar and
  // dialect checks are remembered per language as they are asked for.
  const windows = set.map((r) => {
    const text = r.text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
    const quick = detector.quick(text);
    const w = { lang: r.lang, source: r.source, fixed: quick?.specific };
    if (!quick) {
      w.text = head(text, 10_000);
      const probabilities = model.predict(head(w.text, 2_000));
      w.p = classes.map((k) => probabilities.get(k));
      w.md = markdownScore(w.text);
      w.hljs = new Map();
      w.answer = new Map();
    }
    return w;
  });

  /** highlight.js relevance of the grammar feeding `code`, for every code that grammar feeds. */
  function relevance(w, code) {
    if (!w.hljs.has(code)) w.hljs.set(code, hljsRelevance(head(w.text, 1_000), [code]));
    return w.hljs.get(code);
  }

  /** The detector's answer for a window with these exponentiated offsets (as analyzeSync computes it). */
  function answer(w, factors) {
    if (w.fixed) return w.fixed;
    let total = 0;
    const q = w.p.map((p, k) => {
      const v = p * factors[k];
      total += v;
      return v;
    });
    const m = new Map(classes.map((k, i) => [k, q[i] / total]));
    const shortlist = ranked(m)
      .slice(0, DEFAULT_WEIGHTS.shortlist)
      .map(([c]) => c);
    // hljsRelevance(text, shortlist): every code fed by a shortlisted code's grammar (one grammar per code)
    const rel = new Map();
    for (const code of shortlist) for (const [k, v] of relevance(w, code)) rel.set(k, v);
    const h = hljsScores(rel, DEFAULT_WEIGHTS.hljsPower);
    const top = ranked(blendScores(m, h, DEFAULT_WEIGHTS)).slice(0, 5);
    const allowed = top.find(([code]) => !ruled(w, code))?.[0] ?? top[0][0];
    let best = dialect(w, allowed);
    if (best === 'md' && w.md < 1) best = 'txt';
    return best;
  }

  function ruled(w, code) {
    const key = `r:${code}`;
    if (!w.answer.has(key)) w.answer.set(key, ruledOut(code, w.text));
    return w.answer.get(key);
  }

  function dialect(w, code) {
    const key = `d:${code}`;
    if (!w.answer.has(key)) w.answer.set(key, refineDialect(code, w.text));
    return w.answer.get(key);
  }

  const hits = (list, offsets) => {
    const factors = classes.map((k) => Math.exp(offsets[k] ?? 0));
    let n = 0;
    for (const w of list) if (answer(w, factors) === w.lang) n++;
    return n;
  };

  // The simulation must agree with the detector itself before anything is tuned.
  let agree = 0;
  for (const [i, r] of set.entries())
    if (
      answer(
        windows[i],
        classes.map(() => 1),
      ) === detector.detectSync(r.text).specific
    )
      agree++;
  console.log(`simulation agrees with the detector on ${agree} of ${set.length} windows`);
  if (agree < set.length) throw new Error('the simulation does not reproduce the detector: fix it before tuning');

  // --only ts,cpp,scss: tune just these languages' offsets (fewer numbers to fit)
  const tuned = opt('only') ? opt('only').split(',') : classes;

  function coordinateAscent(list) {
    const offsets = Object.fromEntries(classes.map((k) => [k, 0]));
    let current = hits(list, offsets);
    for (let sweep = 0; sweep < SWEEPS; sweep++) {
      let changed = false;
      for (const k of tuned) {
        const was = offsets[k];
        let best = { value: was, hits: current };
        for (const value of GRID) {
          if (value === was) continue;
          offsets[k] = value;
          const n = hits(list, offsets);
          if (n >= best.hits + (best.value === was ? MIN_GAIN : 1)) best = { value, hits: n };
        }
        offsets[k] = best.value;
        if (best.value !== was) {
          changed = true;
          current = best.hits;
        }
      }
      if (!changed) break;
    }
    return { offsets, hits: current };
  }

  const base = hits(windows, {});
  console.log(`without offsets: ${base} / ${windows.length} (${((100 * base) / windows.length).toFixed(2)}%)`);
  if (folds === 2) {
    const half = (w) => createHash('sha1').update(w.source).digest()[0] % 2;
    for (const f of [0, 1]) {
      const fit = windows.filter((w) => half(w) === f);
      const held = windows.filter((w) => half(w) !== f);
      const { offsets } = coordinateAscent(fit);
      const before = hits(held, {});
      const after = hits(held, offsets);
      console.log(
        `fold ${f}: tuned on ${fit.length} windows, on the other ${held.length}: ${before} -> ${after} (${((100 * (after - before)) / held.length).toFixed(2)} points)`,
      );
    }
  }
  const { offsets, hits: fitted } = coordinateAscent(windows);
  const nonZero = Object.fromEntries(Object.entries(offsets).filter(([, v]) => v !== 0));
  console.log(
    `tuned on all: ${base} -> ${fitted} (${((100 * fitted) / windows.length).toFixed(2)}%), offsets ${JSON.stringify(nonZero)}`,
  );
  if (out) fs.writeFileSync(out, JSON.stringify(nonZero, null, 1) + '\n');
}
