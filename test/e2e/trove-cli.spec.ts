import { AssetApi, AssetsApi, Configuration } from '@pieces.app/pieces-os-client';
import { ChildProcess, execFileSync, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { Database } from 'sqlite3';
import { TroveServer, startServer } from '../../src/bootstrap';
import { statusOf } from './support/http';
import { textSeed } from './support/seeds';
import { TestServer, freshPostgresDatabase, startTestServer, testConfig, testDatabaseUrl } from './support/server';
import pkg from '../../package.json';

/**
 * The `trove` command as operators run it: `node bin/trove.js ...` over the build in dist/ (made
 * here, as `npm run build` makes it), against real stores. SQLite parts run on SQLite whatever
 * the suite's database; with TEST_DATABASE_URL (`npm run test:pg`) the PostgreSQL route of
 * backup, restore and doctor runs as well.
 */
const ROOT = join(__dirname, '..', '..');
const BIN = join(ROOT, 'bin', 'trove.js');

interface Run {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/** The environment of a command: only what an operator's shell would have, no DATABASE_URL (SQLite) unless given. */
function baseEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    PATH: process.env.PATH!,
    HOME: process.env.HOME!,
    TROVE_PORT_FILE: 'off',
    TROVE_LOG_LEVEL: 'warn',
    ...extra,
  };
}

/** Runs `trove <args>` to the end. */
function trove(
  args: string[],
  options: { env?: Record<string, string>; input?: string; timeoutMs?: number } = {},
): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: baseEnv(options.env),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (data) => (stdout += data));
    child.stderr.on('data', (data) => (stderr += data));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function healthy(baseUrl: string, child: ChildProcess, output: () => string, ms = 60_000): Promise<void> {
  const started = Date.now();
  for (;;) {
    if (child.exitCode !== null) throw new Error(`trove serve exited with ${child.exitCode}: ${output()}`);
    try {
      const res = await fetch(`${baseUrl}/.well-known/health`, { signal: AbortSignal.timeout(1000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    if (Date.now() - started > ms) throw new Error(`trove serve did not answer within ${ms} ms: ${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

interface Served {
  baseUrl: string;
  sdk: Configuration;
  output(): string;
  /** SIGTERM, then the exit (a graceful close re-raises the signal, as npm start does). */
  stop(): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** `trove serve --port <free> ...` in a child process, once it answers health. */
async function serve(args: string[], env: Record<string, string> = {}): Promise<Served> {
  const port = await freePort();
  const child = spawn(process.execPath, [BIN, 'serve', '--port', String(port), ...args], {
    cwd: ROOT,
    env: baseEnv(env),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (data) => (output += data));
  child.stderr!.on('data', (data) => (output += data));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const baseUrl = `http://127.0.0.1:${port}`;
  try {
    await healthy(baseUrl, child, () => output);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  running.add(child);
  return {
    baseUrl,
    sdk: new Configuration({ basePath: baseUrl }),
    output: () => output,
    stop: async () => {
      child.kill('SIGTERM');
      const result = await exited;
      running.delete(child);
      return result;
    },
  };
}
const running = new Set<ChildProcess>();

/** A server on SQLite whatever the suite's database (testConfig is the support's, DATABASE_URL emptied). */
async function startSqliteServer(dataDir: string): Promise<{ server: TroveServer; sdk: Configuration }> {
  const server = await startServer(testConfig({ TROVE_DATA_DIR: dataDir, DATABASE_URL: '' }));
  return { server, sdk: new Configuration({ basePath: `http://127.0.0.1:${server.port}` }) };
}

/** Runs SQL on a SQLite file with node-sqlite3 (foreign keys off, as the sqlite3 shell has them): damage on purpose. */
function sqlite(path: string, statements: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const db = new Database(path, (error) => {
      if (error) return reject(error);
      db.exec(statements.join(';\n'), (failure) => db.close(() => (failure ? reject(failure) : resolve())));
    });
  });
}

const raw = (asset: { formats: { iterable?: Array<{ fragment?: { string?: { raw?: string } } }> } }) =>
  asset.formats.iterable![0].fragment!.string!.raw;

interface Written {
  id: string;
  raw: string;
  at: number;
}

/** Clients creating assets through the SDK until stopped: every acknowledged create with its time. */
function writers(sdk: Configuration, count: number) {
  const assets = new AssetsApi(sdk);
  const acked: Written[] = [];
  const errors: unknown[] = [];
  let stop = false;
  let n = 0;
  const loops = Array.from({ length: count }, async () => {
    while (!stop) {
      const text = `export const written_${n++} = ${JSON.stringify(`value ${n}`)};`;
      try {
        const asset = await assets.assetsCreateNewAsset({ seed: textSeed(text) });
        acked.push({ id: asset.id, raw: text, at: Date.now() });
      } catch (error) {
        errors.push(error);
      }
    }
  });
  return {
    acked,
    errors,
    /** Resolves once `k` more creates were acknowledged. */
    async more(k: number): Promise<void> {
      const target = acked.length + k;
      while (acked.length < target && errors.length === 0) await new Promise((resolve) => setTimeout(resolve, 5));
    },
    async stop(): Promise<void> {
      stop = true;
      await Promise.all(loops);
    },
  };
}

const work = mkdtempSync(join(tmpdir(), 'trove-cli-'));

beforeAll(() => {
  // The command runs the compiled code, as installed: build it as `npm run build` does.
  execFileSync(process.execPath, [require.resolve('@nestjs/cli/bin/nest.js'), 'build'], { cwd: ROOT, stdio: 'ignore' });
}, 300_000);

afterAll(() => {
  for (const child of running) child.kill('SIGKILL');
  rmSync(work, { recursive: true, force: true });
});

describe('trove: the command line itself', () => {
  it('--help and --version exit 0', async () => {
    const help = await trove(['--help']);
    expect(help.code).toBe(0);
    for (const command of ['serve', 'export', 'import', 'backup', 'restore', 'doctor'])
      expect(help.stdout).toContain(command);
    expect(help.stdout).toMatch(/Exit codes:[\s\S]*2\s+usage error/);
    const version = await trove(['--version']);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toBe(pkg.version);
    expect((await trove(['backup', '--help'])).code).toBe(0);
  }, 60_000);

  it('exits 2 on a usage error, having done nothing', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /Usage: trove/],
      [['frobnicate'], /unknown command 'frobnicate'/],
      [['doctor', '--frobnicate'], /unknown option '--frobnicate'/],
      [['backup'], /missing required argument 'file'/],
      [['import', 'x.ndjson', '--format', 'csv'], /argument 'csv' is invalid/],
      [['serve', '--port', 'http'], /a port is an integer/],
      [['serve', '--port', '70000'], /a port is an integer/],
      [['serve', '--log-level', 'loud'], /argument 'loud' is invalid/],
      [['import', '-', '--format', 'vscode', '--data-dir', join(work, 'never')], /vscode reads files/],
    ];
    for (const [args, message] of cases) {
      const run = await trove(args);
      expect({ args, code: run.code }).toEqual({ args, code: 2 });
      expect(run.stderr).toMatch(message);
    }
    expect(existsSync(join(work, 'never'))).toBe(false);
  }, 60_000);

  it('exits 78 on an invalid environment, as npm start does', async () => {
    const run = await trove(['serve', '--data-dir', join(work, 'env')], { env: { TROVE_RATE_LIMIT: 'lots' } });
    expect(run.code).toBe(78);
    expect(run.stderr).toMatch(/TROVE_RATE_LIMIT must be an integer/);
  }, 60_000);
});

describe('trove backup / restore / serve / doctor on SQLite', () => {
  const live = join(work, 'live');
  let server: TroveServer;
  let sdk: Configuration;
  const seeded: Written[] = [];
  const backupFile = join(work, 'trove-backup.db');
  const restored = join(work, 'restored');

  beforeAll(async () => {
    ({ server, sdk } = await startSqliteServer(live));
    const assets = new AssetsApi(sdk);
    for (let i = 0; i < 20; i++) {
      const text = `def seeded_${i}():\n    return ${i}\n`;
      const asset = await assets.assetsCreateNewAsset({ seed: textSeed(text, { tags: [{ text: `seed-${i % 3}` }] }) });
      seeded.push({ id: asset.id, raw: text, at: Date.now() });
    }
  }, 60_000);
  afterAll(() => server?.close());

  it('backs up a store while the server writes to it, then verifies the copy', async () => {
    const clients = writers(sdk, 3);
    await clients.more(10);
    const start = Date.now();
    const run = await trove(['backup', backupFile, '--data-dir', live]);
    const end = Date.now();
    await clients.more(10);
    await clients.stop();

    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Verified: integrity_check ok, counts and checksum match the manifest/);
    // The server kept serving writes during the backup, every one acknowledged.
    expect(clients.errors).toEqual([]);
    expect(clients.acked.filter((w) => w.at > start && w.at < end).length).toBeGreaterThan(0);

    const manifest = JSON.parse(readFileSync(`${backupFile}.json`, 'utf8'));
    expect(manifest).toEqual(
      expect.objectContaining({
        kind: 'trove-backup',
        version: 1,
        dialect: 'sqlite',
        format: 'sqlite',
        file: 'trove-backup.db',
        checksum: expect.stringMatching(/^sha256:[0-9a-f]{64}$/),
      }),
    );
    expect(run.stdout).toContain(manifest.checksum);
    // One snapshot: every create acknowledged before the command started, none acknowledged after it ended.
    const before = seeded.length + clients.acked.filter((w) => w.at < start).length;
    const after = seeded.length + clients.acked.filter((w) => w.at <= end).length;
    expect(manifest.counts.assets).toBeGreaterThanOrEqual(before);
    expect(manifest.counts.assets).toBeLessThanOrEqual(after + 3); // + the creates in flight at the end
    expect(manifest.counts.formats).toBe(manifest.counts.assets);
    expect(manifest.counts.search_documents).toBe(manifest.counts.assets);

    // A backup is never overwritten by mistake.
    const again = await trove(['backup', backupFile, '--data-dir', live]);
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/exists: choose another name or pass --force/);
  }, 120_000);

  it('restores into a fresh directory, verified against the manifest; a server on it reads the same assets', async () => {
    const manifest = JSON.parse(readFileSync(`${backupFile}.json`, 'utf8'));
    const run = await trove(['restore', backupFile, '--data-dir', restored]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Verified: counts and checksum match the manifest/);
    expect(run.stdout).toMatch(new RegExp(`assets\\s+${manifest.counts.assets}\\b`));
    expect(run.stdout).toContain(`Checksum: ${manifest.checksum}`);

    // Not into a store that has data, unless forced.
    const twice = await trove(['restore', backupFile, '--data-dir', restored]);
    expect(twice.code).toBe(1);
    expect(twice.stderr).toMatch(/is not empty: restore into a fresh directory, or pass --force/);

    const served = await serve(['--data-dir', restored]);
    try {
      const ids = new Set(
        ((await new AssetsApi(served.sdk).assetsIdentifiersSnapshot({})).iterable ?? []).map((a) => a.id),
      );
      expect(ids.size).toBe(manifest.counts.assets);
      const asset = new AssetApi(served.sdk);
      for (const written of seeded) {
        expect(ids.has(written.id)).toBe(true);
        expect(raw(await asset.assetSnapshot({ asset: written.id }))).toBe(written.raw);
      }
      // Search works on the restored index.
      const found = await (await fetch(`${served.baseUrl}/assets/search?query=seeded_7`)).json();
      expect(found.iterable.map((hit: { identifier: string }) => hit.identifier)).toContain(seeded[7].id);
      // The restored store is in use: doctor still reads it, --force restore refuses to replace it.
      const doctor = await trove(['doctor', '--data-dir', restored]);
      expect(doctor.code).toBe(0);
      const forced = await trove(['restore', backupFile, '--data-dir', restored, '--force']);
      expect(forced.code).toBe(1);
      expect(forced.stderr).toMatch(/open in another process \(a running Trove server\?\)/);
    } finally {
      const exit = await served.stop();
      expect(exit.code === 0 || exit.signal === 'SIGTERM').toBe(true);
    }
    // Stopped: --force replaces the store with the backup's again.
    const forced = await trove(['restore', backupFile, '--data-dir', restored, '--force']);
    expect(forced.code).toBe(0);
    expect(forced.stdout).toContain(`Checksum: ${manifest.checksum}`);
  }, 180_000);

  it('restore refuses a backup that differs from its manifest', async () => {
    const copy = join(work, 'tampered.db');
    copyFileSync(backupFile, copy);
    const manifest = JSON.parse(readFileSync(`${backupFile}.json`, 'utf8'));
    writeFileSync(`${copy}.json`, JSON.stringify(manifest));
    await sqlite(copy, [`UPDATE formats SET raw = 'tampered' WHERE rowid = (SELECT MIN(rowid) FROM formats)`]);
    const run = await trove(['restore', copy, '--data-dir', join(work, 'tampered-restore')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/not the file its manifest describes/);
    const missing = await trove(['restore', join(work, 'no-such-backup.db'), '--data-dir', join(work, 'x')]);
    expect(missing.code).toBe(1);
  }, 60_000);

  it('doctor: a healthy store (while its server runs) exits 0', async () => {
    const run = await trove(['doctor', '--data-dir', live]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/ok\s+integrity: PRAGMA integrity_check: ok/);
    expect(run.stdout).toMatch(/ok\s+foreign-keys:/);
    expect(run.stdout).toMatch(/ok\s+search-index: every live asset indexed once/);
    expect(run.stdout).toMatch(/No problems found\./);
    const json = await trove(['doctor', '--data-dir', live, '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toEqual(expect.objectContaining({ ok: true, findings: [] }));
  }, 60_000);

  it('doctor: a damaged store exits 1 naming each finding with its count; --fix repairs the index only', async () => {
    const dir = join(work, 'damaged');
    mkdirSync(dir);
    copyFileSync(backupFile, join(dir, 'trove.db'));
    const [gone, unindexed] = [seeded[3].id, seeded[4].id];
    await sqlite(join(dir, 'trove.db'), [
      // An asset row deleted under its formats (and its other rows), and an index row dropped.
      `DELETE FROM assets WHERE id = '${gone}'`,
      `DELETE FROM search_documents WHERE asset_id = '${unindexed}'`,
      // The kept count of documents (relevance's idf) set wrong by hand: its triggers keep it right otherwise.
      `UPDATE search_stats SET documents = documents + 5`,
    ]);
    const run = await trove(['doctor', '--data-dir', dir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(
      new RegExp(
        `FAIL\\s+foreign-keys: orphaned rows: formats\\.asset_id -> assets\\.id points at nothing: 1 row \\(e\\.g\\. ${gone}\\)`,
      ),
    );
    expect(run.stdout).toMatch(
      new RegExp(`FAIL\\s+search-index: live assets missing from the search index: 1 row \\(e\\.g\\. ${unindexed}\\)`),
    );
    expect(run.stdout).toMatch(
      new RegExp(`FAIL\\s+search-index: search documents without a live asset: 1 row \\(e\\.g\\. ${gone}\\)`),
    );
    // its vector in the code embedding (the dense stage's) too
    expect(run.stdout).toMatch(
      new RegExp(`FAIL\\s+search-index: search vectors without a live asset: 1 row \\(e\\.g\\. ${gone}\\)`),
    );
    expect(run.stdout).toMatch(
      /FAIL\s+search-index: word index rows without a search document \(search_words\): 1 row/,
    );
    expect(run.stdout).toMatch(
      /FAIL\s+search-index: the count of search documents \(search_stats\) differs from the documents: 1 row \(e\.g\. kept \d+, counted \d+\)/,
    );
    expect(run.stdout).toMatch(/ok\s+integrity: PRAGMA integrity_check: ok/);
    expect(run.stdout).toMatch(/\d+ problems found/);

    const json = JSON.parse((await trove(['doctor', '--data-dir', dir, '--json'])).stdout);
    expect(json.ok).toBe(false);
    expect(json.findings).toEqual(
      expect.arrayContaining([
        expect.objectContaining({
          check: 'foreign-keys',
          problem: 'orphaned rows: formats.asset_id -> assets.id points at nothing',
          count: 1,
          examples: [gone],
        }),
        expect.objectContaining({
          check: 'search-index',
          problem: 'live assets missing from the search index',
          count: 1,
          examples: [unindexed],
        }),
      ]),
    );

    const fixed = await trove(['doctor', '--data-dir', dir, '--fix']);
    expect(fixed.code).toBe(1); // the orphaned formats are data: never deleted
    const after = fixed.stdout.slice(fixed.stdout.indexOf('Checking again:'));
    expect(fixed.stdout).toMatch(/fixed the search index of 2 assets/);
    expect(fixed.stdout).toMatch(/fixed the count of search documents \(search_stats\)/);
    expect(after).not.toMatch(/count of search documents/);
    expect(after).not.toMatch(/live assets missing from the search index/);
    expect(after).not.toMatch(/search documents without a live asset/);
    expect(after).not.toMatch(/search vectors without a live asset/);
    expect(after).toMatch(/FAIL\s+foreign-keys: orphaned rows: formats\.asset_id -> assets\.id/);

    // Once the orphaned rows are dealt with by hand, only the unreachable full-text rows of the dropped document remain.
    await sqlite(
      join(dir, 'trove.db'),
      ['formats', 'annotations', 'activities', 'asset_tags', 'asset_enrichments'].map(
        (table) => `DELETE FROM ${table} WHERE asset_id = '${gone}'`,
      ),
    );
    const last = await trove(['doctor', '--data-dir', dir]);
    expect(last.code).toBe(1);
    expect(last.stdout).toMatch(/ok\s+foreign-keys:/);
    expect(last.stdout).toMatch(/FAIL\s+search-index: word index rows without a search document/);
    expect(last.stdout).not.toMatch(/live assets missing|search documents without/);
  }, 120_000);

  it('doctor: a damaged SQLite file fails integrity_check', async () => {
    const dir = join(work, 'corrupt');
    mkdirSync(dir);
    const db = join(dir, 'trove.db');
    copyFileSync(backupFile, db);
    // An index made to disagree with its table: integrity_check reports it, REINDEX (--fix) rebuilds it.
    await sqlite(db, [
      'PRAGMA writable_schema = ON',
      `UPDATE sqlite_schema SET sql = replace(sql, '"asset_id", "position"', '"position", "asset_id"') WHERE name = 'formats_asset'`,
    ]);
    const run = await trove(['doctor', '--data-dir', dir]);
    expect(run.code).toBe(1);
    expect(run.stdout).toMatch(/FAIL\s+integrity: PRAGMA integrity_check reports damage: \d+ rows?/);
    const fixed = await trove(['doctor', '--data-dir', dir, '--fix']);
    expect(fixed.stdout).toMatch(/fixed SQL indexes: REINDEX/);
    expect(fixed.code).toBe(0);
  }, 60_000);

  it('doctor on a directory without a store exits 1', async () => {
    const run = await trove(['doctor', '--data-dir', join(work, 'empty')]);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/no Trove store at/);
  }, 60_000);

  it('export / import: a round trip through NDJSON (the server still running on the source), then a server reads the same assets', async () => {
    const file = join(work, 'export.ndjson');
    const markdown = join(work, 'markdown');
    const exported = await trove(['export', file, '--data-dir', live, '--markdown', markdown]);
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    const checksum = /checksum: ([0-9a-f]{64})/.exec(exported.stdout)?.[1];
    expect(checksum).toBeDefined();
    const lines = readFileSync(file, 'utf8').trim().split('\n');
    expect(JSON.parse(lines[0])).toEqual(expect.objectContaining({ format: 'trove-export', version: 1 }));
    expect(lines.length).toBeGreaterThan(seeded.length);
    expect(exported.stdout).toMatch(/Wrote \d+ Markdown files to /);
    expect(readdirSync(markdown).length).toBeGreaterThanOrEqual(seeded.length);

    // SQLite takes one writer: importing into the store its server holds is refused, with what to do instead.
    const refused = await trove(['import', file, '--data-dir', live]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      /is open in another process \(a running Trove server\?\): stop it before importing.*POST \/trove\/import/,
    );

    const copy = join(work, 'imported');
    const imported = await trove(['import', file, '--data-dir', copy]);
    expect(imported.stderr).toBe('');
    expect(imported.code).toBe(0);
    expect(imported.stdout).toMatch(/Imported:[\s\S]*created: .*asset \d+/);
    expect(imported.stdout).toContain(`Records checksum: ${checksum}`);
    // Importing the same file again creates nothing.
    const again = await trove(['import', file, '--data-dir', copy]);
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/created: none/);
    expect(again.stdout).toContain(`Records checksum: ${checksum}`);

    const served = await serve(['--data-dir', copy]);
    try {
      const asset = new AssetApi(served.sdk);
      for (const written of seeded) expect(raw(await asset.assetSnapshot({ asset: written.id }))).toBe(written.raw);
    } finally {
      await served.stop();
    }
  }, 180_000);

  it('export - writes only NDJSON on stdout; import - reads it from stdin', async () => {
    const exported = await trove(['export', '-', '--data-dir', live]);
    expect(exported.code).toBe(0);
    const lines = exported.stdout.trim().split('\n');
    for (const line of lines) expect(() => JSON.parse(line)).not.toThrow();
    expect(JSON.parse(lines[0]).format).toBe('trove-export');
    expect(exported.stderr).toMatch(/Exported to stdout:/);
    const checksum = /checksum: ([0-9a-f]{64})/.exec(exported.stderr)![1];
    const imported = await trove(['import', '-', '--data-dir', join(work, 'from-stdin')], { input: exported.stdout });
    expect(imported.code).toBe(0);
    expect(imported.stdout).toContain(`Records checksum: ${checksum}`);
    // A file that is not an export is refused, nothing written.
    const bad = await trove(['import', '-', '--data-dir', join(work, 'bad-import')], {
      input: '{"not":"an export"}\n',
    });
    expect(bad.code).toBe(1);
  }, 120_000);

  it('import --format vscode (a directory of snippet files) and --format masscode', async () => {
    const snippets = join(work, 'vscode-snippets');
    mkdirSync(snippets);
    writeFileSync(
      join(snippets, 'python.json'),
      JSON.stringify({ 'Print value': { prefix: 'pv', body: ['print(${1:value})'], description: 'Print a value' } }),
    );
    writeFileSync(
      join(snippets, 'web.code-snippets'),
      JSON.stringify({ 'Log it': { scope: 'javascript', prefix: 'log', body: ['console.log($1);'] } }),
    );
    writeFileSync(join(snippets, 'notes.txt'), 'not a snippet file');
    const store = join(work, 'snippets-store');
    const vscode = await trove(['import', snippets, '--format', 'vscode', '--data-dir', store]);
    expect(vscode.stderr).toBe('');
    expect(vscode.code).toBe(0);
    expect(vscode.stdout).toMatch(/created: .*asset 2\b/);

    const db = join(work, 'masscode-db.json');
    writeFileSync(
      db,
      JSON.stringify({
        folders: [
          {
            id: 'f1',
            name: 'SQL',
            defaultLanguage: 'sql',
            parentId: null,
            createdAt: 1700000000000,
            updatedAt: 1700000000000,
          },
        ],
        snippets: [
          {
            id: 's1',
            name: 'Count rows',
            folderId: 'f1',
            isDeleted: false,
            isFavorites: false,
            tagsIds: [],
            description: null,
            content: [{ label: 'Fragment 1', language: 'sql', value: 'SELECT COUNT(*) FROM t;' }],
            createdAt: 1700000000000,
            updatedAt: 1700000000000,
          },
        ],
        tags: [],
      }),
    );
    const masscode = await trove(['import', db, '--format', 'masscode', '--data-dir', store]);
    expect(masscode.stderr).toBe('');
    expect(masscode.code).toBe(0);
    expect(masscode.stdout).toMatch(/created: .*asset 1\b/);
    expect(masscode.stdout).toMatch(/Records in the store: .*asset 3\b/);
  }, 120_000);
});

if (testDatabaseUrl) {
  describe('trove backup / restore / doctor on PostgreSQL (pg_dump / pg_restore)', () => {
    let server: TestServer;
    const seeded: Written[] = [];
    const dump = join(work, 'trove.dump');
    const targets: Array<{ url: string; drop(): Promise<void> }> = [];

    beforeAll(async () => {
      server = await startTestServer();
      const assets = new AssetsApi(server.sdk);
      for (let i = 0; i < 15; i++) {
        const text = `fn pg_seeded_${i}() -> u32 { ${i} }`;
        seeded.push({
          id: (await assets.assetsCreateNewAsset({ seed: textSeed(text) })).id,
          raw: text,
          at: Date.now(),
        });
      }
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      for (const target of targets) await target.drop();
    });

    it('backs up with pg_dump on the snapshot it counts in, while the server writes', async () => {
      const clients = writers(server.sdk, 3);
      await clients.more(10);
      const start = Date.now();
      const run = await trove(['backup', dump, '--database-url', server.config.databaseUrl!]);
      const end = Date.now();
      await clients.stop();
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/Verified: the archive lists the data of all \d+ tables of the manifest/);
      expect(clients.errors).toEqual([]);
      const manifest = JSON.parse(readFileSync(`${dump}.json`, 'utf8'));
      expect(manifest).toEqual(expect.objectContaining({ dialect: 'postgres', format: 'pg_dump-custom' }));
      expect(manifest.source).toMatch(/^PostgreSQL postgres(ql)?:\/\//);
      expect(manifest.counts.assets).toBeGreaterThanOrEqual(
        seeded.length + clients.acked.filter((w) => w.at < start).length,
      );
      expect(manifest.counts.assets).toBeLessThanOrEqual(
        seeded.length + clients.acked.filter((w) => w.at <= end).length + 3,
      );
      expect(manifest.counts.search_documents).toBe(manifest.counts.assets);
    }, 120_000);

    it('restores into a fresh database (refusing one with tables), verified; a server on it reads the same assets', async () => {
      const manifest = JSON.parse(readFileSync(`${dump}.json`, 'utf8'));
      const target = await freshPostgresDatabase('trove_cli');
      targets.push(target);
      const run = await trove(['restore', dump, '--database-url', target.url]);
      expect(run.stderr).not.toMatch(/^trove:/m); // (pg may warn about the transfer queries; no error)
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/Verified: counts and checksum match the manifest/);
      expect(run.stdout).toContain(`Checksum: ${manifest.checksum}`);
      const twice = await trove(['restore', dump, '--database-url', target.url]);
      expect(twice.code).toBe(1);
      expect(twice.stderr).toMatch(/the target database has \d+ tables/);

      const served = await serve(['--database-url', target.url]);
      try {
        const ids = new Set(
          ((await new AssetsApi(served.sdk).assetsIdentifiersSnapshot({})).iterable ?? []).map((a) => a.id),
        );
        expect(ids.size).toBe(manifest.counts.assets);
        for (const written of seeded)
          expect(raw(await new AssetApi(served.sdk).assetSnapshot({ asset: written.id }))).toBe(written.raw);
      } finally {
        await served.stop();
      }
      // A SQLite-only option on a PostgreSQL backup is a usage error.
      expect((await trove(['restore', dump, '--data-dir', join(work, 'pg-into-sqlite')])).code).toBe(2);
    }, 180_000);

    it('export from PostgreSQL, import into SQLite and into the live PostgreSQL store beside its server: same records checksum', async () => {
      const file = join(work, 'pg-export.ndjson');
      const exported = await trove(['export', file, '--database-url', server.config.databaseUrl!]);
      expect(exported.code).toBe(0);
      const checksum = /checksum: ([0-9a-f]{64})/.exec(exported.stdout)![1];
      const sqliteCopy = await trove(['import', file, '--data-dir', join(work, 'pg-to-sqlite')]);
      expect(sqliteCopy.code).toBe(0);
      expect(sqliteCopy.stdout).toContain(`Records checksum: ${checksum}`);
      // PostgreSQL takes several writers: importing beside the running server is allowed (and here creates nothing).
      const beside = await trove(['import', file, '--database-url', server.config.databaseUrl!]);
      expect(beside.code).toBe(0);
      expect(beside.stdout).toMatch(/created: none/);
    }, 120_000);

    it('doctor: healthy exits 0; rows orphaned behind the constraints exit 1', async () => {
      const healthy = await trove(['doctor', '--database-url', server.config.databaseUrl!]);
      expect(healthy.code).toBe(0);
      expect(healthy.stdout).toMatch(/ok\s+foreign-keys: every foreign key holds/);
      expect(healthy.stdout).toMatch(/ok\s+search-index: every live asset indexed once/);

      const target = await freshPostgresDatabase('trove_cli');
      targets.push(target);
      expect((await trove(['restore', dump, '--database-url', target.url])).code).toBe(0);
      const client = new Client({ connectionString: target.url });
      await client.connect();
      try {
        // Constraints bypassed (as a careless replication or manual fix would): an asset row deleted under its formats.
        await client.query(`SET session_replication_role = replica`);
        await client.query(`DELETE FROM assets WHERE id = $1`, [seeded[2].id]);
        await client.query(`DELETE FROM search_documents WHERE asset_id = $1`, [seeded[5].id]);
      } finally {
        await client.end();
      }
      const run = await trove(['doctor', '--database-url', target.url]);
      expect(run.code).toBe(1);
      expect(run.stdout).toMatch(
        new RegExp(
          `FAIL\\s+foreign-keys: orphaned rows: formats\\.asset_id -> assets\\.id points at nothing: 1 row \\(e\\.g\\. ${seeded[2].id}\\)`,
        ),
      );
      expect(run.stdout).toMatch(
        new RegExp(
          `FAIL\\s+search-index: live assets missing from the search index: 1 row \\(e\\.g\\. ${seeded[5].id}\\)`,
        ),
      );
      const fixed = await trove(['doctor', '--database-url', target.url, '--fix']);
      expect(fixed.stdout.slice(fixed.stdout.indexOf('Checking again:'))).not.toMatch(/live assets missing/);
      expect(await statusOf(new AssetApi(server.sdk).assetSnapshot({ asset: seeded[2].id }))).toBe(200); // the live store untouched
    }, 180_000);
  });
}
