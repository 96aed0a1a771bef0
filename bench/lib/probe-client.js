// A second client while another one is served: GET <base>/assets/<id> every <interval> ms (the
// next request leaves <interval> ms after the previous one left, or as soon as it is answered if
// that took longer), ids taken in turn from the JSON array on stdin, until SIGTERM. Then prints
// one JSON line: { requests, ok, non200, statuses, timeouts, errors, p50, p99, max } (ms).
//   node bench/lib/probe-client.js <base url> <interval ms> [timeout ms] < ids.json
'use strict';
const { setTimeout: sleep } = require('node:timers/promises');
const { percentile } = require('./stats');

const [base, interval = '50', timeout = '5000'] = process.argv.slice(2);

async function main() {
  let input = '';
  for await (const chunk of process.stdin) input += chunk;
  const ids = JSON.parse(input);
  let stopping = false;
  process.once('SIGTERM', () => (stopping = true));
  const latencies = [];
  const statuses = {};
  let requests = 0;
  let timeouts = 0;
  let errors = 0;
  for (let i = 0; !stopping; i++) {
    const t0 = performance.now();
    requests++;
    try {
      const res = await fetch(`${base}/assets/${ids[i % ids.length]}`, {
        signal: AbortSignal.timeout(Number(timeout)),
      });
      await res.arrayBuffer();
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    } catch (error) {
      if (error.name === 'TimeoutError') timeouts++;
      else errors++;
    }
    const ms = performance.now() - t0;
    latencies.push(ms);
    if (ms < Number(interval)) await sleep(Number(interval) - ms);
  }
  latencies.sort((a, b) => a - b);
  const ok = statuses[200] ?? 0;
  const round = (n) => Math.round(n * 10) / 10;
  console.log(
    JSON.stringify({
      requests,
      ok,
      non200: requests - ok,
      statuses,
      timeouts,
      errors,
      p50: round(percentile(latencies, 50)),
      p99: round(percentile(latencies, 99)),
      max: round(latencies[latencies.length - 1] ?? NaN),
    }),
  );
}

main().catch((error) => {
  console.error(String(error.stack ?? error));
  process.exit(1);
});
