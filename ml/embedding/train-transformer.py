#!/usr/bin/env python3
"""Experiment: a small transformer bi-encoder for question -> code search, against the shipped bag of words.

    python3 ml/embedding/train-transformer.py $ML_CACHE/embedding/terms.jsonl \
        --dev $ML_CACHE/embedding/dev-terms.jsonl --minutes 40

Not shipped (nothing reads its output at run time); it answers one question for issue 23: does word order,
learnt from the same (docstring, function) pairs on this machine's CPU, rank better than the neural bag of
words of `train.py`? Same data, same split (validation packages: SHA-1 of the name 0 mod 20), same vocabulary
rule and the same measures (validation MRR over pools of 1,000; the retrieval dev set as one pool, which the
bag of words scores 0.526 on). Terms are Trove's `contentTerms` in text order (`ml/synonyms/tokenize.js`).

Model: term embeddings (dim 128) + learned positions + a side embedding (question / code), a 2-layer
transformer encoder (4 heads, feed-forward 256), mean pooling over the terms, normalised; in-batch negatives
(softmax over cosine with a learned temperature, both directions), Adam. Training stops after --minutes and
keeps the best epoch on validation.
"""
import argparse
import hashlib
import importlib.util
import math
import random
import time
from pathlib import Path

import torch

HERE = Path(__file__).resolve().parent
spec = importlib.util.spec_from_file_location('bow', HERE / 'train.py')
bow = importlib.util.module_from_spec(spec)
spec.loader.exec_module(bow)

PAD = 0


def sequences(rows, index, max_q, max_c):
    out = []
    for r in rows:
        q = [index[t] + 1 for t in r['q'] if t in index][:max_q]
        c = [index[t] + 1 for t in r['c'] if t in index][:max_c]
        if q and c:
            out.append((r['p'], q, c))
    return out


def pad(seqs):
    n = max(len(s) for s in seqs)
    ids = torch.zeros(len(seqs), n, dtype=torch.long)
    for i, s in enumerate(seqs):
        ids[i, :len(s)] = torch.tensor(s)
    return ids


class Encoder(torch.nn.Module):
    def __init__(self, vocab, dim, layers, heads, ff, max_len, dropout):
        super().__init__()
        self.tok = torch.nn.Embedding(vocab + 1, dim, padding_idx=PAD)
        self.pos = torch.nn.Embedding(max_len, dim)
        self.side = torch.nn.Embedding(2, dim)
        layer = torch.nn.TransformerEncoderLayer(dim, heads, ff, dropout, batch_first=True, norm_first=True)
        self.enc = torch.nn.TransformerEncoder(layer, layers, enable_nested_tensor=False)
        self.norm = torch.nn.LayerNorm(dim)
        self.logit_scale = torch.nn.Parameter(torch.tensor(math.log(20.0)))

    def forward(self, ids, side):
        mask = ids == PAD
        pos = torch.arange(ids.shape[1]).unsqueeze(0)
        x = self.tok(ids) + self.pos(pos) + self.side.weight[side]
        h = self.norm(self.enc(x, src_key_padding_mask=mask))
        keep = (~mask).unsqueeze(2).float()
        v = (h * keep).sum(1) / keep.sum(1).clamp(min=1)
        return torch.nn.functional.normalize(v, dim=1)


def embed(model, data, side):
    model.eval()
    out = []
    with torch.no_grad():
        for i in range(0, len(data), 256):
            out.append(model(pad([d[1 + side] for d in data[i:i + 256]]), side))
    model.train()
    return torch.cat(out)


def mrr(model, data, pool=1000):
    q, c = embed(model, data, 0), embed(model, data, 1)
    rr, r3, n = 0.0, 0, 0
    for s in range(0, len(data), pool):
        sim = q[s:s + pool] @ c[s:s + pool].T
        rank = (sim > sim.diag().unsqueeze(1)).sum(1)
        rr += sum(1.0 / (int(k) + 1) for k in rank if k < 10)
        r3 += int((rank < 3).sum())
        n += len(rank)
    return rr / n, r3 / n


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('terms')
    ap.add_argument('--dev', required=True)
    ap.add_argument('--dim', type=int, default=128)
    ap.add_argument('--layers', type=int, default=2)
    ap.add_argument('--heads', type=int, default=4)
    ap.add_argument('--ff', type=int, default=256)
    ap.add_argument('--max-q', type=int, default=32)
    ap.add_argument('--max-c', type=int, default=160)
    ap.add_argument('--batch', type=int, default=256)
    ap.add_argument('--lr', type=float, default=1e-3)
    ap.add_argument('--dropout', type=float, default=0.1)
    ap.add_argument('--min-df', type=int, default=5)
    ap.add_argument('--minutes', type=float, default=40)
    ap.add_argument('--threads', type=int, default=2)
    args = ap.parse_args()
    torch.manual_seed(bow.SEED)
    random.seed(bow.SEED)
    torch.set_num_threads(args.threads)

    rows = bow.read(args.terms)
    val_pk = {r['p'] for r in rows if int(hashlib.sha1(r['p'].encode()).hexdigest(), 16) % 20 == 0}
    train_rows = [r for r in rows if r['p'] not in val_pk]
    vocab = bow.build_vocab(train_rows, args.min_df, 10**9)
    index = {t: i for i, t in enumerate(vocab)}
    train = sequences(train_rows, index, args.max_q, args.max_c)
    val = sequences([r for r in rows if r['p'] in val_pk], index, args.max_q, args.max_c)
    random.Random(bow.SEED).shuffle(val)
    dev = sequences(bow.read(args.dev), index, args.max_q, args.max_c)
    print(f'{len(train)} train, {len(val)} validation, {len(dev)} dev pairs, vocabulary {len(vocab)}', flush=True)

    model = Encoder(len(vocab), args.dim, args.layers, args.heads, args.ff, max(args.max_q, args.max_c), args.dropout)
    opt = torch.optim.Adam(model.parameters(), lr=args.lr)
    start = time.time()
    best, best_state, best_epoch, epoch = -1.0, None, 0, 0
    while time.time() - start < args.minutes * 60:
        epoch += 1
        t0 = time.time()
        # Batches of similar code length (less padding), in random order.
        random.shuffle(train)
        chunks = [train[s:s + args.batch * 20] for s in range(0, len(train), args.batch * 20)]
        batches = []
        for ch in chunks:
            ch.sort(key=lambda d: len(d[2]))
            batches += [ch[s:s + args.batch] for s in range(0, len(ch) - args.batch + 1, args.batch)]
        random.shuffle(batches)
        total = 0.0
        for b in batches:
            q, c = model(pad([d[1] for d in b]), 0), model(pad([d[2] for d in b]), 1)
            logits = model.logit_scale.exp().clamp(max=100) * (q @ c.T)
            target = torch.arange(len(b))
            loss = (torch.nn.functional.cross_entropy(logits, target) + torch.nn.functional.cross_entropy(logits.T, target)) / 2
            opt.zero_grad()
            loss.backward()
            opt.step()
            total += float(loss) * len(b)
            if time.time() - start > args.minutes * 60:
                break
        v_mrr, v_r3 = mrr(model, val)
        print(f'epoch {epoch}: loss {total / len(train):.4f}, validation MRR {v_mrr:.4f} R@3 {v_r3:.4f}, {time.time() - t0:.0f} s', flush=True)
        if v_mrr > best:
            best, best_epoch = v_mrr, epoch
            best_state = {k: v.clone() for k, v in model.state_dict().items()}
    model.load_state_dict(best_state)
    d_mrr, d_r3 = mrr(model, dev, pool=len(dev))
    print(f'best epoch {best_epoch} (validation MRR {best:.4f}); dev ({len(dev)} pairs, one pool): MRR {d_mrr:.4f} R@3 {d_r3:.4f}', flush=True)


if __name__ == '__main__':
    main()
