#!/usr/bin/env python3
"""Measure query expansion on held-out TRAINING-corpus pairs (10% of packages, split by package hash).

    /usr/bin/python3 ml/synonyms/learn.py --holdout --out $ML_CACHE/code-synonyms.holdout.json
    /usr/bin/python3 ml/synonyms/evaluate.py --table $ML_CACHE/code-synonyms.holdout.json

The held-out pairs are cut into pools of 500 (deterministic order); in each pool every query ranks the
500 functions by BM25 (k1 1.2, b 0.75, idf over the pool) over contentTerms, once with its own terms
only and once with expandQueryTerms' expansion added (each expanded term weighted weight * 0.5).
Reports MRR and recall@1/3/10, averaged over all queries of all pools.
"""
import argparse
import os
import hashlib
import json
import math
from collections import Counter

from learn import holdout_package

POOL = 500


def expand(table, terms, mx=3):
    """Same as expandQueryTerms in code-synonyms.ts."""
    have = set(terms)
    best = {}
    for q in dict.fromkeys(terms):
        for c, w in table.get(q, [])[:mx]:
            if c in have:
                continue
            if c not in best or w > best[c][0]:
                best[c] = (w, q)
    return sorted(((c, w, q) for c, (w, q) in best.items()), key=lambda x: (-x[1], x[0]))


def bm25_rank(pool_docs, qweights, gold):
    N = len(pool_docs)
    df = Counter()
    for d in pool_docs:
        df.update(d.keys())
    avg = sum(sum(d.values()) for d in pool_docs) / N
    k1, b = 1.2, 0.75
    idf = {t: math.log(1 + (N - df[t] + 0.5) / (df[t] + 0.5)) for t in qweights if df[t]}
    scores = []
    for d in pool_docs:
        L = sum(d.values())
        s = 0.0
        for t, w in qweights.items():
            f = d.get(t)
            if f:
                s += w * idf[t] * f * (k1 + 1) / (f + k1 * (1 - b + b * L / avg))
        scores.append(s)
    g = scores[gold]
    # rank = 1 + number strictly better + ties broken pessimistically-half
    better = sum(1 for s in scores if s > g)
    ties = sum(1 for s in scores if s == g) - 1
    return 1 + better + ties / 2


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--terms', default=os.path.join(os.environ.get('ML_CACHE') or os.path.expanduser('~/.cache/trove-ml'), 'synonyms', 'terms.jsonl'))
    ap.add_argument('--table', required=True)
    ap.add_argument('--max', type=int, default=3)
    ap.add_argument('--factor', type=float, default=0.5)
    ap.add_argument('--pools', type=int, default=0, help='evaluate only the first N pools (0 = all)')
    args = ap.parse_args()
    table = json.load(open(args.table))['terms']
    rows = []
    for line in open(args.terms):
        r = json.loads(line)
        if holdout_package(r['p']) and r['q'] and r['c']:
            rows.append(r)
    rows.sort(key=lambda r: hashlib.sha1((r['p'] + ' '.join(r['q']) + ' '.join(r['c'][:20])).encode()).hexdigest())
    pools = [rows[i:i + POOL] for i in range(0, len(rows) - POOL + 1, POOL)]
    if args.pools:
        pools = pools[:args.pools]
    res = {'plain': [], 'expanded': []}
    mismatch = []  # query indexes where at most half of the query's terms occur in its own function
    expanded_queries = 0
    for pool in pools:
        docs = [Counter(r['c']) for r in pool]
        for i, r in enumerate(pool):
            base = {t: 1.0 for t in r['q']}
            if sum(1 for t in base if t in docs[i]) <= len(base) / 2:
                mismatch.append(len(res['plain']))
            res['plain'].append(bm25_rank(docs, base, i))
            ex = dict(base)
            exp = expand(table, r['q'], args.max)
            if exp:
                expanded_queries += 1
            for c, w, _ in exp:
                ex[c] = max(ex.get(c, 0), w * args.factor)
            res['expanded'].append(bm25_rank(docs, ex, i))
    n = len(res['plain'])
    print(f'held-out packages: {len({r["p"] for r in rows})}, pairs: {len(rows)}, pools of {POOL}: {len(pools)}, queries: {n}, expanded: {expanded_queries}')
    for k, ranks in res.items():
        mrr = sum(1 / r for r in ranks) / n
        rec = {c: sum(1 for r in ranks if r <= c) / n for c in (1, 3, 10)}
        print(f'{k:9s} MRR {mrr:.4f}  R@1 {rec[1]:.4f}  R@3 {rec[3]:.4f}  R@10 {rec[10]:.4f}')
    m = len(mismatch)
    print(f'vocabulary-mismatch subset (<= half of the query terms in the function): {m} queries')
    for k, ranks in res.items():
        sub = [ranks[j] for j in mismatch]
        mrr = sum(1 / r for r in sub) / m
        rec = {c: sum(1 for r in sub if r <= c) / m for c in (1, 3, 10)}
        print(f'{k:9s} MRR {mrr:.4f}  R@1 {rec[1]:.4f}  R@3 {rec[3]:.4f}  R@10 {rec[10]:.4f}')


if __name__ == '__main__':
    main()
