import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';

/**
 * ml/manifest.json records how each shipped model and data file was made (ml/README.md). These
 * checks keep it true: every file it lists is the one in the tree, and every data file the app
 * loads or the evaluations read is listed, so a retrained file cannot ship without its record.
 */
interface Source {
  kind: string;
  list?: string;
  versions?: string | null;
  versionsSha256?: string;
  packages?: number | Record<string, string>;
}
interface Entry {
  path: string;
  kind: string;
  sha256: string;
  bytes: number;
  command: string;
  scripts: string[];
  sources: Source[];
}

const repo = join(__dirname, '..', '..');
const manifest = JSON.parse(readFileSync(join(repo, 'ml', 'manifest.json'), 'utf8')) as { files: Entry[] };
const listed = new Set(manifest.files.map((f) => f.path));
const sha256 = (file: string) => createHash('sha256').update(readFileSync(file)).digest('hex');

function walk(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = join(dir, name);
    return statSync(file).isDirectory() ? walk(file) : [file];
  });
}

const code = /\.(ts|mjs)$/;
const srcFiles = walk(join(repo, 'src'));

describe('ml/manifest.json', () => {
  it.each(manifest.files.map((f) => [f.path, f] as const))('%s is the file in the tree', (_, entry) => {
    const file = join(repo, entry.path);
    expect(existsSync(file)).toBe(true);
    expect(statSync(file).size).toBe(entry.bytes);
    expect(sha256(file)).toBe(entry.sha256);
  });

  it.each(manifest.files.map((f) => [f.path, f] as const))(
    '%s names a make target, scripts and sources that exist',
    (_, entry) => {
      const makefile = readFileSync(join(repo, 'ml', 'Makefile'), 'utf8');
      const target = /^make -C ml ([\w-]+)$/.exec(entry.command)?.[1];
      expect(target).toBeDefined();
      expect(makefile).toMatch(new RegExp(`^${target}:`, 'm'));
      for (const script of entry.scripts) expect(existsSync(join(repo, script))).toBe(true);
      expect(entry.sources.length).toBeGreaterThan(0);
      for (const source of entry.sources) {
        if (source.list?.startsWith('ml/')) expect(existsSync(join(repo, source.list))).toBe(true);
        if (source.versions) expect(sha256(join(repo, source.versions))).toBe(source.versionsSha256);
      }
    },
  );

  it('lists every data file under src/ and eval/data/', () => {
    const data = [...srcFiles.filter((f) => !code.test(f)), ...walk(join(repo, 'eval', 'data'))].map((f) =>
      relative(repo, f),
    );
    expect(data.length).toBeGreaterThan(0);
    expect(data.filter((f) => !listed.has(f))).toEqual([]);
  });

  it('lists every .bin or .json file the code names beside it', () => {
    const named = new Set<string>();
    for (const file of srcFiles.filter((f) => f.endsWith('.ts'))) {
      for (const [, name] of readFileSync(file, 'utf8').matchAll(/['"](?:\.\/)?([\w.-]+\.(?:bin|json))['"]/g)) {
        const beside = join(dirname(file), name);
        if (existsSync(beside)) named.add(relative(repo, beside));
      }
    }
    expect(named.size).toBeGreaterThanOrEqual(5);
    expect([...named].filter((f) => !listed.has(f))).toEqual([]);
  });

  it('is what ml/manifest.js writes', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { manifest: current } = require('../../ml/manifest.js') as { manifest: () => unknown };
    expect(current()).toEqual(manifest);
  });
});
