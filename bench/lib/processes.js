// Child processes for the benchmarks: started from the repository root, resolved once their
// output says they are ready (and rejected if they exit first).
'use strict';
const { spawn } = require('node:child_process');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { setTimeout: sleep } = require('node:timers/promises');

const root = join(__dirname, '..', '..');
/** The Node flags of `npm start`, so that a benchmark runs the server as users do. */
const NPM_START_FLAGS = require('../../package.json').scripts.start.split(' ').slice(1, -1);

/** `node <args>` with `env` added to this process's environment. */
function startProcess(args, env, ready) {
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (data) => {
      out += data;
      if (ready.test(out)) resolve(child);
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited ${code}: ${out.slice(-2000)}`)));
  });
}

/** Trove as `npm start` runs it (same flags, built code), resolved once it listens. */
function startTrove(env) {
  // A benchmark's Trove never writes the Pieces port file into the home of whoever runs it.
  return startProcess(
    [...NPM_START_FLAGS, 'dist/src/main.js'],
    { TROVE_LOG_LEVEL: 'log', TROVE_PORT_FILE: 'off', ...env },
    /listening on/,
  );
}

/** CPU seconds `child` has used so far (Linux: user + system time from /proc). */
function cpuSeconds(child) {
  const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
}

/**
 * Resolves once `child` has been idle (under 5% of a core for 1 s), so that a measurement does
 * not share the machine with work the server still does in the background (Trove classifies a
 * created asset's language after answering). Gives up after `limitMs`, saying so.
 */
async function untilIdle(child, limitMs = 120_000) {
  const started = Date.now();
  let before = cpuSeconds(child);
  while (Date.now() - started < limitMs) {
    await sleep(1000);
    const now = cpuSeconds(child);
    if (now - before < 0.05) return (Date.now() - started) / 1000;
    before = now;
  }
  console.warn(`pid ${child.pid} still busy after ${limitMs / 1000} s; measuring anyway`);
  return limitMs / 1000;
}

module.exports = { NPM_START_FLAGS, startProcess, startTrove, untilIdle };
