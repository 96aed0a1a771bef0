// The web app in a real browser at scale: 100,000 generated snippets (bench/lib/corpus.js, seed 42,
// loaded in bulk as bench/search.js loads them), then, in Chromium (playwright-core, Debian's
// /usr/bin/chromium or CHROMIUM_PATH):
//   - the initial JavaScript and CSS, gzipped as Trove serves them (budget: 300 KB);
//   - Drive's first snippets on screen after a cold load of / (budget: 1 s), median of BENCH_LOADS;
//   - search results on screen after the last keystroke (budget: 150 ms), over BENCH_SEARCHES
//     queries typed key by key (words, identifiers, typos), p50 / p95 / max;
//   - scrolling the virtual list (frames while it scrolls, rows in the DOM);
//   - every request the page makes goes to Trove (none elsewhere).
//
//   npm run bench:web        (builds dist/ and web/dist, then runs this)
//
// Env: BENCH_ASSETS (default 100000), BENCH_LOADS (default 5), BENCH_SEARCHES (default 30),
//      BENCH_DATA_DIR (keep the SQLite data there; a directory already holding the corpus is reused).
'use strict';
/* global document, window, requestAnimationFrame -- page.evaluate and waitForFunction run these in the browser */
const { mkdtempSync, readFileSync, rmSync, existsSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { gzipSync } = require('node:zlib');
const { chromium } = require('playwright-core');
const { Corpus } = require('./lib/corpus');
const { queryClasses } = require('./lib/query-classes');
const { seedOf } = require('./lib/seeds');
const { percentile } = require('./lib/stats');
const { loadCorpus } = require('./lib/load-corpus');
const { startTrove, untilIdle } = require('./lib/processes');
const { createServer } = require('node:net');

const dist = join(__dirname, '..', 'dist', 'src');
const { createApp } = require(join(dist, 'bootstrap'));
const { loadConfig } = require(join(dist, 'common', 'config', 'app-config'));
const { Database } = require(join(dist, 'common', 'database', 'database.service'));

const ASSETS = Number(process.env.BENCH_ASSETS ?? 100_000);
const LOADS = Number(process.env.BENCH_LOADS ?? 5);
const SEARCHES = Number(process.env.BENCH_SEARCHES ?? 30);
const DATA_DIR = process.env.BENCH_DATA_DIR;
const WEB = join(__dirname, '..', 'web', 'dist');
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** The initial bundle: the page's module script, its stylesheet and its modulepreloads, gzipped at level 9 as Trove serves them. */
function bundleSizes() {
  const html = readFileSync(join(WEB, 'index.html'), 'utf8');
  const files = [...html.matchAll(/(?:src|href)="\/_app\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]);
  const size = (f) => gzipSync(readFileSync(join(WEB, f)), { level: 9 }).length;
  const js = files.filter((f) => f.endsWith('.js'));
  const css = files.filter((f) => f.endsWith('.css'));
  const sum = (list) => list.reduce((n, f) => n + size(f), 0);
  return { files, js: sum(js), css: sum(css), raw: files.reduce((n, f) => n + readFileSync(join(WEB, f)).length, 0) };
}

/** A port the system has free now (the server listens on it next). */
function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

async function main() {
  if (!existsSync(join(WEB, 'index.html'))) throw new Error('web/dist is missing: run npm run build:web');
  if (!existsSync(CHROMIUM))
    throw new Error(`no Chromium at ${CHROMIUM}: apt-get install chromium, or set CHROMIUM_PATH`);
  const dataDir = DATA_DIR ?? mkdtempSync(join(tmpdir(), 'trove-bench-web-'));
  const config = loadConfig({
    ...process.env,
    TROVE_LOG_LEVEL: 'warn',
    TROVE_RATE_LIMIT: '0',
    TROVE_DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
    DATABASE_URL: '',
  });
  let app = await createApp(config);
  await app.listen(0, '127.0.0.1');
  let base = `http://127.0.0.1:${app.getHttpServer().address().port}`;
  const post = (path, body) =>
    fetch(base + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  let browser;
  let server;
  try {
    const db = app.get(Database);
    const corpus = new Corpus(42);
    const [{ n: present }] = await db.read((em) => em.query(`SELECT COUNT(*) AS n FROM assets`));
    if (Number(present) < ASSETS) {
      const first = Number(present) ? null : await (await post('/assets/create', seedOf(corpus.asset(), true))).json();
      const any = first ?? (await (await fetch(`${base}/assets?limit=1`)).json()).iterable[0];
      if (!any?.formats) throw new Error(`could not create the first snippet: ${JSON.stringify(any).slice(0, 300)}`);
      await loadCorpus(app, {
        corpus,
        loaded: Math.max(1, Number(present)),
        target: ASSETS,
        creator: any.creator,
        applicationId: any.formats.iterable[0].application.id,
        readBack: 'batch',
        progress: (loaded, seconds) =>
          process.stderr.write(`  loaded ${loaded}/${ASSETS} (${Math.round(loaded / seconds)}/s)\n`),
      });
    }

    // Measured as a user meets it: `npm start` on a store that already holds the snippets, once idle.
    await app.close();
    app = null;
    const port = await freePort();
    server = await startTrove({
      PORT: String(port),
      HOST: '127.0.0.1',
      TROVE_DATA_DIR: dataDir,
      TROVE_RATE_LIMIT: '0',
      DATABASE_URL: '',
    });
    await untilIdle(server);
    base = `http://127.0.0.1:${port}`;

    const bundle = bundleSizes();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update'],
    });

    // First snippets after a cold load (a fresh context each time: no cache).
    const foreign = new Set();
    const firstRows = [];
    const breakdowns = [];
    const work = [];
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const cdp = await context.newCDPSession(page);
      await cdp.send('Performance.enable');
      page.on('request', (r) => {
        if (!r.url().startsWith(base) && !/^(data|blob):/.test(r.url())) foreign.add(r.url());
      });
      page.on('websocket', (ws) => {
        if (!ws.url().startsWith(base.replace('http', 'ws'))) foreign.add(ws.url());
      });
      await page.goto(`${base}/#/drive`, { waitUntil: 'commit' });
      const ms = await page.waitForFunction(
        () => document.querySelector('.list [role="option"]') && performance.now(),
        null,
        {
          polling: 'raf',
          timeout: 30_000,
        },
      );
      firstRows.push(await ms.jsonValue());
      // The page's main-thread work until then (CPU time, which the machine's other load does not inflate as it does wall time).
      const metrics = Object.fromEntries(
        (await cdp.send('Performance.getMetrics')).metrics.map((m) => [m.name, m.value]),
      );
      work.push({
        script: metrics.ScriptDuration * 1000,
        layout: (metrics.LayoutDuration + metrics.RecalcStyleDuration) * 1000,
        task: metrics.TaskDuration * 1000,
      });
      breakdowns.push(
        await page.evaluate(() => {
          const end = (part) =>
            performance.getEntriesByType('resource').find((e) => e.name.includes(part))?.responseEnd ?? NaN;
          const list = performance.getEntriesByType('resource').find((e) => e.name.includes('/assets?limit='));
          return {
            page: performance.getEntriesByType('navigation')[0].responseEnd,
            script: end('/_app/assets/index-'),
            asked: list?.requestStart ?? NaN,
            list: end('/assets?limit='),
          };
        }),
      );
      await context.close();
    }
    const medianIndex = firstRows.indexOf([...firstRows].sort((a, b) => a - b)[Math.floor(firstRows.length / 2)]);
    const median = breakdowns[medianIndex];
    const busy = work[medianIndex];
    firstRows.sort((a, b) => a - b);

    // Search: each query typed key by key (60 ms apart); from the last keydown to the first result on screen.
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const page = await context.newPage();
    page.on('request', (r) => {
      if (!r.url().startsWith(base) && !/^(data|blob):/.test(r.url())) foreign.add(r.url());
    });
    await page.goto(`${base}/#/drive`);
    await page.waitForSelector('.list [role="option"]');
    await page.evaluate(() => document.addEventListener('keydown', () => (window.__lastKey = performance.now()), true));
    const classes = queryClasses(new Corpus(7)).filter(
      ([name]) => /word|identifier|typo/.test(name) && !/parts/.test(name),
    );
    const search = page.getByRole('searchbox', { name: 'Search' });
    const latencies = [];
    let empty = 0;
    for (let i = 0; i < SEARCHES; i++) {
      const [, make] = classes[i % classes.length];
      const { query } = make();
      const expected = (
        await (await post('/assets/search?transferables=false', { query })).json()
      ).results.iterable.map((h) => h.identifier);
      if (!expected.length) {
        empty++;
        continue;
      }
      await search.fill('');
      await page.waitForFunction(() => !document.querySelector('.search').value);
      await search.pressSequentially(query, { delay: 60 });
      const ms = await page.waitForFunction(
        (id) =>
          document.querySelector('.list [role="option"]')?.id === `row-${id}` && performance.now() - window.__lastKey,
        expected[0],
        { polling: 'raf', timeout: 10_000 },
      );
      latencies.push(await ms.jsonValue());
    }
    latencies.sort((a, b) => a - b);

    // Scrolling: the wheel for 3 s over the virtual list (pages load as it goes); frame intervals and rows in the DOM.
    await search.fill('');
    await page.waitForSelector('.list [role="option"]');
    await page.mouse.move(190, 400);
    await page.evaluate(() => {
      window.__frames = [];
      let last = performance.now();
      const tick = (t) => {
        window.__frames.push(t - last);
        last = t;
        if (window.__frames.length < 100000) requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    const scrollStart = Date.now();
    while (Date.now() - scrollStart < 3000) await page.mouse.wheel(0, 1200);
    const scroll = await page.evaluate(() => ({
      frames: window.__frames.slice(1).sort((a, b) => a - b),
      rows: document.querySelectorAll('.list [role="option"]').length,
      label: document.querySelector('.list').getAttribute('aria-label'),
      top: document.querySelector('.list').scrollTop,
    }));
    await context.close();

    const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
    const ms = (n) => `${Math.round(n)} ms`;
    console.log(
      `\nWeb app at ${ASSETS.toLocaleString('en')} snippets (Chromium ${browser.version()}, ${require('node:os').cpus().length} cores)\n`,
    );
    console.log('| measure | result | budget |');
    console.log('|---|---|---|');
    console.log(
      `| initial JS, gzipped (${bundle.files.filter((f) => f.endsWith('.js')).length} file) | ${kb(bundle.js)} | |`,
    );
    console.log(`| initial CSS, gzipped | ${kb(bundle.css)} | |`);
    console.log(`| initial JS + CSS, gzipped (raw ${kb(bundle.raw)}) | ${kb(bundle.js + bundle.css)} | 300 KB |`);
    console.log(
      `| first snippets on screen after a cold load, median of ${LOADS} (min ${ms(firstRows[0])}, max ${ms(firstRows[firstRows.length - 1])}) | ${ms(percentile(firstRows, 50))} | 1 s |`,
    );
    console.log(
      `| search results after the last keystroke, p50 / p95 / max of ${latencies.length} queries | ${ms(percentile(latencies, 50))} / ${ms(percentile(latencies, 95))} / ${ms(latencies[latencies.length - 1])} | 150 ms |`,
    );
    console.log(
      `| scrolling 3 s: frame interval p50 / p95, rows in the DOM, rows loaded | ${ms(percentile(scroll.frames, 50))} / ${ms(percentile(scroll.frames, 95))}, ${scroll.rows}, ${scroll.label} | |`,
    );
    console.log(`| requests to anywhere but Trove | ${foreign.size} | 0 |`);
    console.log(
      `\nThe median load: page received at ${ms(median.page)}, the app's script at ${ms(median.script)}, the first page of snippets (GET /assets?limit=40) asked at ${ms(median.asked)} and received at ${ms(median.list)}.`,
    );
    console.log(
      `Its main thread until the first snippets: ${ms(busy.task)} of tasks, of which ${ms(busy.script)} script and ${ms(busy.layout)} style and layout (CPU time).`,
    );
    console.log(
      `Load average during the run: ${require('node:os')
        .loadavg()
        .map((n) => n.toFixed(1))
        .join(' ')} (2 cores).`,
    );
    if (empty) console.log(`\n(${empty} drawn queries matched nothing and were skipped)`);
    if (foreign.size) console.log([...foreign].join('\n'));
  } finally {
    await browser?.close();
    await app?.close().catch(() => undefined);
    server?.kill('SIGTERM');
    if (server) await new Promise((resolve) => server.once('exit', resolve));
    if (!DATA_DIR) rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
