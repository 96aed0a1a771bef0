"""Trains Trove's language classifier from the features ml/language/featurize.js wrote.

    /usr/bin/python3 ml/language/train.py <train prefix> <dev prefix> <out .bin> [alpha]

A linear model (scikit-learn's SGDClassifier, logistic loss, one-vs-rest, balanced classes)
over hashed token / line / character n-gram features. The weights are quantised to int8 per
class and written feature-major, the layout the detector reads
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
from scipy.sparse import csr_matrix
from sklearn.linear_model import SGDClassifier
from sklearn.svm import LinearSVC


def load(prefix):
    meta = json.load(open(prefix + ".meta.json"))
    indptr = np.fromfile(prefix + ".indptr", dtype=np.int64)
    indices = np.fromfile(prefix + ".indices", dtype=np.int32)
    data = np.fromfile(prefix + ".data", dtype=np.float32)
    labels = np.fromfile(prefix + ".labels", dtype=np.uint8)
    x = csr_matrix((data, indices, indptr), shape=(len(labels), 1 << meta["bits"]))
    return x, labels, meta


def main():
    train_prefix, dev_prefix, out = sys.argv[1:4]
    alpha = float(sys.argv[4]) if len(sys.argv) > 4 else 2e-6
    kind = sys.argv[5] if len(sys.argv) > 5 else "svm"
    x, y, meta = load(train_prefix)
    xd, yd, _ = load(dev_prefix)
    classes = meta["classes"]
    present = sorted(set(y.tolist()))
    t = time.time()
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
            "trained": {"windows": int(x.shape[0]), "perClass": meta["perClass"], "alpha": alpha, "model": kind},
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
