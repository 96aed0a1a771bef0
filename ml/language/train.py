"""Trains Trove's language classifier from the features ml/language/featurize.js wrote.

    /usr/bin/python3 ml/language/train.py <train prefix> <dev prefix> <out .bin> [alpha] [sgd|svm]
    python3 ml/language/train.py <train prefix> <dev prefix> <out .bin> <epochs> softmax [learning rate]

A linear model over hashed token / line / character n-gram features: scikit-learn's
SGDClassifier (logistic loss, one-vs-rest, balanced classes; `sgd`) or LinearSVC (`svm`), or one
softmax over all classes trained jointly with PyTorch (`softmax`: cross-entropy with balanced
class weights, SGD, the epoch with the best dev accuracy kept; needs torch, not sklearn; an
experiment that did not ship, ml/language/README.md section 3). The weights are quantised to
int8 per class and written feature-major, the layout the detector reads
(src/modules/intelligence/language/language-model.ts):

    b"TRVL" | uint32 header length | header JSON (utf-8, space-padded to a multiple of 4)
    | float32 scale[C] | float32 bias[C] | int8 weights[2^bits * C]

Needs Debian's python3-sklearn (run it with /usr/bin/python3). Prints dev accuracy per class.
"""
import json
import struct
import sys
import time

import numpy as np


class Csr:
    """The CSR matrix featurize.js writes (scipy's csr_matrix for the sklearn models)."""

    def __init__(self, prefix):
        self.meta = json.load(open(prefix + ".meta.json"))
        self.indptr = np.fromfile(prefix + ".indptr", dtype=np.int64)
        self.indices = np.fromfile(prefix + ".indices", dtype=np.int32)
        self.data = np.fromfile(prefix + ".data", dtype=np.float32)
        self.labels = np.fromfile(prefix + ".labels", dtype=np.uint8)
        self.shape = (len(self.labels), 1 << self.meta["bits"])

    def scipy(self):
        from scipy.sparse import csr_matrix

        return csr_matrix((self.data, self.indices, self.indptr), shape=self.shape)


class SoftmaxModel:
    """coef_ / intercept_ / classes_ as sklearn's, from a jointly trained softmax (PyTorch)."""

    def __init__(self, epochs, lr=100.0, batch=256, seed=7):
        self.epochs, self.lr, self.batch, self.seed = epochs, lr, batch, seed

    @staticmethod
    def _bags(x, rows):
        import torch

        starts, ends = x.indptr[rows], x.indptr[rows + 1]
        lengths = ends - starts
        offsets = np.concatenate([[0], np.cumsum(lengths)[:-1]])
        take = np.repeat(starts - offsets, lengths) + np.arange(lengths.sum())
        return (
            torch.from_numpy(x.indices[take].astype(np.int64)),
            torch.from_numpy(offsets.astype(np.int64)),
            torch.from_numpy(x.data[take]),
        )

    def _logits(self, x, rows):
        import torch

        with torch.no_grad():
            out = []
            for i in range(0, len(rows), 4096):
                idx, off, w = self._bags(x, rows[i : i + 4096])
                out.append(self.table(idx, off, per_sample_weights=w) + self.bias)
            return torch.cat(out).numpy()

    def predict(self, x):
        return self.classes_[self._logits(x, np.arange(x.shape[0])).argmax(1)]

    def fit(self, x, y, dev):
        import torch

        torch.manual_seed(self.seed)
        torch.set_num_threads(2)
        self.classes_ = np.array(sorted(set(y.tolist())))
        position = {c: i for i, c in enumerate(self.classes_)}
        target = torch.tensor([position[c] for c in y.tolist()])
        counts = np.bincount(target.numpy(), minlength=len(self.classes_))
        weight = torch.tensor(len(y) / (len(self.classes_) * counts), dtype=torch.float32)  # "balanced"
        self.table = torch.nn.EmbeddingBag(x.shape[1], len(self.classes_), mode="sum", sparse=True)
        torch.nn.init.zeros_(self.table.weight)
        self.bias = torch.nn.Parameter(torch.zeros(len(self.classes_)))
        # plain SGD (sparse gradients), lr / (1 + t / epoch): Adam's per-feature step sizes fit rare
        # features, and the model then learns the training packages (dev 90.9% after one epoch
        # against 92.6% for the one-vs-rest model)
        opt = torch.optim.SGD([self.table.weight, self.bias], lr=self.lr)
        per_epoch = (len(y) + self.batch - 1) // self.batch
        step = 0
        loss_fn = torch.nn.CrossEntropyLoss(weight=weight)
        rng = np.random.default_rng(self.seed)
        best = (-1.0, None, None, 0)
        for epoch in range(self.epochs):
            order = rng.permutation(len(y))
            total = 0.0
            for i in range(0, len(order), self.batch):
                rows = order[i : i + self.batch]
                idx, off, w = self._bags(x, rows)
                loss = loss_fn(self.table(idx, off, per_sample_weights=w) + self.bias, target[rows])
                opt.param_groups[0]["lr"] = self.lr / (1 + step / per_epoch)
                opt.zero_grad()
                loss.backward()
                opt.step()
                step += 1
                total += loss.item() * len(rows)
            accuracy = float(np.mean(self.predict(dev[0]) == dev[1]))
            print(f"  epoch {epoch + 1}: loss {total / len(y):.4f}, dev {accuracy * 100:.2f}%", flush=True)
            if accuracy > best[0]:
                best = (accuracy, self.table.weight.detach().clone(), self.bias.detach().clone(), epoch + 1)
        self.epoch = best[3]
        self.coef_ = best[1].numpy().T.copy()
        self.intercept_ = best[2].numpy()
        with torch.no_grad():
            self.table.weight.copy_(best[1])
            self.bias.copy_(best[2])
        return self


def main():
    train_prefix, dev_prefix, out = sys.argv[1:4]
    alpha = float(sys.argv[4]) if len(sys.argv) > 4 else 2e-6
    kind = sys.argv[5] if len(sys.argv) > 5 else "svm"
    train, dev = Csr(train_prefix), Csr(dev_prefix)
    meta, y, yd = train.meta, train.labels, dev.labels
    classes = meta["classes"]
    present = sorted(set(y.tolist()))
    t = time.time()
    if kind == "softmax":
        # alpha is the number of epochs here
        x, xd = train, dev
        lr = float(sys.argv[6]) if len(sys.argv) > 6 else 100.0
        model = SoftmaxModel(int(alpha), lr=lr).fit(x, y, (xd, yd))
    else:
        from sklearn.linear_model import SGDClassifier
        from sklearn.svm import LinearSVC

        x, xd = train.scipy(), dev.scipy()
        if kind == "svm":
            # alpha is C here
            model = LinearSVC(C=alpha, class_weight="balanced", tol=1e-3, max_iter=2000, random_state=7)
        else:
            model = SGDClassifier(loss="log_loss", alpha=alpha, max_iter=12, tol=1e-3, class_weight="balanced", n_jobs=2, random_state=7)
        model.fit(x, y)
    print(f"trained on {x.shape[0]} windows in {time.time() - t:.0f} s (alpha {alpha})")
    pred = model.predict(xd)
    print(f"dev accuracy {np.mean(pred == yd) * 100:.2f}% on {len(yd)} windows")
    for c in sorted(set(yd.tolist())):
        m = yd == c
        wrong = {}
        for p in pred[m]:
            if p != c:
                wrong[classes[p]] = wrong.get(classes[p], 0) + 1
        top = ", ".join(f"{k}x{v}" for k, v in sorted(wrong.items(), key=lambda kv: -kv[1])[:4])
        print(f"  {classes[c]:<11} {np.mean(pred[m] == c) * 100:5.1f}%  n={m.sum():<4} {top}")

    # Full class list: classes absent from training get zero weights and a very low bias.
    n_classes = len(classes)
    buckets = 1 << meta["bits"]
    coef = np.zeros((n_classes, buckets), dtype=np.float32)
    bias = np.full(n_classes, -30.0, dtype=np.float32)
    for row, c in enumerate(model.classes_):
        coef[c] = model.coef_[row]
        bias[c] = model.intercept_[row]
    scale = np.maximum(np.abs(coef).max(axis=1), 1e-9) / 127.0
    q = np.clip(np.rint(coef / scale[:, None]), -127, 127).astype(np.int8)
    header = json.dumps(
        {
            "format": 1,
            "featureVersion": meta.get("featureVersion", 1),
            "bits": meta["bits"],
            "classes": classes,
            "trained": {"windows": int(x.shape[0]), "perClass": meta["perClass"], "alpha": alpha, "model": kind, **({"epoch": model.epoch} if kind == "softmax" else {})},
        }
    ).encode()
    header += b" " * ((-len(header)) % 4)
    with open(out, "wb") as f:
        f.write(b"TRVL")
        f.write(struct.pack("<I", len(header)))
        f.write(header)
        f.write(scale.astype("<f4").tobytes())
        f.write(bias.astype("<f4").tobytes())
        f.write(np.ascontiguousarray(q.T).tobytes())  # feature-major: weights[bucket * C + class]
    print(f"wrote {out}: {n_classes} classes, 2^{meta['bits']} buckets, present in training: {len(present)}")


if __name__ == "__main__":
    main()
