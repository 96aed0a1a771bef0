#!/usr/bin/env python3
"""Builds src/modules/intelligence/text/word-parts.json: the words developers join into identifiers.

A word counts when it is a part of a multi-part identifier (`get_line`, `getLine`, `LineReader`):
written that way, the parts are words as developers spell them. Counted over the sources this
Debian machine installs with its base system (the Python standard library, Perl's modules, C
headers), never over a package of the retrieval held-out or dev sets (checked by dpkg's owner of
every file, by binary and by source package name). `word-split.ts` uses the counts to find the
parts of an identifier written in one lowercase run (`valuestodict` -> values to dict).

English words are never split (`website`, `therefore`, `servers` are not web site, the ref ore, ser
vers): the file also lists the words of Debian's `wamerican` dictionary that could be cut into
counted words, and word-split.ts leaves those whole.

    apt-get install wamerican                            # /usr/share/dict/american-english
    python3 ml/word-parts/build.py                       # -> src/modules/intelligence/text/word-parts.json
        [--out FILE] [--sources ml/word-parts/sources.tsv]  # the packages read, with their installed versions
"""
import argparse
import collections
import glob
import json
import os
import re
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
ROOTS = ['/usr/lib/python3.11', '/usr/share/perl', '/usr/lib/x86_64-linux-gnu/perl-base', '/usr/lib/x86_64-linux-gnu/perl', '/usr/include']
SUFFIXES = ('.py', '.pm', '.pl', '.h', '.hpp')
IDENTIFIER = re.compile(r'[A-Za-z][A-Za-z0-9_]*')
CAMEL = re.compile(r'(?<=[a-z])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])|(?<=[A-Za-z])(?=[0-9])|(?<=[0-9])(?=[A-Za-z])')
# Two-letter words kept: the ones that join identifiers (`values_to_dict`, `is_state`, `get_id`).
SHORT = {'to', 'is', 'of', 'by', 'id', 'io', 'os', 'db', 'fs', 'fn', 'ok', 'up'}


def reserved_packages():
    names = set()
    for path in ('ml/retrieval/packages.txt', 'ml/retrieval/dev-packages.txt'):
        for line in open(os.path.join(ROOT, path)):
            fields = line.split()
            if len(fields) >= 2 and not line.startswith('#'):
                names.add(fields[1])
    return names


def installed():
    """Installed binary package -> (source package, version), from dpkg's status file."""
    packages = {}
    for stanza in open('/var/lib/dpkg/status').read().split('\n\n'):
        fields = dict(re.findall(r'^(Package|Source|Version): (\S+)', stanza, re.M))
        if 'Package' in fields:
            packages[fields['Package']] = (fields.get('Source', fields['Package']), fields.get('Version', '-'))
    return packages


def owners():
    """Installed file -> (binary package, source package), from dpkg's own lists."""
    source = {name: src for name, (src, _) in installed().items()}
    owner = {}
    for listing in glob.glob('/var/lib/dpkg/info/*.list'):
        package = os.path.basename(listing)[:-5].split(':')[0]
        for path in open(listing, errors='ignore'):
            owner[path.rstrip('\n')] = (package, source.get(package, package))
    return owner


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--min-count', type=int, default=50)
    parser.add_argument('--dictionary', default='/usr/share/dict/american-english')
    parser.add_argument('--out', default=os.path.join(ROOT, 'src/modules/intelligence/text/word-parts.json'))
    parser.add_argument('--sources', help='write the packages read and their versions here (TSV)')
    args = parser.parse_args()
    reserved = reserved_packages()
    owner = owners()
    counts = collections.Counter()
    files = 0
    packages = set()
    for root in ROOTS:
        for directory, _, names in os.walk(root):
            for name in names:
                path = os.path.join(directory, name)
                if not name.endswith(SUFFIXES) or os.path.islink(path):
                    continue
                package = owner.get(path)
                if package is None or package[0] in reserved or package[1] in reserved:
                    continue
                try:
                    text = open(path, errors='ignore').read()
                except OSError:
                    continue
                files += 1
                packages.add(package[0])
                for identifier in IDENTIFIER.findall(text):
                    parts = [p.lower() for piece in identifier.split('_') for p in CAMEL.sub(' ', piece).split()]
                    if len(parts) < 2:
                        continue
                    for part in parts:
                        if part.isalpha() and (len(part) >= 3 or part in SHORT):
                            counts[part] += 1
    kept = {w: c for w, c in counts.most_common() if c >= args.min_count}
    english = sorted({w.strip() for w in open(args.dictionary) if re.fullmatch(r'[a-z]{5,}', w.strip())})
    whole = [w for w in english if w not in kept and segmentable(w, kept)]
    with open(args.out, 'w') as out:
        json.dump(
            {
                'source': f'parts of multi-part identifiers in {files} files of {len(packages)} Debian packages; English words of {os.path.basename(args.dictionary)} (ml/word-parts)',
                'counts': kept,
                'whole': whole,
            },
            out,
            separators=(',', ':'),
        )
        out.write('\n')
    if args.sources:
        versions = installed()
        dictionary = owner.get(os.path.realpath(args.dictionary), (None,))[0]
        with open(args.sources, 'w') as out:
            out.write('# package\tversion: the installed Debian packages whose files word-parts.json was counted over, and the dictionary\'s\n')
            for name in sorted(packages | ({dictionary} if dictionary else set())):
                out.write(f'{name}\t{versions[name][1]}\n')
    print(f'{files} files of {len(packages)} packages: {len(kept)} words (count >= {args.min_count}); {len(whole)} English words kept whole -> {args.out}', file=sys.stderr)


def segmentable(word, known):
    """Whether the word can be cut into two or more known words (any cut: word-split.ts picks among these)."""
    reach = [0] + [None] * len(word)  # fewest parts reaching each position
    for end in range(1, len(word) + 1):
        for start in range(max(0, end - 16), end):
            if reach[start] is not None and word[start:end] in known and (reach[end] is None or reach[start] + 1 > reach[end]):
                reach[end] = reach[start] + 1
    return reach[len(word)] is not None and reach[len(word)] >= 2


if __name__ == '__main__':
    main()
