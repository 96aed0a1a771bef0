// Child processes for the benchmarks: started from the repository root, resolved once their
// output says they are ready (and rejected if they exit first).
'use strict';
const { spawn } = require('node:child_process');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
/** The Node flags of `npm start`, so that a benchmark runs the server as users do. */
const NPM_START_FLAGS = require('../../package.json').scripts.start.split(' ').slice(1, -1);

/** `node <args>` with `env` added to this process's environment. */
function startProcess(args, env, ready) {
  const child = spawn(process.execPath, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
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
  return startProcess([...NPM_START_FLAGS, 'dist/src/main.js'], { TROVE_LOG_LEVEL: 'log', ...env }, /listening on/);
}

module.exports = { NPM_START_FLAGS, startProcess, startTrove };
