#!/usr/bin/env python3
"""Build a held-out, CodeSearchNet-style set of (docstring, function) pairs from Debian packages.

    python3 ml/retrieval/extract_pairs.py            # download (cached), extract, write the set
    python3 ml/retrieval/extract_pairs.py --check    # only check packages.txt against the reserved lists

Packages come from ml/retrieval/packages.txt ("<lang> <debian-package>" per line). Each is fetched with
`apt-get download` and unpacked with `dpkg-deb -x` under the cache directory (default
$ML_CACHE/retrieval/cache, ML_CACHE defaulting to ~/.cache/trove-ml; never inside the repository). A package that
appears in the language-detector corpus lists ($ML_CACHE/language/corpus/reserved-packages.txt and packages.tsv,
written by ml/language/corpus/run.sh) is refused. With --versions FILE the packages listed there are fetched at
those versions; --record FILE writes the version of every package used (the same TSV form: ml/manifest.json reads it).

Output: eval/data/nl-code-pairs.jsonl, one JSON object a line with the fields
id, lang, package, path, symbol, query, code. Deterministic: same packages (same versions) -> same file.
Standard library only.
"""
import argparse
import ast
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
ML_CACHE = Path(os.environ.get('ML_CACHE') or Path.home() / '.cache' / 'trove-ml')
DEFAULT_CACHE = ML_CACHE / 'retrieval' / 'cache'
DEFAULT_OUT = REPO / 'eval' / 'data' / 'nl-code-pairs.jsonl'
LANG_CORPUS = Path(os.environ.get('LANG_CORPUS') or ML_CACHE / 'language' / 'corpus')
RESERVED = [LANG_CORPUS / 'reserved-packages.txt', LANG_CORPUS / 'packages.tsv']

PER_PACKAGE = 60          # cap per package, for diversity
MAX_BYTES = 1_450_000     # keep the committed file under ~1.5 MB
# Pairs per language (Python mainly); over budget, pairs are dropped from the language's largest package first.
LANG_BUDGET = {'py': 800, 'go': 160, 'rb': 160, 'php': 160, 'js': 160, 'pl': 160}
MIN_WORDS, MAX_WORDS = 3, 40
MIN_LINES, MAX_LINES = 3, 60
SEED = 'trove-retrieval-v1'

# ---------------------------------------------------------------------------------------------
# Packages


def read_packages(path):
    out = []
    for line in path.read_text().splitlines():
        line = line.split('#', 1)[0].strip()
        if not line:
            continue
        lang, pkg = line.split()
        out.append((lang, pkg))
    return out


def reserved_names():
    """Package names in the language-detector corpus lists, by kind: 'deb' (binary or source packages,
    also bare names of reserved-packages.txt) and 'npm'. `deb:x` / `debsrc:x` / `npm:x` prefixes are understood."""
    names = {'deb': set(), 'npm': set()}
    for p in RESERVED:
        if not p.exists():
            continue
        for line in p.read_text(errors='replace').splitlines():
            for tok in re.split(r'[\s,;|]+', line):
                tok = tok.strip().strip('"\'')
                kind = 'deb'
                m = re.match(r'^([a-z]+):(.+)$', tok)
                if m:
                    kind = 'npm' if m.group(1) == 'npm' else 'deb'
                    tok = m.group(2)
                if re.fullmatch(r'@?[a-z0-9][a-z0-9._+\-/]*', tok.lower() or ''):
                    names[kind].add(tok.lower())
    return names


def source_package(pkg):
    """The Debian source package of a binary package (apt-cache show), or the name itself."""
    out = subprocess.run(['apt-cache', 'show', '--no-all-versions', pkg], capture_output=True, text=True).stdout
    m = re.search(r'^Source:\s*(\S+)', out, re.M)
    return m.group(1) if m else pkg


def upstream_name(pkg):
    name = re.sub(r'^(python3|node|ruby|php)-', '', pkg)
    name = re.sub(r'^golang-github-[a-z0-9]+-', '', name)
    name = re.sub(r'-dev$', '', name)
    m = re.fullmatch(r'lib(.+)-perl', name)
    return m.group(1) if m else name


def check_reserved(packages):
    """Clashes of packages.txt with the corpus lists: the binary package, its source package, the
    python-/py prefixed forms, and (for JavaScript, against the npm entries) the upstream name."""
    names = reserved_names()
    clash = []
    if not any(p.exists() for p in RESERVED):
        return clash, []
    for lang, pkg in packages:
        src = source_package(pkg)
        up = upstream_name(pkg)
        deb_forms = {pkg, src, 'python-' + up if lang == 'py' else pkg, 'python3-' + up if lang == 'py' else pkg}
        hit = [n for n in deb_forms if n.lower() in names['deb']]
        if lang == 'py':
            hit += [n for n in (up,) if n.lower() in names['deb'] and not n.startswith('python')]
        if lang == 'js':
            hit += [n for n in (up, src) if n.lower() in names['npm']]
        if hit:
            clash.append(f'{pkg} ({", ".join(sorted(set(hit)))})')
    return clash, [str(p) for p in RESERVED if p.exists()]


def fetch(pkg, cache, pin=None):
    """apt-get download + dpkg-deb -x, cached; at version `pin` when given. Returns (root dir, version)."""
    debs = cache / 'debs'
    debs.mkdir(parents=True, exist_ok=True)
    pattern = f'{pkg}_{pin.replace(":", "%3a")}_*.deb' if pin else f'{pkg}_*.deb'
    found = sorted(debs.glob(pattern))
    if not found:
        subprocess.run(['apt-get', 'download', f'{pkg}={pin}' if pin else pkg], cwd=debs, check=True,
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        found = sorted(debs.glob(pattern))
    deb = found[-1]
    version = deb.name[len(pkg) + 1:].rsplit('_', 1)[0].replace('%3a', ':')
    root = cache / 'x' / pkg
    if (root / '.done').exists() and (root / '.done').read_text() != version:
        shutil.rmtree(root)
    if not (root / '.done').exists():
        root.mkdir(parents=True, exist_ok=True)
        subprocess.run(['dpkg-deb', '-x', str(deb), str(root)], check=True)
        (root / '.done').write_text(version)
    return root, version


def read_versions(path):
    """package -> version pins of a TSV file (package, version), if it exists."""
    if path is None or not path.exists():
        return {}
    rows = (line.split('\t') for line in path.read_text().splitlines() if line and not line.startswith('#'))
    return {row[0]: row[1] for row in rows if len(row) >= 2}


def write_versions(path, versions):
    path.write_text('# package\tversion: the Debian packages this set was made from (fetched at these versions)\n'
                    + ''.join(f'{pkg}\t{versions[pkg]}\n' for pkg in sorted(versions)))


# ---------------------------------------------------------------------------------------------
# Query cleaning (shared by all languages)

STOP_SECTION = re.compile(
    r'^\s*(:param|:type|:return|:rtype|:raises|:arg|:keyword|:ivar|@param|@return|@throws|@see|@example|>>>|\.\. |'
    r'(args|arguments|parameters|params|returns?|yields?|raises|example|examples|note|notes|usage|see also|warning|attributes)\s*:?\s*$|'
    r'(args|arguments|parameters|params|returns|raises|example|examples)\s*:)',
    re.I,
)
BAD_START = re.compile(
    r'^(deprecated|todo|fixme|xxx|hack|see |same as|alias|internal|private|helper|implementation|overrid|override|'
    r'this is a|copyright|license|auto-?generated|generated|note:|@|#|\$|-|\*|=)',
    re.I,
)


def clean_query(doc):
    """First paragraph of a doc comment, without markup, parameter lists or examples; None if unusable."""
    if not doc:
        return None
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
    # markup: :func:`x` / `x` / ``x`` / *x* / {@link x} / <code>x</code> / C<x> (POD)
    text = re.sub(r':[a-z:]+:`~?([^`]+)`', r'\1', text)
    text = re.sub(r'`+([^`]+)`+', r'\1', text)
    text = re.sub(r'\{@\w+\s+([^}]+)\}', r'\1', text)
    text = re.sub(r'</?[a-zA-Z][^>]*>', '', text)
    text = re.sub(r'\b[CBIL]<<+\s*(.*?)\s*>>+', r'\1', text)
    text = re.sub(r'\b[CBIL]<([^<>]+)>', r'\1', text)
    text = re.sub(r'\*\*?([^*]+)\*\*?', r'\1', text)
    text = re.sub(r'\s+', ' ', text).strip()
    words = text.split()
    if len(words) > MAX_WORDS:
        # keep the first sentence when the paragraph is long
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


def norm_hash(code):
    """Hash of the body with whitespace and comment lines removed."""
    lines = []
    for line in code.splitlines():
        s = line.strip()
        if not s or s.startswith(('#', '//', '*', '/*')):
            continue
        lines.append(re.sub(r'\s+', '', s))
    return hashlib.sha1('\n'.join(lines).encode()).hexdigest()


def is_test_path(rel):
    parts = rel.lower().split('/')
    if any(p in ('test', 'tests', 'testing', 'testdata', 't', 'spec', 'specs', 'examples', 'example', 'benchmarks', 'fixtures', 'vendor') for p in parts[:-1]):
        return True
    name = parts[-1]
    return name.startswith('test_') or re.search(r'(_test|_spec|\.test|\.spec|conftest|tests?)\.\w+$', name) is not None


def line_count(code):
    return sum(1 for line in code.splitlines() if line.strip())


# ---------------------------------------------------------------------------------------------
# Python


def _trivial_py(body):
    stmts = list(body)
    if not stmts:
        return True
    if len(stmts) == 1:
        s = stmts[0]
        if isinstance(s, ast.Pass) or (isinstance(s, ast.Expr) and isinstance(getattr(s, 'value', None), ast.Constant)):
            return True
        if isinstance(s, ast.Raise):
            return True
        if isinstance(s, ast.Return) and (s.value is None or isinstance(s.value, (ast.Constant, ast.Name, ast.Attribute))):
            return True
    return False


def extract_python(path, rel):
    try:
        src = path.read_text(encoding='utf-8')
    except (UnicodeDecodeError, OSError):
        return
    try:
        tree = ast.parse(src)
    except (SyntaxError, ValueError):
        return
    lines = src.splitlines()
    for node in ast.walk(tree):
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            continue
        name = node.name
        if name.startswith('_') or name.lower().startswith('test'):
            continue
        doc = ast.get_docstring(node, clean=True)
        if not doc or not node.body:
            continue
        first = node.body[0]
        if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)):
            continue
        if _trivial_py(node.body[1:]):
            continue
        query = clean_query(doc)
        if not query:
            continue
        start, end = node.lineno, node.end_lineno
        ds0, ds1 = first.lineno, first.end_lineno
        after = lines[ds1:end]
        while after and not after[0].strip():
            after = after[1:]  # the blank line that followed the docstring
        kept = lines[start - 1:ds0 - 1] + after
        # A one-line def whose docstring shares the def line cannot be split cleanly.
        if ds0 == start:
            continue
        code = textwrap.dedent('\n'.join(kept)).rstrip() + '\n'
        n = line_count(code)
        if not (MIN_LINES <= n <= MAX_LINES):
            continue
        yield name, query, code


# ---------------------------------------------------------------------------------------------
# Brace / end languages (regex based, leading doc comments)


def _brace_block(lines, i):
    """Lines i.. up to the brace closing the first '{' at or after line i (strings/comments ignored roughly)."""
    depth = 0
    opened = False
    for j in range(i, min(len(lines), i + MAX_LINES + 5)):
        s = re.sub(r'"(\\.|[^"\\])*"|\'(\\.|[^\'\\])*\'|`[^`]*`', '""', lines[j])
        s = re.sub(r'//.*$', '', s)
        for ch in s:
            if ch == '{':
                depth += 1
                opened = True
            elif ch == '}':
                depth -= 1
                if opened and depth == 0:
                    return j
        if not opened and j > i + 3:
            return None
    return None


def _comment_above(lines, i, prefixes):
    """The contiguous line comments right above line i (prefix stripped), or None."""
    out = []
    j = i - 1
    while j >= 0:
        s = lines[j].strip()
        hit = next((p for p in prefixes if s.startswith(p)), None)
        if hit is None:
            break
        out.append(s[len(hit):].strip())
        j -= 1
    return '\n'.join(reversed(out)) if out else None


def _block_comment_above(lines, i):
    """A /** ... */ block ending right above line i (decorator/annotation lines skipped), text without stars."""
    j = i - 1
    while j >= 0 and (lines[j].strip().startswith('@') or lines[j].strip().startswith('#[')):
        j -= 1
    if j < 0 or not lines[j].strip().endswith('*/'):
        return None
    end = j
    while j >= 0 and '/**' not in lines[j]:
        j -= 1
        if end - j > 80:
            return None
    if j < 0:
        return None
    body = []
    for line in lines[j:end + 1]:
        s = line.strip()
        s = re.sub(r'^/\*\*+', '', s)
        s = re.sub(r'\*+/$', '', s)
        s = re.sub(r'^\*+ ?', '', s)
        body.append(s)
    return '\n'.join(body).strip()


GO_FUNC = re.compile(r'^func\s+(\([^)]*\)\s*)?([A-Z]\w*)\s*[\[(]')


def extract_go(path, rel):
    try:
        lines = path.read_text(encoding='utf-8').splitlines()
    except (UnicodeDecodeError, OSError):
        return
    for i, line in enumerate(lines):
        m = GO_FUNC.match(line)
        if not m:
            continue
        name = m.group(2)
        doc = _comment_above(lines, i, ['//'])
        if not doc or not doc.startswith(name + ' '):
            continue
        if 'Deprecated:' in doc:
            continue
        end = _brace_block(lines, i)
        if end is None:
            continue
        code = '\n'.join(lines[i:end + 1]) + '\n'
        # "Name does x" -> "does x": the query states what it does, as CodeSearchNet's Go docstrings do.
        rest = doc[len(name):].strip()
        yield name, clean_query(rest[:1].upper() + rest[1:]), code


RB_DEF = re.compile(r'^(\s*)def\s+(self\.)?([a-z]\w*[?!]?)')


def extract_ruby(path, rel):
    try:
        lines = path.read_text(encoding='utf-8').splitlines()
    except (UnicodeDecodeError, OSError):
        return
    for i, line in enumerate(lines):
        m = RB_DEF.match(line)
        if not m:
            continue
        indent, name = m.group(1), m.group(3)
        if re.search(r'\bdef\b.*\bend\s*$', line) or '=' in line.split(')')[-1] and not line.rstrip().endswith(')'):
            continue  # one-liners / endless defs
        doc = _comment_above(lines, i, ['#'])
        if not doc or doc.startswith(('@', ':')):
            continue
        end = None
        for j in range(i + 1, min(len(lines), i + MAX_LINES + 5)):
            if lines[j].startswith(indent + 'end') and (len(lines[j]) == len(indent) + 3 or not lines[j][len(indent) + 3].isalnum()):
                end = j
                break
            if lines[j].strip() and not lines[j].startswith(indent + ' ') and not lines[j].startswith(indent + '\t') and not lines[j].startswith(indent + 'rescue') and not lines[j].startswith(indent + 'ensure'):
                break
        if end is None:
            continue
        code = textwrap.dedent('\n'.join(lines[i:end + 1])) + '\n'
        yield name, clean_query(doc), code


PHP_FUNC = re.compile(r'^\s*(?:(?:public|protected|private|static|final|abstract)\s+)*function\s+&?([a-zA-Z]\w*)\s*\(')


def extract_php(path, rel):
    try:
        lines = path.read_text(encoding='utf-8').splitlines()
    except (UnicodeDecodeError, OSError):
        return
    for i, line in enumerate(lines):
        m = PHP_FUNC.match(line)
        if not m or re.search(r'\b(private|abstract)\b', line):
            continue
        name = m.group(1)
        doc = _block_comment_above(lines, i)
        if not doc or re.match(r'^\{?@inheritdoc', doc, re.I):
            continue
        end = _brace_block(lines, i)
        if end is None:
            continue
        code = textwrap.dedent('\n'.join(lines[i:end + 1])) + '\n'
        yield name, clean_query(doc), code


JS_FUNC = [
    re.compile(r'^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?function\s*\*?\s*([a-zA-Z]\w*)\s*\('),
    re.compile(r'^\s*(?:exports\.|module\.exports\.|[A-Za-z_$][\w$]*\.prototype\.|[A-Za-z_$][\w$]*\.fn\.)([a-zA-Z]\w*)\s*=\s*(?:async\s+)?function\b'),
    re.compile(r'^\s*(?:export\s+)?(?:const|let|var)\s+([a-zA-Z]\w*)\s*=\s*(?:async\s+)?(?:function\b|\([^)]*\)\s*=>|[a-zA-Z]\w*\s*=>)'),
    # class / object-literal methods: `  name(args) {`, `  static async name(args) {`
    re.compile(r'^\s+(?:static\s+)?(?:async\s+)?\*?(?!(?:if|for|while|switch|catch|function|return|with|else|do|try)\b)([a-zA-Z]\w*)\s*\([^;]*\)\s*\{\s*$'),
]


def extract_js(path, rel):
    if rel.endswith('.min.js') or '/dist/' in rel and ('.umd.' in rel or '.min.' in rel):
        return
    try:
        lines = path.read_text(encoding='utf-8').splitlines()
    except (UnicodeDecodeError, OSError):
        return
    if any(len(l) > 400 for l in lines[:50]):
        return  # bundled / minified
    for i, line in enumerate(lines):
        name = None
        for rx in JS_FUNC:
            m = rx.match(line)
            if m:
                name = m.group(1)
                break
        if not name or not line.rstrip().endswith('{'):
            continue
        doc = _block_comment_above(lines, i) or _comment_above(lines, i, ['//'])
        if not doc or doc.startswith(('eslint', 'istanbul', 'jshint', 'global ', '@ts-')):
            continue
        end = _brace_block(lines, i)
        if end is None:
            continue
        code = textwrap.dedent('\n'.join(lines[i:end + 1])) + '\n'
        yield name, clean_query(doc), code


PL_SUB = re.compile(r'^sub\s+([a-zA-Z]\w*)\s*(\{|#.*)?$')
POD_HEAD = re.compile(r'^=(?:head[234]|item)\s+(.*)$')


def _pod_docs(text):
    """name -> first text paragraph under a POD heading that documents exactly that one function."""
    docs = {}
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = POD_HEAD.match(line)
        if not m:
            continue
        head = re.sub(r'[CBIL]<+\s*([^<>]*?)\s*>+', r'\1', m.group(1)).strip()
        if head.startswith('*') or ',' in head or ' or ' in head:
            continue
        hm = re.fullmatch(r'(?:[$@%&]?\w+(?:::\w+)*\s*->\s*|\w+(?:::\w+)*::)?([a-zA-Z]\w*)\s*(\(.*\)|\{.*\}|\s+\S.*)?', head)
        if not hm or hm.group(1) in docs:
            continue
        para = []
        for line2 in lines[i + 1:i + 40]:
            if line2.startswith('='):
                break
            if not line2.strip():
                if para:
                    break
                continue
            if line2[0] in ' \t':  # verbatim (code example)
                if para:
                    break
                continue
            para.append(line2.strip())
        if para:
            docs[hm.group(1)] = '\n'.join(para)
    return docs


def extract_perl(path, rel):
    try:
        text = path.read_text(encoding='utf-8')
    except (UnicodeDecodeError, OSError):
        return
    pod = _pod_docs(text)
    sibling = path.with_suffix('.pod')
    if sibling.exists():
        try:
            pod.update({k: v for k, v in _pod_docs(sibling.read_text(encoding='utf-8')).items() if k not in pod})
        except (UnicodeDecodeError, OSError):
            pass
    lines = text.splitlines()
    for i, line in enumerate(lines):
        m = PL_SUB.match(line)
        if not m:
            continue
        name = m.group(1)
        doc = _comment_above(lines, i, ['#'])
        if doc:
            doc = '\n'.join(l for l in doc.splitlines() if not re.fullmatch(r'[#=\-* ]*', l))
        doc = doc or pod.get(name)
        if not doc:
            continue
        end = None
        for j in range(i + 1, min(len(lines), i + MAX_LINES + 5)):
            if lines[j].startswith('}'):
                end = j
                break
            if lines[j].startswith(('sub ', '=')):
                break
        if end is None:
            continue
        code = '\n'.join(lines[i:end + 1]) + '\n'
        yield name, clean_query(doc), code


EXTRACTORS = {
    'py': (('.py',), extract_python),
    'go': (('.go',), extract_go),
    'rb': (('.rb',), extract_ruby),
    'php': (('.php',), extract_php),
    'js': (('.js', '.mjs', '.cjs'), extract_js),
    'pl': (('.pm', '.pl'), extract_perl),  # POD of a sibling .pod file is read too
}


def candidates(lang, pkg, root):
    exts, fn = EXTRACTORS[lang]
    files = sorted(p for p in root.rglob('*') if p.is_file() and not p.is_symlink() and p.name.endswith(exts))
    for f in files:
        rel = str(f.relative_to(root))
        if is_test_path(rel) or '/doc/' in rel or rel.startswith('usr/share/doc'):
            continue
        for name, query, code in fn(f, rel):
            if not query or name.startswith('_') or name.lower().startswith('test'):
                continue
            n = line_count(code)
            if not (MIN_LINES <= n <= MAX_LINES):
                continue
            yield {'lang': lang, 'package': pkg, 'path': rel, 'symbol': name, 'query': query, 'code': code}


def stable_key(*parts):
    return hashlib.sha1(('\x00'.join((SEED,) + parts)).encode()).hexdigest()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--packages', type=Path, default=HERE / 'packages.txt')
    ap.add_argument('--cache', type=Path, default=DEFAULT_CACHE)
    ap.add_argument('--out', type=Path, default=DEFAULT_OUT)
    ap.add_argument('--per-package', type=int, default=PER_PACKAGE)
    ap.add_argument('--max-bytes', type=int, default=MAX_BYTES)
    ap.add_argument('--check', action='store_true', help='only check the package list against the reserved lists')
    ap.add_argument('--allow-reserved', action='store_true', help=argparse.SUPPRESS)
    ap.add_argument('--disjoint', type=Path, action='append', default=[],
                    help='another package list (e.g. packages.txt for a dev set) that must share no package')
    ap.add_argument('--jobs', type=int, default=1, help='packages fetched and unpacked in parallel first')
    ap.add_argument('--training', action='store_true',
                    help='a training set (ml/embedding): no language budgets, no size cap, skip packages that fail to download')
    ap.add_argument('--versions', type=Path, help='TSV of package versions to fetch, if the file exists')
    ap.add_argument('--record', type=Path, help='TSV written with the version of every package used')
    args = ap.parse_args()
    pins = read_versions(args.versions)
    if REPO in args.cache.resolve().parents or args.cache.resolve() == REPO:
        sys.exit('the cache must be outside the repository')

    packages = read_packages(args.packages)
    clash, checked = check_reserved(packages)
    print(f'reserved lists checked: {checked or "none present"}', file=sys.stderr)
    if clash:
        print(f'packages also used by the language-detector corpus: {" ".join(clash)}', file=sys.stderr)
        if not args.allow_reserved:
            sys.exit(2)
    for other in args.disjoint:
        shared = sorted({p for _, p in packages} & {p for _, p in read_packages(other)})
        if shared:
            print(f'packages also in {other}: {" ".join(shared)}', file=sys.stderr)
            sys.exit(2)
    if args.check:
        print(f'{len(packages)} packages, no clash' if not clash else 'clash', file=sys.stderr)
        return

    fetched = {}
    if args.jobs > 1 or args.training:
        from concurrent.futures import ThreadPoolExecutor

        def get(pkg):
            try:
                return pkg, fetch(pkg, args.cache, pins.get(pkg))
            except (subprocess.CalledProcessError, IndexError) as err:
                if not args.training:
                    raise
                print(f'skipped {pkg}: {err}', file=sys.stderr)
                return pkg, None

        with ThreadPoolExecutor(max(1, args.jobs)) as pool:
            fetched = dict(pool.map(get, [p for _, p in packages]))

    seen_hash, seen_query = set(), set()
    used = {}
    chosen = []
    report = []
    for lang, pkg in packages:
        if pkg in fetched and fetched[pkg] is None:
            continue
        root, version = fetched.get(pkg) or fetch(pkg, args.cache, pins.get(pkg))
        used[pkg] = version
        cands = list(candidates(lang, pkg, root))
        # duplicates within the package: first by path order; across packages: the earlier package wins.
        uniq = []
        for c in cands:
            h = norm_hash(c['code'])
            q = re.sub(r'\W+', ' ', c['query'].lower()).strip()
            if h in seen_hash or q in seen_query:
                continue
            seen_hash.add(h)
            seen_query.add(q)
            uniq.append(c)
        uniq.sort(key=lambda c: stable_key(c['path'], c['symbol'], c['query']))
        take = uniq[: args.per_package]
        for c in take:
            c['version'] = version
        chosen.extend(take)
        report.append((lang, pkg, version, len(cands), len(uniq), len(take)))
        print(f'{lang:3} {pkg:40} {version:24} candidates={len(cands):5} unique={len(uniq):5} taken={len(take)}', file=sys.stderr)

    # Language budgets, then the size cap: drop pairs one at a time from the largest package, by stable order.
    def drop_one(pool):
        counts = {}
        for c in pool:
            counts[c['package']] = counts.get(c['package'], 0) + 1
        big = max(counts, key=lambda p: (counts[p], p))
        victims = [c for c in pool if c['package'] == big]
        chosen.remove(max(victims, key=lambda c: stable_key(c['path'], c['symbol'], c['query'])))

    for lang, budget in ({} if args.training else LANG_BUDGET).items():
        while sum(1 for c in chosen if c['lang'] == lang) > budget:
            drop_one([c for c in chosen if c['lang'] == lang])

    # Size cap: drop pairs round-robin from the largest packages, by stable order, until under max-bytes.
    def line(c, i):
        return json.dumps({'id': f'{c["lang"]}-{i:05d}', 'lang': c['lang'], 'package': c['package'], 'path': c['path'],
                           'symbol': c['symbol'], 'query': c['query'], 'code': c['code']}, ensure_ascii=False) + '\n'

    chosen.sort(key=lambda c: (c['lang'], c['package'], c['path'], c['symbol'], c['query']))
    while not args.training:
        total = sum(len(line(c, 0).encode()) for c in chosen)
        if total <= args.max_bytes:
            break
        drop_one(chosen)

    args.out.parent.mkdir(parents=True, exist_ok=True)
    per_lang = {}
    with open(args.out, 'w', encoding='utf-8') as fh:
        for i, c in enumerate(chosen):
            per_lang[c['lang']] = per_lang.get(c['lang'], 0) + 1
            fh.write(line(c, i))
    pkgs = {c['package'] for c in chosen}
    print(f'wrote {len(chosen)} pairs from {len(pkgs)} packages to {args.out} ({os.path.getsize(args.out)} bytes); per language: {per_lang}', file=sys.stderr)
    if args.record:
        args.record.parent.mkdir(parents=True, exist_ok=True)
        write_versions(args.record, used)


if __name__ == '__main__':
    main()
