// Language detection on the held-out evaluation set (eval/data/language-heldout.jsonl.gz: code
// from Debian and npm packages that training and tuning never saw; ml/language/README.md).
// Reports accuracy overall, by snippet size and by language, the confusion table, and the
// latency of one detection (p50 / p95 / p99).
//
//   npx nest build && node eval/language.js [--dist <dist dir>] [--mode <detector mode>] [--out results.json]
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const dist = path.resolve(opt('dist', path.join(__dirname, '..', 'dist')));
const mode = opt('mode', undefined);
const { HELD_OUT_FILE, readWindows } = require('../ml/language/windows');
const setFile = opt('set', HELD_OUT_FILE);
const out = opt('out', undefined);
const { LanguageDetector } = require(path.join(dist, 'src', 'modules', 'intelligence', 'language-detector.service'));

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const pct = (a, n) => (n ? ((100 * a) / n).toFixed(1) : '-');

async function main() {
  const set = readWindows(setFile);
  const detector = new LanguageDetector();
  for (const r of set.slice(0, 20)) await detector.analyze(r.text, mode ? { mode } : {}); // warm-up (model load, JIT)
  const times = [];
  const rows = [];
  for (const r of set) {
    const t = process.hrtime.bigint();
    const report = await detector.analyze(r.text, mode ? { mode } : {});
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
    rows.push({ ...r, predicted: report.classification.specific });
  }
  if (typeof detector.onApplicationShutdown === 'function') await detector.onApplicationShutdown();

  const hits = (list) => list.filter((r) => r.predicted === r.lang).length;
  const strata = ['short', 'medium', 'long'];
  const languages = [...new Set(rows.map((r) => r.lang))].sort();
  const lines = [];
  lines.push(
    `Held-out set: ${rows.length} windows, ${languages.length} languages, ${new Set(rows.map((r) => r.source)).size} packages`,
  );
  lines.push('');
  lines.push(`| | all | short (2-6 lines) | medium (7-20) | long (21-60) |`);
  lines.push(`|---|---:|---:|---:|---:|`);
  const byStratum = strata.map((s) => rows.filter((r) => r.stratum === s));
  lines.push(
    `| accuracy % | ${pct(hits(rows), rows.length)} | ${byStratum.map((l) => pct(hits(l), l.length)).join(' | ')} |`,
  );
  const sorted = [...times].sort((a, b) => a - b);
  lines.push('');
  lines.push(
    `Latency of one detection: p50 ${percentile(sorted, 50).toFixed(2)} ms, p95 ${percentile(sorted, 95).toFixed(2)} ms, p99 ${percentile(sorted, 99).toFixed(2)} ms`,
  );
  lines.push('');
  lines.push('| language | n | all % | short % | medium % | long % | mistaken for (count) |');
  lines.push('|---|---:|---:|---:|---:|---:|---|');
  const perLanguage = {};
  for (const lang of languages) {
    const mine = rows.filter((r) => r.lang === lang);
    const confusions = {};
    for (const r of mine) if (r.predicted !== lang) confusions[r.predicted] = (confusions[r.predicted] ?? 0) + 1;
    const top = Object.entries(confusions)
      .sort((a, b) => b[1] - a[1])
      .slice(0, 5)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ');
    const cells = strata.map((s) => {
      const l = mine.filter((r) => r.stratum === s);
      return pct(hits(l), l.length);
    });
    perLanguage[lang] = { n: mine.length, accuracy: hits(mine) / mine.length, confusions };
    lines.push(`| ${lang} | ${mine.length} | ${pct(hits(mine), mine.length)} | ${cells.join(' | ')} | ${top} |`);
  }
  console.log(lines.join('\n'));
  if (out) {
    const summary = {
      windows: rows.length,
      languages: languages.length,
      accuracy: hits(rows) / rows.length,
      byStratum: Object.fromEntries(strata.map((s, i) => [s, hits(byStratum[i]) / byStratum[i].length])),
      latencyMs: { p50: percentile(sorted, 50), p95: percentile(sorted, 95), p99: percentile(sorted, 99) },
      perLanguage,
    };
    fs.mkdirSync(path.dirname(out), { recursive: true });
    fs.writeFileSync(out, JSON.stringify(summary, null, 1));
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
