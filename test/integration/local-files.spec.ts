import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/common/config/app-config';
import { DomainError } from '../../src/common/errors/domain-errors';
import { LocalFiles } from '../../src/modules/qgpt/local-files';
import { startSwapper } from '../e2e/support/swapper';

const OUTSIDE = 'OUTSIDE-THE-ROOT-51c2';

/**
 * The local-file reader itself, on a real file system and without HTTP: both of its ways of
 * opening a path once (Linux's O_PATH descriptor checked through /proc, and the portable open
 * checked against the real path walked again, which macOS uses) under the same rules and race.
 */
describe.each([
  ['through /proc/self/fd (Linux)', (config: ReturnType<typeof loadConfig>) => new LocalFiles(config)],
  [
    'portable (the real path walked again with lstat, device and inode compared)',
    (config: ReturnType<typeof loadConfig>) => LocalFiles.portable(config),
  ],
])('LocalFiles %s', (_how, make) => {
  let root: string;
  let outside: string;
  let files: LocalFiles;

  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'trove-lf-root-'));
    outside = mkdtempSync(join(tmpdir(), 'trove-lf-outside-'));
    mkdirSync(join(root, 'sw'));
    mkdirSync(join(root, 'deep', 'er'), { recursive: true });
    writeFileSync(join(root, 'sw', 'passwd'), 'inside text\n');
    writeFileSync(join(root, 'deep', 'er', 'notes.md'), 'deep notes\n');
    writeFileSync(join(root, 'big.txt'), 'x'.repeat(5000));
    writeFileSync(join(root, 'binary.bin'), Buffer.from([1, 2, 0, 3]));
    writeFileSync(join(outside, 'passwd'), `${OUTSIDE}\n`);
    symlinkSync(join(outside, 'passwd'), join(root, 'link-out'));
    symlinkSync(root, join(root, 'deep', 'loop'));
    execFileSync('mkfifo', [join(root, 'pipe')]);
    files = make(loadConfig({ ...process.env, TROVE_QGPT_ROOTS: root, TROVE_QGPT_FILE_LIMIT: '4096' }));
  });
  afterAll(() => {
    rmSync(root, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  const failure = (paths: string[]) =>
    files.read(paths).then(
      () => null,
      (error: DomainError) => [error.status, error.message],
    );

  it('reads a file and walks a directory (each file once, a symlink loop followed no further, what leads out skipped)', async () => {
    expect(await files.read([join(root, 'sw', 'passwd')])).toEqual([
      { path: join(root, 'sw', 'passwd'), text: 'inside text\n' },
    ]);
    const walked = await files.read([root]);
    expect(walked.map((d) => d.path)).toEqual([join(root, 'deep', 'er', 'notes.md'), join(root, 'sw', 'passwd')]);
  });

  it('refuses special files, oversized files and binaries inside the roots, saying why', async () => {
    expect(await failure([join(root, 'pipe')])).toEqual([400, `${join(root, 'pipe')} is not a regular file`]);
    expect(await failure([join(root, 'big.txt')])).toEqual([400, expect.stringContaining('TROVE_QGPT_FILE_LIMIT')]);
    expect(await failure([join(root, 'binary.bin')])).toEqual([400, expect.stringContaining('not a text file')]);
  });

  it('answers every path it may not read alike', async () => {
    const paths = [
      join(outside, 'passwd'),
      join(outside, 'nope'),
      join(root, 'nope'),
      join(root, 'link-out'),
      `${root}/../x/passwd`,
      '/etc/shadow',
    ];
    const answers = await Promise.all(
      paths.map(async (p) => (await failure([p]))!.map((x) => String(x).split(p).join('<path>')).join(' ')),
    );
    expect(new Set(answers)).toEqual(
      new Set([
        '404 <path> cannot be read: it does not exist, is not readable, or is outside the directories TROVE_QGPT_ROOTS allows',
      ]),
    );
  });

  it('takes about the same time to refuse whatever the reason (a prober cannot tell an existing file from a missing one)', async () => {
    symlinkSync(join(outside, 'nope'), join(root, 'link-missing'));
    const kinds: Record<string, string> = {
      existingOutside: join(outside, 'passwd'),
      missingOutside: join(outside, 'nope'),
      missingInside: join(root, 'nope'),
      linkToExisting: join(root, 'link-out'),
      linkToMissing: join(root, 'link-missing'),
      unreadable: '/etc/shadow',
    };
    const entries = Object.entries(kinds);
    const times: Record<string, number[]> = Object.fromEntries(entries.map(([k]) => [k, []]));
    for (let round = 0; round < 3000; round++) {
      // A different order each round: a position in the round must not count as a kind's time.
      for (const [kind, path] of entries.map((_, i) => entries[(i + round) % entries.length])) {
        const start = process.hrtime.bigint();
        await files.read([path]).catch(() => undefined);
        times[kind].push(Number(process.hrtime.bigint() - start) / 1e3);
      }
    }
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];
    const medians = Object.fromEntries(Object.entries(times).map(([k, xs]) => [k, Math.round(median(xs) * 10) / 10]));
    console.log(`${_how}: refusal medians (µs): ${JSON.stringify(medians)}`);
    // What a prober compares: the same request for a file that exists and one that does not.
    // 15 µs is about 1% of one request's own time over loopback HTTP (~1.4 ms, with jitter of
    // several hundred µs): a difference far below what such a client can see.
    expect(Math.abs(medians.existingOutside - medians.missingOutside)).toBeLessThan(15);
    expect(Math.abs(medians.linkToExisting - medians.linkToMissing)).toBeLessThan(15);
    expect(Math.abs(medians.unreadable - medians.missingOutside)).toBeLessThan(15);
  });

  it('never returns a byte from outside while a directory under the root is swapped with a symlink out of it (10 s)', async () => {
    const spaces = [[join(root, 'sw', 'passwd')], [join(root, 'sw')], [root]];
    const outcomes = new Map<string, number>();
    const swapper = startSwapper(join(root, 'sw'), outside);
    const end = Date.now() + 10_000;
    let swaps: number;
    try {
      await Promise.all(
        [0, 1, 2, 3].map(async (n) => {
          for (let i = n; Date.now() < end; i++) {
            let outcome: string;
            try {
              const docs = await files.read(spaces[i % spaces.length]);
              const leaked = docs.some((d) => d.text.includes(OUTSIDE) || !d.path.startsWith(root + '/'));
              outcome = leaked ? 'leak' : 'read';
            } catch (error) {
              outcome = error instanceof DomainError ? String(error.status) : `thrown: ${String(error)}`;
            }
            outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          }
        }),
      );
    } finally {
      swaps = await swapper.stop();
    }
    console.log(`${_how}: ${swaps} swaps, ${JSON.stringify(Object.fromEntries(outcomes))}`);
    expect([...outcomes.keys()].sort()).toEqual(['404', 'read']);
  }, 60_000);
});
