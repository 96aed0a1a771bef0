#!/usr/bin/env python3
"""Extract TRAINING (docstring, function) pairs for the NL -> code association table.

    python3 ml/synonyms/extract_pairs.py [--jobs 4] [--cache DIR] [--out PAIRS.jsonl] [--stats TSV]

Packages: ml/synonyms/packages.txt (one Debian python3-* package a line). None may appear in the
held-out retrieval set (ml/retrieval/packages.txt): the script refuses to run if one does.
Each package is fetched with `apt-get download` and unpacked with `dpkg-deb -x` under
$ML_CACHE/synonyms/cache (ML_CACHE defaults to ~/.cache/trove-ml; never inside the repository), at the version
ml/synonyms/package-stats.tsv records for it when it records one (`--pins`), so a rebuild reads the same files.

Output (outside the repository, it is large): $ML_CACHE/synonyms/pairs.jsonl, one JSON object a
line: package, path, symbol, query (first paragraph of the docstring, markup removed), code (the
function with its docstring removed: decorators, def line with parameters, body).
Standard library only. Deterministic for the same package versions.
"""
import argparse
import ast
import hashlib
import json
import os
import re
import subprocess
import sys
import textwrap
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
ML_CACHE = Path(os.environ.get('ML_CACHE') or Path.home() / '.cache' / 'trove-ml')
# Set from the arguments in main(); the worker processes are forked after that and inherit them.
CACHE = ML_CACHE / 'synonyms' / 'cache'
OUT = ML_CACHE / 'synonyms' / 'pairs.jsonl'
PINS = {}
HELD_OUT = REPO / 'ml' / 'retrieval' / 'packages.txt'

PER_PACKAGE = 1500
MIN_WORDS, MAX_WORDS = 3, 60
MIN_LINES, MAX_LINES = 2, 80


def read_list(path):
    out = []
    for line in path.read_text().splitlines():
        line = line.split('#', 1)[0].strip()
        if line:
            out.append(line.split()[-1])
    return out


def fetch(pkg):
    debs = CACHE / 'debs'
    debs.mkdir(parents=True, exist_ok=True)
    pin = PINS.get(pkg, '').replace('%3a', ':')  # package-stats.tsv writes an epoch as in the file name
    pattern = f'{pkg}_{pin.replace(":", "%3a")}_*.deb' if pin else f'{pkg}_*.deb'
    found = sorted(debs.glob(pattern))
    if not found:
        r = subprocess.run(['apt-get', 'download', f'{pkg}={pin}' if pin else pkg], cwd=debs,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        found = sorted(debs.glob(pattern))
        if r.returncode != 0 or not found:
            return None, None
    deb = found[-1]
    version = deb.name[len(pkg) + 1:].rsplit('_', 1)[0]
    root = CACHE / 'x' / pkg
    if not (root / '.done').exists():
        root.mkdir(parents=True, exist_ok=True)
        subprocess.run(['dpkg-deb', '-x', str(deb), str(root)], check=True)
        (root / '.done').write_text(version)
    return root, version


STOP_SECTION = re.compile(
    r'^\s*(:param|:type|:return|:rtype|:raises|:arg|:keyword|:ivar|@param|@return|@throws|@see|>>>|\.\. |'
    r'(args|arguments|parameters|params|returns?|yields?|raises|example|examples|note|notes|usage|see also|warning|attributes)\s*:?\s*$|'
    r'(args|arguments|parameters|params|returns|raises|example|examples)\s*:|-{3,}|={3,})',
    re.I,
)
BAD_START = re.compile(r'^(deprecated|todo|fixme|xxx|hack|see |same as|alias|copyright|license|auto-?generated|@|#|\$|-|\*|=)', re.I)


def clean_query(doc):
    lines = []
    for line in doc.strip().splitlines():
        if STOP_SECTION.match(line):
            break
        if not line.strip():
            if lines:
                break
            continue
        lines.append(line.strip())
    text = ' '.join(lines)
    text = re.sub(r':[a-z:]+:`~?([^`]+)`', r'\1', text)
    text = re.sub(r'`+([^`]+)`+', r'\1', text)
    text = re.sub(r'\*\*?([^*]+)\*\*?', r'\1', text)
    text = re.sub(r'\s+', ' ', text).strip()
    words = text.split()
    if len(words) > MAX_WORDS:
        m = re.match(r'(.+?[.!?])(\s|$)', text)
        if not m:
            return None
        text = m.group(1)
        words = text.split()
    if not (MIN_WORDS <= len(words) <= MAX_WORDS):
        return None
    if BAD_START.match(text) or '>>>' in text or 'http://' in text or 'https://' in text:
        return None
    if not re.search(r'[a-zA-Z]{3}', text):
        return None
    return text


def is_test_path(rel):
    parts = rel.lower().split('/')
    if any(p in ('test', 'tests', 'testing', 'testdata', 'examples', 'example', 'benchmarks', 'fixtures') for p in parts[:-1]):
        return True
    name = parts[-1]
    return name.startswith('test_') or re.search(r'(_test|conftest|tests?)\.py$', name) is not None


def _trivial(body):
    if not body:
        return True
    if len(body) == 1:
        s = body[0]
        if isinstance(s, ast.Pass) or (isinstance(s, ast.Expr) and isinstance(getattr(s, 'value', None), ast.Constant)):
            return True
        if isinstance(s, ast.Raise) and 'NotImplemented' in ast.dump(s):
            return True
    return False


def extract_python(path):
    try:
        src = path.read_text(encoding='utf-8')
        tree = ast.parse(src)
    except (UnicodeDecodeError, OSError, SyntaxError, ValueError, RecursionError):
        return
    lines = src.splitlines()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        name = node.name
        if name.lower().startswith('test') or (name.startswith('__') and name != '__init__'):
            continue
        doc = ast.get_docstring(node, clean=True)
        if not doc or not node.body:
            continue
        first = node.body[0]
        if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)):
            continue
        if _trivial(node.body[1:]):
            continue
        query = clean_query(doc)
        if not query:
            continue
        start = min([node.lineno] + [d.lineno for d in node.decorator_list])
        ds0, ds1 = first.lineno, first.end_lineno
        if ds0 == node.lineno:
            continue
        after = lines[ds1:node.end_lineno]
        kept = lines[start - 1:ds0 - 1] + after
        code = textwrap.dedent('\n'.join(kept)).rstrip() + '\n'
        n = sum(1 for l in code.splitlines() if l.strip())
        if not (MIN_LINES <= n <= MAX_LINES):
            continue
        yield name, query, code


def norm_hash(code):
    return hashlib.sha1(re.sub(r'\s+', '', code).encode()).hexdigest()


def process(pkg):
    root, version = fetch(pkg)
    if root is None:
        return pkg, None, []
    cached = CACHE / 'pairs' / f'{pkg}_{version}.json'
    if cached.exists():
        return pkg, version, json.loads(cached.read_text())
    out = []
    for path in sorted(root.rglob('*.py')):
        rel = str(path.relative_to(root))
        if not rel.startswith('usr/lib/python3') or is_test_path(rel):
            continue
        for name, query, code in extract_python(path):
            out.append({'package': pkg, 'path': rel, 'symbol': name, 'query': query, 'code': code})
    # deterministic down-sampling by hash when a package is very large
    if len(out) > PER_PACKAGE:
        out.sort(key=lambda r: hashlib.sha1((r['path'] + r['symbol'] + r['query']).encode()).hexdigest())
        out = out[:PER_PACKAGE]
        out.sort(key=lambda r: (r['path'], r['symbol']))
    cached.parent.mkdir(parents=True, exist_ok=True)
    cached.write_text(json.dumps(out))
    return pkg, version, out


def main():
    global CACHE, OUT
    ap = argparse.ArgumentParser()
    ap.add_argument('--jobs', type=int, default=4)
    ap.add_argument('--cache', type=Path, default=CACHE)
    ap.add_argument('--out', type=Path, default=OUT)
    ap.add_argument('--stats', type=Path, default=HERE / 'package-stats.tsv', help='per-package versions and pairs written')
    ap.add_argument('--pins', type=Path, default=HERE / 'package-stats.tsv', help='versions to fetch (a package-stats.tsv)')
    args = ap.parse_args()
    CACHE, OUT = args.cache, args.out
    if args.pins.exists():
        for row in args.pins.read_text().splitlines()[1:]:
            pkg, version = row.split('\t')[:2]
            if version != '-':
                PINS[pkg] = version
    packages = read_list(HERE / 'packages.txt')
    held = set(read_list(HELD_OUT)) if HELD_OUT.exists() else set()
    clash = sorted(set(packages) & held)
    if clash:
        sys.exit(f'packages also in the held-out set {HELD_OUT}: {clash}')
    seen_code, seen_qc = set(), set()
    n_pkg = 0
    stats = []
    with ProcessPoolExecutor(args.jobs) as ex:
        results = list(ex.map(process, packages))
    OUT.parent.mkdir(parents=True, exist_ok=True)
    with OUT.open('w') as f:
        for pkg, version, rows in results:
            kept = 0
            for r in rows:
                h = norm_hash(r['code'])
                qc = (r['query'].lower(), r['symbol'])
                if h in seen_code or qc in seen_qc:
                    continue
                seen_code.add(h)
                seen_qc.add(qc)
                f.write(json.dumps(r) + '\n')
                kept += 1
            stats.append((pkg, version, kept))
            if kept:
                n_pkg += 1
    with args.stats.open('w') as f:
        f.write('package\tversion\tpairs\n')
        for pkg, version, kept in stats:
            f.write(f'{pkg}\t{version or "-"}\t{kept}\n')
    total = sum(k for _, _, k in stats)
    print(f'{total} pairs from {n_pkg} packages (of {len(packages)} listed) -> {OUT}')


if __name__ == '__main__':
    main()
