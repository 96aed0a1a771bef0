// Change streams: 1,000 WebSocket subscribers on one Trove instance (dist build, SQLite).
//   npm run bench:streams        (builds first; ~2 minutes; prints Markdown tables)
// Env: BENCH_SUBSCRIBERS (default 1000), BENCH_WORKERS (client processes, default 2),
//      BENCH_SECONDS per rate (default 10), BENCH_RATES (changes/s, default "50,100,150,200"),
//      BENCH_CHANGE (score | create, default score), DATABASE_URL (optional: PostgreSQL).
//
// A change is, by default, POST /asset/{id}/scores/increment of a preloaded asset (one UPDATE
// and its outbox row; each asset once), or with BENCH_CHANGE=create a POST /assets/create
// (language given, so no detection cost); sent open-loop at a fixed rate over keep-alive
// connections. Every subscriber listens on
// /assets/stream/identifiers?ids=true. For each change: latency = arrival of its frame at the
// LAST of the subscribers minus the arrival of the HTTP 200 (same clock: performance.timeOrigin
// + performance.now() in every process). Loss = a subscriber missing a change or closed;
// reorder = event ids not strictly increasing on a socket, or sockets disagreeing on the order.
const { fork } = require('node:child_process');
const { startTrove } = require('./lib/processes');
const { percentile } = require('./lib/stats');
const { mkdtempSync, rmSync } = require('node:fs');
const { tmpdir, cpus } = require('node:os');
const { join } = require('node:path');

const now = () => performance.timeOrigin + performance.now();

// ---------------------------------------------------------------- client worker
if (process.argv[2] === 'worker') {
  const WebSocket = require('ws');
  const [, , , url, countText] = process.argv;
  const count = Number(countText);
  const sockets = [];
  let opened = 0;
  for (let i = 0; i < count; i++) {
    const state = { ids: [], events: [], arrivals: [], first: false, closed: null };
    const socket = new WebSocket(url, { perMessageDeflate: false });
    socket.on('message', (data) => {
      const at = now();
      const frame = JSON.parse(data.toString());
      if (!state.first) {
        state.first = true;
        if (++opened === count) process.send({ type: 'ready' });
        return;
      }
      state.ids.push(frame.iterable[0].asset.id);
      state.events.push(frame.event_id);
      state.arrivals.push(at);
    });
    socket.on('close', (code) => (state.closed = code));
    socket.on('error', () => undefined);
    sockets.push(state);
  }
  process.on('message', (message) => {
    if (message.type === 'reset') {
      for (const s of sockets) {
        s.ids = [];
        s.events = [];
        s.arrivals = [];
      }
      process.send({ type: 'reset' });
    }
    if (message.type === 'report') {
      // Per change id: how many sockets got it and the latest arrival; per socket: order.
      const got = new Map();
      let reordered = 0;
      let closed = 0;
      for (const s of sockets) {
        if (s.closed !== null) closed++;
        for (let i = 1; i < s.events.length; i++) if (!(s.events[i] > s.events[i - 1])) reordered++;
        for (let i = 0; i < s.ids.length; i++) {
          const entry = got.get(s.ids[i]) ?? { n: 0, last: 0 };
          entry.n++;
          entry.last = Math.max(entry.last, s.arrivals[i]);
          got.set(s.ids[i], entry);
        }
      }
      // Sequences of (id, event id) as hashes: every socket must have seen the same one.
      const { createHash } = require('node:crypto');
      const sequences = new Set(
        sockets.map((s) =>
          createHash('sha1')
            .update(s.ids.map((id, i) => `${id}:${s.events[i]}`).join(','))
            .digest('hex'),
        ),
      );
      process.send({ type: 'report', got: [...got], reordered, closed, sequences: [...sequences] });
    }
  });
  return;
}

// ---------------------------------------------------------------- driver
const SUBSCRIBERS = Number(process.env.BENCH_SUBSCRIBERS ?? 1000);
const WORKERS = Number(process.env.BENCH_WORKERS ?? 2);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const RATES = (process.env.BENCH_RATES ?? '50,100,150,200').split(',').map(Number);
const PORT = 39393;
/** What a change is: `score` (POST /asset/{id}/scores/increment of a preloaded asset) or `create`. */
const CHANGE = process.env.BENCH_CHANGE ?? 'score';

const ask = (worker, type) =>
  new Promise((resolve) => {
    const onMessage = (m) => {
      if (m.type === type) {
        worker.off('message', onMessage);
        resolve(m);
      }
    };
    worker.on('message', onMessage);
    if (type !== 'ready') worker.send({ type });
  });

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function cpuSeconds(pid) {
  try {
    const fields = require('node:fs').readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime + stime, in USER_HZ (100)
  } catch {
    return NaN;
  }
}

async function create(base, i) {
  const raw = `export const change${i} = ${i}; // streamed`;
  const body = JSON.stringify({
    type: 'SEEDED_ASSET',
    asset: { format: { fragment: { string: { raw } }, classification: { generic: 'CODE', specific: 'ts' } } },
  });
  const res = await fetch(`${base}/assets/create?transferables=false`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body,
  });
  const at = now();
  if (res.status !== 200) throw new Error(`create: HTTP ${res.status}`);
  return { id: (await res.json()).id, at };
}

/** A score increment of one preloaded asset (each asset changes once, so frames map to changes). */
async function score(base, id) {
  const res = await fetch(`${base}/asset/${id}/scores/increment`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ asset: { reuse: true } }),
  });
  const at = now();
  if (res.status !== 204 && res.status !== 200) throw new Error(`score: HTTP ${res.status}`);
  return { id, at };
}

let preloaded = [];
const change = (base, i) => (CHANGE === 'create' ? create(base, i) : score(base, preloaded.pop()));

/** Sends `rate` changes per second for SECONDS, open loop; resolves with every {id, at}. */
async function drive(base, rate) {
  const total = rate * SECONDS;
  const started = now();
  const pending = [];
  let lateStarts = 0;
  for (let i = 0; i < total; i++) {
    const due = started + (i * 1000) / rate;
    const wait = due - now();
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
    else if (wait < -50) lateStarts++;
    pending.push(change(base, i));
  }
  const done = await Promise.all(pending);
  return { done, elapsed: (now() - started) / 1000, lateStarts };
}

(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trove-bench-streams-'));
  const children = [];
  const workers = [];
  try {
    const env = {
      PORT: String(PORT),
      TROVE_DATA_DIR: join(dir, 'trove'),
      TROVE_LOG_LEVEL: 'log',
      TROVE_RATE_LIMIT: '0',
    }; // the bench is one client far past the default per-client limit
    if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
    children.push(await startTrove(env));
    const base = `http://127.0.0.1:${PORT}`;
    if (CHANGE === 'score') {
      const needed = RATES.reduce((sum, rate) => sum + rate * SECONDS, 0) + 1;
      for (let i = 0; i < needed; i += 25) {
        const batch = await Promise.all(
          Array.from({ length: Math.min(25, needed - i) }, (_, k) => create(base, i + k)),
        );
        preloaded.push(...batch.map((b) => b.id));
      }
    }
    const url = `ws://127.0.0.1:${PORT}/assets/stream/identifiers?ids=true`;
    const per = Math.ceil(SUBSCRIBERS / WORKERS);
    for (let w = 0; w < WORKERS; w++) {
      const n = Math.min(per, SUBSCRIBERS - w * per);
      const worker = fork(__filename, ['worker', url, String(n)], { stdio: 'inherit' });
      workers.push(worker);
    }
    const connectStart = now();
    await Promise.all(workers.map((w) => ask(w, 'ready')));
    const connectMs = now() - connectStart;
    await (CHANGE === 'create' ? create(base, -1) : score(base, preloaded.pop())); // warm-up
    await new Promise((r) => setTimeout(r, 1000));

    const rows = [];
    for (const rate of RATES) {
      await Promise.all(workers.map((w) => ask(w, 'reset')));
      const serverCpu = cpuSeconds(children[0].pid);
      const clientCpu = workers.reduce((sum, w) => sum + cpuSeconds(w.pid), 0);
      const { done, elapsed, lateStarts } = await drive(base, rate);
      await new Promise((r) => setTimeout(r, 3000)); // let the last frames arrive
      const serverCpuMs = ((cpuSeconds(children[0].pid) - serverCpu) * 1000) / done.length;
      const clientCpuMs = ((workers.reduce((sum, w) => sum + cpuSeconds(w.pid), 0) - clientCpu) * 1000) / done.length;
      const reports = await Promise.all(workers.map((w) => ask(w, 'report')));
      const got = new Map();
      let reordered = 0;
      let closed = 0;
      const sequences = new Set();
      for (const r of reports) {
        reordered += r.reordered;
        closed += r.closed;
        for (const [id, entry] of r.got) {
          const prev = got.get(id) ?? { n: 0, last: 0 };
          got.set(id, { n: prev.n + entry.n, last: Math.max(prev.last, entry.last) });
        }
        r.sequences.forEach((h) => sequences.add(h));
      }
      let lost = 0;
      const latencies = [];
      for (const { id, at } of done) {
        const entry = got.get(id);
        lost += SUBSCRIBERS - (entry?.n ?? 0);
        if (entry && entry.n === SUBSCRIBERS) latencies.push(entry.last - at);
      }
      latencies.sort((a, b) => a - b);
      const row = {
        rate,
        achieved: done.length / elapsed,
        frames: done.length * SUBSCRIBERS,
        lost,
        reordered,
        closed,
        sequences: sequences.size,
        p50: percentile(latencies, 50),
        p99: percentile(latencies, 99),
        max: latencies[latencies.length - 1],
        lateStarts,
        serverCpuMs,
        clientCpuMs,
      };
      rows.push(row);
      console.error(JSON.stringify(row));
    }
    const fmt = (x) => (Number.isFinite(x) ? x.toFixed(1) : 'n/a');
    console.log(
      `\n${new Date().toISOString().slice(0, 10)}, ${cpus().length} cores (shared), ${SUBSCRIBERS} subscribers in ${WORKERS} client processes on the same machine, ` +
        `${SECONDS} s per rate, change = ${CHANGE}, ${process.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}; connecting all subscribers took ${connectMs.toFixed(0)} ms\n`,
    );
    console.log(
      '| changes/s asked | achieved | frames expected | lost | reordered | distinct orders | sockets closed | last subscriber p50 ms | p99 ms | max ms | server CPU ms / change | clients CPU ms / change |',
    );
    console.log('|---|---|---|---|---|---|---|---|---|---|---|---|');
    for (const r of rows) {
      console.log(
        `| ${r.rate} | ${r.achieved.toFixed(1)} | ${r.frames} | ${r.lost} | ${r.reordered} | ${r.sequences} | ${r.closed} | ${fmt(r.p50)} | ${fmt(r.p99)} | ${fmt(r.max)} | ${fmt(r.serverCpuMs)} | ${fmt(r.clientCpuMs)} |`,
      );
    }
  } finally {
    for (const w of workers) w.kill('SIGTERM');
    for (const child of children) child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 500));
    rmSync(dir, { recursive: true, force: true });
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
