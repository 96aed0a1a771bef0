// POST /assets/create from a separate process (so the load generator does not share the server's
// event loop): distinct generated assets (name, tags, website, text; classification given), for a
// fixed time. Prints one JSON line: { rate, p50, p99, non2xx, errors, statuses } (statuses: count per HTTP status).
//   node bench/lib/create-load.js <base url> <connections> <seconds> <corpus seed>
'use strict';
const autocannon = require('autocannon');
const { Corpus } = require('./corpus');
const { seedOf } = require('./seeds');

const [base, connections, seconds, seed] = process.argv.slice(2);
const corpus = new Corpus(Number(seed));
autocannon(
  {
    url: `${base}/assets/create?transferables=false`,
    connections: Number(connections),
    duration: Number(seconds),
    requests: [
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req) => ({ ...req, body: JSON.stringify(seedOf(corpus.asset(), true)) }),
      },
    ],
  },
  (error, r) => {
    if (error) throw error;
    const statuses = Object.fromEntries(
      Object.entries(r.statusCodeStats ?? {}).map(([code, { count }]) => [code, count]),
    );
    console.log(
      JSON.stringify({
        rate: r.requests.average,
        p50: r.latency.p50,
        p99: r.latency.p99,
        non2xx: r.non2xx,
        errors: r.errors,
        statuses,
      }),
    );
  },
);
