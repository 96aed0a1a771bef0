#!/usr/bin/env python3
"""Train Trove's offline code-search embedding and write src/modules/intelligence/text/code-embedding.bin.

    /usr/bin/python3 ml/embedding/train.py TERMS.jsonl [--dev DEV_TERMS.jsonl] [--out FILE] [--dim 256] [--epochs 10] [--dropout 0.2]

TERMS.jsonl: one training pair a line, {"p": package, "q": [query terms], "c": [code terms]}, both sides already
tokenised by Trove's own contentTerms (ml/synonyms/tokenize.js), so training and run time read text the same way.

Model (a neural bag of words, the CodeSearchNet baseline, with learned term weights): one table of term vectors
shared by both sides; a text's vector is the sum of its terms' vectors, each weighted by a learned per-term,
per-side weight (softplus), L2-normalised; the query side then goes through a learned square matrix (questions
and code say things differently) and is normalised again. Trained with in-batch negatives: each docstring must
pick its own function among the batch's (and each function its docstring), softmax over cosine / temperature.
5% of the packages are held back to pick the epoch (validation MRR over pools of 1,000); --dev reports the
retrieval dev set (ml/retrieval/dev-packages.txt, disjoint from every training package) at the end.

Output layout (little-endian):
  magic "TCE1", u32 header length, header JSON {dim, vocab: [terms], scale, ...}, padding to 4 bytes,
  f32 row scales [V], int8 vectors [V x dim], f32 query weights [V], f32 code weights [V], f32 query map [dim x dim]
Debian's python3-torch and python3-numpy (`apt-get install python3-torch`); run with /usr/bin/python3.
"""
import argparse
import collections
import hashlib
import json
import math
import random
import struct
import time
from pathlib import Path

import numpy as np
import torch

REPO = Path(__file__).resolve().parent.parent.parent
SEED = 20261127


def read(path):
    rows = []
    with open(path) as fh:
        for line in fh:
            if line.strip():
                r = json.loads(line)
                if r['q'] and r['c']:
                    rows.append(r)
    return rows


def build_vocab(rows, min_df, max_vocab):
    df = collections.Counter()
    pk = collections.defaultdict(set)
    for r in rows:
        for t in set(r['q']) | set(r['c']):
            df[t] += 1
            if len(pk[t]) < 2:
                pk[t].add(r['p'])
    terms = [t for t, n in df.items() if n >= min_df and len(pk[t]) >= 2]
    terms.sort(key=lambda t: (-df[t], t))
    return terms[:max_vocab]


def encode(rows, index, max_terms):
    """Each side as (unique term ids, counts), capped at max_terms distinct terms (first occurrences)."""
    out = []
    for r in rows:
        sides = []
        for side in ('q', 'c'):
            counts = collections.OrderedDict()
            for t in r[side]:
                i = index.get(t)
                if i is not None:
                    counts[i] = counts.get(i, 0) + 1
            items = list(counts.items())[:max_terms]
            sides.append(items)
        if sides[0] and sides[1]:
            out.append((r['p'], sides[0], sides[1]))
    return out


class Model(torch.nn.Module):
    def __init__(self, vocab, dim):
        super().__init__()
        self.emb = torch.nn.EmbeddingBag(vocab, dim, mode='sum')
        torch.nn.init.normal_(self.emb.weight, std=0.1)
        self.wq = torch.nn.Parameter(torch.zeros(vocab))
        self.wc = torch.nn.Parameter(torch.zeros(vocab))
        self.qmap = torch.nn.Parameter(torch.eye(dim))
        self.logit_scale = torch.nn.Parameter(torch.tensor(math.log(20.0)))

    def side(self, batch, weights, query):
        ids, offsets, counts = batch
        w = torch.nn.functional.softplus(weights[ids]) * torch.log1p(counts)
        v = self.emb(ids, offsets, per_sample_weights=w)
        v = torch.nn.functional.normalize(v, dim=1)
        if query:
            v = torch.nn.functional.normalize(v @ self.qmap, dim=1)
        return v

    def forward(self, qb, cb):
        return self.side(qb, self.wq, True), self.side(cb, self.wc, False)


def pack(sides):
    ids, offsets, counts = [], [], []
    for items in sides:
        offsets.append(len(ids))
        for i, n in items:
            ids.append(i)
            counts.append(float(n))
    return torch.tensor(ids, dtype=torch.long), torch.tensor(offsets, dtype=torch.long), torch.tensor(counts)


def drop(items, p):
    """A random share p of the terms left out (never all of them): the model must not lean on any one term."""
    if p <= 0 or len(items) < 2:
        return items
    kept = [x for x in items if random.random() >= p]
    return kept or [random.choice(items)]


def embed(model, data, query):
    model.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(data), 2048):
            chunk = data[i:i + 2048]
            b = pack([d[1] if query else d[2] for d in chunk])
            out.append(model.side(b, model.wq if query else model.wc, query))
    model.train()
    return torch.cat(out) if out else torch.zeros(0)


def mrr(model, data, pool=1000):
    """MRR@10 and R@3 with the set cut into pools of `pool` pairs (each query ranks its pool's functions)."""
    if not data:
        return 0.0, 0.0
    q, c = embed(model, data, True), embed(model, data, False)
    rr, r3, n = 0.0, 0, 0
    for s in range(0, len(data), pool):
        sim = q[s:s + pool] @ c[s:s + pool].T
        own = sim.diag().unsqueeze(1)
        rank = (sim > own).sum(1)
        rr += sum(1.0 / (int(k) + 1) for k in rank if k < 10)
        r3 += int((rank < 3).sum())
        n += len(rank)
    return rr / n, r3 / n


def write(path, model, vocab, meta):
    e = model.emb.weight.detach().numpy().astype(np.float32)
    scale = np.abs(e).max(axis=1) / 127.0
    scale[scale == 0] = 1.0
    q8 = np.clip(np.round(e / scale[:, None]), -127, 127).astype(np.int8)
    wq = torch.nn.functional.softplus(model.wq).detach().numpy().astype(np.float32)
    wc = torch.nn.functional.softplus(model.wc).detach().numpy().astype(np.float32)
    qmap = model.qmap.detach().numpy().astype(np.float32)
    header = json.dumps({**meta, 'dim': e.shape[1], 'vocab': vocab}, ensure_ascii=False).encode()
    header += b' ' * ((-(len(header) + 8)) % 4)
    with open(path, 'wb') as fh:
        fh.write(b'TCE1')
        fh.write(struct.pack('<I', len(header)))
        fh.write(header)
        fh.write(scale.astype('<f4').tobytes())
        fh.write(q8.tobytes())
        fh.write(wq.astype('<f4').tobytes())
        fh.write(wc.astype('<f4').tobytes())
        fh.write(qmap.astype('<f4').tobytes())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('terms')
    ap.add_argument('--dev', help='tokenised retrieval dev pairs, reported at the end')
    ap.add_argument('--out', default=str(REPO / 'src/modules/intelligence/text/code-embedding.bin'))
    ap.add_argument('--dim', type=int, default=256)
    ap.add_argument('--epochs', type=int, default=10)
    ap.add_argument('--batch', type=int, default=1024)
    ap.add_argument('--lr', type=float, default=2e-3)
    ap.add_argument('--min-df', type=int, default=5)
    ap.add_argument('--max-vocab', type=int, default=40000)
    ap.add_argument('--max-terms', type=int, default=200)
    ap.add_argument('--threads', type=int, default=2)
    ap.add_argument('--dropout', type=float, default=0.2, help='share of a training text\'s terms dropped at each step')
    args = ap.parse_args()
    torch.manual_seed(SEED)
    random.seed(SEED)
    torch.set_num_threads(args.threads)

    rows = read(args.terms)
    val_pk = {r['p'] for r in rows if int(hashlib.sha1(r['p'].encode()).hexdigest(), 16) % 20 == 0}
    train_rows = [r for r in rows if r['p'] not in val_pk]
    vocab = build_vocab(train_rows, args.min_df, args.max_vocab)
    index = {t: i for i, t in enumerate(vocab)}
    train = encode(train_rows, index, args.max_terms)
    val = encode([r for r in rows if r['p'] in val_pk], index, args.max_terms)
    random.Random(SEED).shuffle(val)
    dev = encode(read(args.dev), index, args.max_terms) if args.dev else []
    print(f'{len(rows)} pairs, {len(train)} train ({len({d[0] for d in train})} packages), {len(val)} validation '
          f'({len(val_pk)} packages), vocabulary {len(vocab)}', flush=True)

    model = Model(len(vocab), args.dim)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    best, best_state, best_epoch = -1.0, None, 0
    for epoch in range(1, args.epochs + 1):
        t0 = time.time()
        random.shuffle(train)
        total = 0.0
        for s in range(0, len(train) - args.batch + 1, args.batch):
            chunk = train[s:s + args.batch]
            q, c = model(pack([drop(d[1], args.dropout) for d in chunk]), pack([drop(d[2], args.dropout) for d in chunk]))
            logits = model.logit_scale.exp().clamp(max=100) * (q @ c.T)
            target = torch.arange(len(chunk))
            loss = (torch.nn.functional.cross_entropy(logits, target) + torch.nn.functional.cross_entropy(logits.T, target)) / 2
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss) * len(chunk)
        v_mrr, v_r3 = mrr(model, val)
        print(f'epoch {epoch}: loss {total / len(train):.4f}, validation MRR {v_mrr:.4f} R@3 {v_r3:.4f}, '
              f'{time.time() - t0:.0f} s', flush=True)
        if v_mrr > best:
            best, best_epoch = v_mrr, epoch
            best_state = {k: v.clone() for k, v in model.state_dict().items()}
    model.load_state_dict(best_state)
    meta = {'version': 1, 'pairs': len(train), 'epoch': best_epoch, 'validation_mrr': round(best, 4)}
    if dev:
        d_mrr, d_r3 = mrr(model, dev, pool=len(dev))
        meta['dev_mrr'] = round(d_mrr, 4)
        print(f'dev ({len(dev)} pairs, one pool): MRR {d_mrr:.4f} R@3 {d_r3:.4f}', flush=True)
    write(args.out, model, vocab, meta)
    print(f'best epoch {best_epoch}; wrote {args.out} ({Path(args.out).stat().st_size} bytes)')


if __name__ == '__main__':
    main()
