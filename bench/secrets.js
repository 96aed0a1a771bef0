// What a save spends on secret detection: boots the built server in this process (temporary
// SQLite directory, port 0), saves snippets over HTTP (POST /assets/create), half of them with a
// secret (eval/secrets-corpus.js, held-out split) and half clean code (this checkout's src/ files,
// cut to 20-80 lines), and reads the detector's own timings (AssetSecrets.timings: what the
// unit of work's projection waits on detection, inside the write transaction; the scan itself is
// made before it, prepareSecrets, and is timed by eval/secrets.js). Prints p50 / p95 / max in ms,
// and the save's p50 / p95.
//
//   npx nest build && node bench/secrets.js [--saves 400]
'use strict';
const { mkdtempSync, rmSync, readdirSync, readFileSync, statSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { generate } = require('../eval/secrets-corpus');

const args = process.argv.slice(2);
const saves = Number(args[args.indexOf('--saves') + 1] || 400) || 400;
const dist = join(__dirname, '..', 'dist', 'src');

function files(dir) {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : p.endsWith('.ts') ? [p] : [];
  });
}

const quantile = (xs, q) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

async function main() {
  const { createApp } = require(join(dist, 'bootstrap'));
  const { loadConfig } = require(join(dist, 'common', 'config', 'app-config'));
  const { AssetSecrets } = require(join(dist, 'modules', 'assets', 'sensitives', 'asset-secrets'));
  const dataDir = mkdtempSync(join(tmpdir(), 'trove-bench-secrets-'));
  const config = loadConfig({
    ...process.env,
    TROVE_LOG_LEVEL: 'warn',
    TROVE_RATE_LIMIT: '0',
    TROVE_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: '',
  });
  const app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  const base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  try {
    const secrets = generate('heldout', Math.ceil(saves / 2 / 24)).map((s) => s.text);
    const clean = files(join(__dirname, '..', 'src')).map((f, i) => {
      const lines = readFileSync(f, 'utf8').split('\n');
      const from = (i * 37) % Math.max(1, lines.length - 20);
      return lines.slice(from, from + 20 + (i % 61)).join('\n');
    });
    const texts = [];
    for (let i = 0; texts.length < saves; i++)
      texts.push(i % 2 ? secrets[i % secrets.length] : clean[i % clean.length]);
    const timings = app.get(AssetSecrets).timings;
    timings.length = 0;
    const round = [];
    for (const raw of texts) {
      const t0 = performance.now();
      const res = await fetch(`${base}/assets/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ type: 'SEEDED_ASSET', asset: { format: { fragment: { string: { raw } } } } }),
      });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`save answered ${res.status}`);
      round.push(performance.now() - t0);
    }
    const scans = timings.slice(-saves);
    const ms = (x) => `${x.toFixed(2)} ms`;
    console.log(
      `${saves} saves (half with a secret): wait on detection in the transaction p50 ${ms(quantile(scans, 0.5))}, p95 ${ms(quantile(scans, 0.95))}, max ${ms(Math.max(...scans))}`,
    );
    console.log(`whole save (HTTP round trip): p50 ${ms(quantile(round, 0.5))}, p95 ${ms(quantile(round, 0.95))}`);
  } finally {
    await app.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
