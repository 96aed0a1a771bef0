import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const web = join(root, 'web');

function newest(dir: string): number {
  let latest = 0;
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    const stat = statSync(path);
    latest = Math.max(latest, stat.isDirectory() ? newest(path) : stat.mtimeMs);
  }
  return latest;
}

/** Builds the web app (web/dist, what Trove serves) when it is missing or older than its sources. */
export function ensureWebBuilt(): void {
  const index = join(web, 'dist', 'index.html');
  const sources = Math.max(newest(join(web, 'src')), statSync(join(web, 'index.html')).mtimeMs, statSync(join(web, 'vite.config.ts')).mtimeMs);
  if (existsSync(index) && statSync(index).mtimeMs >= sources) return;
  execFileSync(process.execPath, [join(root, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', '--logLevel', 'warn'], {
    cwd: web,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}
