#!/usr/bin/env node
// Writes ml/manifest.json: for every model or data file Trove ships that a script made, its sha256
// and size, the make target that rebuilds it, the scripts, the source data with the versions the
// scripts pin, and the seed. test/unit/ml-manifest.spec.ts fails when a shipped file no longer
// matches its entry or a data file the app loads has none, so the manifest cannot go stale quietly.
//
//   node ml/manifest.js                 # rewrite ml/manifest.json from the files in the repository
//   node ml/manifest.js --verify DIR    # compare the files rebuilt under DIR (make -C ml BUILD=DIR ...)
'use strict';
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const REPO = path.join(__dirname, '..');
const MANIFEST = path.join(__dirname, 'manifest.json');

const RETRIEVAL_HELD_OUT = 'ml/retrieval/packages.txt';
const RETRIEVAL_DEV = 'ml/retrieval/dev-packages.txt';
const LANGUAGE_CORPUS = [
  {
    kind: 'debian',
    suite: 'bookworm',
    list: 'ml/language/corpus/deb-packages.txt',
    versions: 'ml/language/corpus/deb-versions.tsv',
  },
  {
    kind: 'debian-source',
    suite: 'bookworm',
    list: 'ml/language/corpus/debsrc-packages.txt',
    versions: 'ml/language/corpus/debsrc-versions.tsv',
  },
  { kind: 'npm', list: 'ml/language/corpus/npm-packages.txt', versions: 'ml/language/corpus/npm-versions.tsv' },
];

/**
 * What made each file. `versions` names the committed TSV (package, version) the scripts fetch by
 * when it exists and a rebuild records (`make` writes it under BUILD; `make ship` copies it in).
 * `heldOut` is what the file is measured on, which its sources never include.
 */
const FILES = [
  {
    path: 'src/modules/intelligence/language/language-model.bin',
    kind: 'model',
    target: 'language-model',
    scripts: [
      'ml/language/corpus/run.sh',
      'ml/language/corpus/fetch.sh',
      'ml/language/corpus/build.py',
      'ml/language/featurize.js',
      'ml/language/train.py',
      'src/modules/intelligence/language/features.ts',
    ],
    sources: LANGUAGE_CORPUS,
    seed: "SGDClassifier random_state=7; each file's windows seeded by the FNV-1a hash of its path",
    heldOut: 'eval/data/language-heldout.jsonl.gz (its packages and files are skipped by featurize.js)',
    reproduced:
      'not byte for byte: the mirror lacks pool files the 2026-11-28 corpus had (ml/language/README.md); check the held-out accuracy',
  },
  {
    path: 'src/modules/intelligence/text/code-embedding.bin',
    kind: 'model',
    target: 'code-embedding',
    scripts: [
      'ml/embedding/make-packages.py',
      'ml/retrieval/extract_pairs.py',
      'ml/synonyms/tokenize.js',
      'ml/embedding/train.py',
      'src/modules/intelligence/text/extractive-answerer.ts',
    ],
    sources: [
      { kind: 'debian', suite: 'bookworm', list: 'ml/embedding/packages.txt', versions: 'ml/embedding/versions.tsv' },
    ],
    seed: 'torch.manual_seed and random.seed 20261127 (train.py SEED); packages sampled by the SHA-1 of their names',
    heldOut: `eval/data/nl-code-pairs.jsonl (packages disjoint by name and source package: ${RETRIEVAL_HELD_OUT}, ${RETRIEVAL_DEV})`,
    reproduced: 'not yet rebuilt here (about 1,100 packages to fetch; Debian PyTorch 1.13 CPU)',
  },
  {
    path: 'src/modules/intelligence/text/code-synonyms.json',
    kind: 'model',
    target: 'code-synonyms',
    scripts: [
      'ml/synonyms/extract_pairs.py',
      'ml/synonyms/tokenize.js',
      'ml/synonyms/learn.py',
      'src/modules/intelligence/text/extractive-answerer.ts',
    ],
    sources: [
      {
        kind: 'debian',
        suite: 'bookworm',
        list: 'ml/synonyms/packages.txt',
        versions: 'ml/synonyms/package-stats.tsv',
      },
    ],
    seed: null,
    heldOut: `eval/data/nl-code-pairs.jsonl (extract_pairs.py refuses packages of ${RETRIEVAL_HELD_OUT})`,
    reproduced: 'not yet rebuilt here (434 packages to fetch, about 10 minutes of EM)',
  },
  {
    path: 'src/modules/intelligence/text/name-verbs.json',
    kind: 'model',
    target: 'name-verbs',
    scripts: [
      'ml/embedding/make-packages.py',
      'ml/retrieval/extract_pairs.py',
      'ml/verbs/learn.js',
      'src/modules/intelligence/text/what-it-does.ts',
    ],
    sources: [{ kind: 'debian', suite: 'bookworm', list: 'ml/verbs/packages.txt', versions: 'ml/verbs/versions.tsv' }],
    seed: null,
    heldOut: `eval/data/nl-code-pairs.jsonl, read by eval/enrichment.js (packages disjoint: ${RETRIEVAL_HELD_OUT}, ${RETRIEVAL_DEV})`,
    reproduced: 'not yet rebuilt here (about 3,000 packages to fetch, 15 minutes of extraction)',
  },
  {
    path: 'src/modules/intelligence/text/word-parts.json',
    kind: 'model',
    target: 'word-parts',
    scripts: ['ml/word-parts/build.py'],
    sources: [
      {
        kind: 'debian-installed',
        suite: 'bookworm',
        list: 'the files under /usr/lib/python3.11, /usr/share/perl, /usr/lib/x86_64-linux-gnu/perl*, /usr/include, and /usr/share/dict/american-english',
        versions: 'ml/word-parts/sources.tsv',
      },
    ],
    seed: null,
    heldOut: `eval/data/nl-code-pairs.jsonl (files of ${RETRIEVAL_HELD_OUT} and ${RETRIEVAL_DEV} packages skipped)`,
    reproduced: 'byte for byte, 2026-12-02 (make -C ml word-parts, Debian 12.11)',
  },
  {
    path: 'src/common/wire/sdk-operations-table.json',
    kind: 'generated',
    target: 'sdk-operations',
    scripts: ['scripts/gen-sdk-operations.js'],
    sources: [
      { kind: 'npm', packages: { '@pieces.app/pieces-os-client': devDependency('@pieces.app/pieces-os-client') } },
    ],
    seed: null,
    heldOut: null,
    reproduced: 'byte for byte, 2026-12-02 (make -C ml sdk-operations)',
  },
  {
    path: 'eval/data/nl-code-pairs.jsonl',
    kind: 'evaluation',
    target: 'retrieval-heldout',
    scripts: ['ml/retrieval/extract_pairs.py'],
    sources: [{ kind: 'debian', suite: 'bookworm', list: RETRIEVAL_HELD_OUT, versions: 'ml/retrieval/versions.tsv' }],
    seed: "'trove-retrieval-v1' (the SHA-1 key that orders and samples the pairs)",
    heldOut: null,
    reproduced:
      'byte for byte, 2026-12-02 (make -C ml retrieval-heldout), at the versions of ml/retrieval/versions.tsv',
  },
  {
    path: 'eval/data/dev-nl-code-pairs.jsonl',
    kind: 'evaluation',
    target: 'retrieval-dev',
    scripts: ['ml/retrieval/extract_pairs.py'],
    sources: [{ kind: 'debian', suite: 'bookworm', list: RETRIEVAL_DEV, versions: 'ml/retrieval/dev-versions.tsv' }],
    seed: "'trove-retrieval-v1' (the SHA-1 key that orders and samples the pairs)",
    heldOut: null,
    reproduced:
      'byte for byte, 2026-12-02 (make -C ml retrieval-dev), at the versions of ml/retrieval/dev-versions.tsv',
  },
  {
    path: 'eval/data/language-heldout.jsonl.gz',
    kind: 'evaluation',
    target: 'language-heldout',
    scripts: [
      'ml/language/corpus/run.sh',
      'ml/language/corpus/build.py',
      'ml/language/make-eval-set.js',
      'ml/language/windows.js',
    ],
    sources: LANGUAGE_CORPUS,
    seed: 'per language, the FNV-1a hash of its name; per window, of its stratum, round and file',
    heldOut: null,
    reproduced:
      "no: cut from the 2026-11-26 corpus's test split, which a rebuild does not give again (ml/language/README.md); kept as it is",
  },
];

function devDependency(name) {
  const pkg = JSON.parse(fs.readFileSync(path.join(REPO, 'package.json'), 'utf8'));
  return pkg.devDependencies[name] ?? pkg.dependencies[name];
}

function sha256(file) {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** The packages of a versions TSV (comment lines and a `package` header skipped). */
function versionRows(file) {
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line && !line.startsWith('#') && !line.startsWith('package\t'));
}

function source(entry) {
  if (!entry.versions) return entry;
  const file = path.join(REPO, entry.versions);
  if (!fs.existsSync(file)) return { ...entry, versions: null, note: `versions not recorded (${entry.versions})` };
  return { ...entry, packages: versionRows(file).length, versionsSha256: sha256(file) };
}

function manifest() {
  return {
    about:
      'The model and data files Trove ships and how each was made. Written by `node ml/manifest.js`; rebuild with `make -C ml <target>` (ml/README.md).',
    files: FILES.map((f) => {
      const file = path.join(REPO, f.path);
      return {
        path: f.path,
        kind: f.kind,
        sha256: sha256(file),
        bytes: fs.statSync(file).size,
        command: `make -C ml ${f.target}`,
        scripts: f.scripts,
        sources: f.sources.map(source),
        seed: f.seed,
        heldOut: f.heldOut,
        reproduced: f.reproduced,
      };
    }),
  };
}

function verify(dir) {
  const listed = JSON.parse(fs.readFileSync(MANIFEST, 'utf8')).files;
  let built = 0;
  let differ = 0;
  for (const f of listed) {
    const file = path.join(dir, f.path);
    if (!fs.existsSync(file)) continue;
    built++;
    const same = sha256(file) === f.sha256;
    if (!same) differ++;
    console.log(`${same ? 'same   ' : 'DIFFERS'} ${f.path} (${f.command})`);
  }
  console.log(`${built} rebuilt file(s) under ${dir}, ${differ} differ from ml/manifest.json`);
  return built > 0 && differ === 0;
}

if (require.main === module) {
  const at = process.argv.indexOf('--verify');
  if (at >= 0) {
    process.exitCode = verify(path.resolve(process.argv[at + 1] ?? '')) ? 0 : 1;
  } else {
    fs.writeFileSync(MANIFEST, JSON.stringify(manifest(), null, 2) + '\n');
    console.log(`${FILES.length} files -> ${path.relative(REPO, MANIFEST)}`);
  }
}

module.exports = { FILES, manifest, sha256 };
