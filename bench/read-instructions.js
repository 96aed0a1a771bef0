// Instructions per `GET /asset/{id}` on Trove's main thread, counted by valgrind's callgrind:
// unlike req/s, the count does not move with whatever else the machine is doing, so two
// builds can be compared on a busy or drifting machine.
//   npx nest build && node bench/read-instructions.js     (~3 minutes; needs valgrind)
// Env: BENCH_WARMUP (reads before counting, default 3000), BENCH_READS (counted, default 2000),
// BENCH_CONNECTIONS (default 50).
// Timer callbacks are left out of the count: under valgrind the process runs ~50x slower, so
// work done per second of wall time (the overload monitor's sampling, the activity flush)
// would be charged to far fewer requests than it is at full speed.
const autocannon = require('autocannon');
const { execFileSync, spawn } = require('node:child_process');
const { mkdtempSync, readdirSync, rmSync } = require('node:fs');
const { tmpdir } = require('node:os');
const { join } = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');

const WARMUP = Number(process.env.BENCH_WARMUP ?? 3000);
const READS = Number(process.env.BENCH_READS ?? 2000);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50);
const PORT = 39393;
const base = `http://127.0.0.1:${PORT}`;
const seed = (i) =>
  JSON.stringify({
    type: 'SEEDED_ASSET',
    asset: {
      format: {
        fragment: {
          string: {
            raw: `export async function fetchUser${i}(id: string): Promise<User> {\n  const response = await fetch(\`/api/users/\${id}\`);\n  return (await response.json()) as User;\n}`,
          },
        },
      },
    },
  });

function reads(ids, amount) {
  let next = 0;
  return new Promise((resolve, reject) =>
    autocannon(
      {
        url: base,
        connections: CONNECTIONS,
        amount,
        timeout: 120,
        requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: `/asset/${ids[next++ % ids.length]}` }) }],
      },
      (err, result) =>
        err
          ? reject(err)
          : result.non2xx || result.errors
            ? reject(new Error(`${result.non2xx} non-2xx, ${result.errors} errors`))
            : resolve(result),
    ),
  );
}

/** Inclusive instruction counts in a callgrind file of the first function whose name contains each of `names`. */
function inclusive(file, names) {
  const lines = execFileSync('callgrind_annotate', ['--inclusive=yes', '--threshold=100', file], {
    encoding: 'utf8',
    maxBuffer: 64 << 20,
  }).split('\n');
  return names.map((name) => {
    const line = lines.find((l) => l.includes(name));
    return line ? Number(line.trim().split(/\s+/)[0].replace(/,/g, '')) : 0;
  });
}

(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'trove-instructions-'));
  const out = join(dir, 'callgrind.out');
  const server = spawn(
    'valgrind',
    [
      '--tool=callgrind',
      '--instr-atstart=no',
      '--separate-threads=yes',
      `--callgrind-out-file=${out}`,
      process.execPath,
      'dist/src/main.js',
    ],
    {
      cwd: join(__dirname, '..'),
      env: {
        ...process.env,
        TROVE_PORT_FILE: 'off',
        PORT: String(PORT),
        TROVE_DATA_DIR: join(dir, 'data'),
        TROVE_RATE_LIMIT: '0',
        TROVE_MAX_EVENT_LOOP_DELAY_MS: '0',
        TROVE_MAX_RSS_MB: '0',
        TROVE_LOG_LEVEL: 'warn',
      },
      stdio: 'ignore',
    },
  );
  try {
    for (let waited = 0; ; waited += 1) {
      if (waited > 600) throw new Error('Trove did not start under valgrind within 10 minutes');
      if (
        await fetch(`${base}/.well-known/health`).then(
          (r) => r.ok,
          () => false,
        )
      )
        break;
      await sleep(1000);
    }
    const ids = [];
    for (let i = 0; i < 200; i++) {
      const res = await fetch(`${base}/assets/create`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: seed(i),
      });
      ids.push((await res.json()).id);
    }
    await reads(ids, WARMUP); // JIT-compiled, caches warm
    execFileSync('callgrind_control', ['-i', 'on', String(server.pid)]);
    await reads(ids, READS);
    execFileSync('callgrind_control', ['-i', 'off', String(server.pid)]);
    execFileSync('callgrind_control', ['-d', String(server.pid)]);
    // One file per thread and dump: `<out>.1-01` is the main thread's.
    const main = join(
      dir,
      readdirSync(dir).find((f) => /^callgrind\.out\.1-01$/.test(f)),
    );
    const [total, timers, stringify] = inclusive(main, ['PROGRAM TOTALS', 'uv__run_timers', 'Builtin_JsonStringify(']);
    const perRead = (n) => Math.round(n / READS).toLocaleString('en-US');
    console.log(
      `\n${READS} reads at ${CONNECTIONS} connections after ${WARMUP} warm-up reads; main-thread instructions per read:`,
    );
    console.log(`| all, timers excluded | JSON.stringify | timers |`);
    console.log(`|---:|---:|---:|`);
    console.log(`| ${perRead(total - timers)} | ${perRead(stringify)} | ${perRead(timers)} |`);
  } finally {
    server.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  }
})().catch((error) => {
  console.error(error);
  process.exit(1);
});
