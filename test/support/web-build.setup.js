// Jest globalSetup of the e2e and browser tiers: the web app (what `/` serves: the SDK walker, the
// applets, the browser specs) is built once, before the workers start, when it is missing or stale.
const { execFileSync } = require('node:child_process');
const { existsSync, readdirSync, statSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..', '..');
const web = join(root, 'web');

function newest(dir) {
  let latest = 0;
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    const stat = statSync(path);
    latest = Math.max(latest, stat.isDirectory() ? newest(path) : stat.mtimeMs);
  }
  return latest;
}

function ensureWebBuilt() {
  const index = join(web, 'dist', 'index.html');
  const sources = Math.max(
    newest(join(web, 'src')),
    statSync(join(web, 'index.html')).mtimeMs,
    statSync(join(web, 'vite.config.ts')).mtimeMs,
  );
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  execFileSync(
    process.execPath,
    [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'],
    {
      cwd: web,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    },
  );
}

module.exports = ensureWebBuilt;
module.exports.ensureWebBuilt = ensureWebBuilt;
