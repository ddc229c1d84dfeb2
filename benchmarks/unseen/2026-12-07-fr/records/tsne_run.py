"""openTSNE on sklearn's shipped digits data, verbose=True, with a callback that
records (phase, iteration, KL divergence) every 50 iterations to JSONL.

usage: python tsne_run.py MODE RECORD.jsonl
  MODE = fit        : openTSNE.TSNE(verbose=True).fit(X)   (250 early-exaggeration + 500 iterations)
  MODE = advanced   : affinity/initialization/TSNEEmbedding API, optimize(250, exaggeration=12) then optimize(750)
  MODE = transform  : TSNE.fit on 1500 digits, then embedding.transform() of the other 297
"""
import json
import sys
import time

import numpy as np
from sklearn import datasets

import openTSNE
from openTSNE import TSNE, TSNEEmbedding, affinity, initialization


class JsonlRecorder:
    """openTSNE callback: called as callback(iteration, error, embedding)."""

    def __init__(self, path):
        self.f = open(path, "w")
        self.phase = -1

    def optimization_about_to_start(self):
        self.phase += 1
        self.f.write(json.dumps({"event": "optimization_about_to_start", "phase": self.phase,
                                 "wall_time": time.time()}) + "\n")
        self.f.flush()

    def __call__(self, iteration, error, embedding):
        self.f.write(json.dumps({"phase": self.phase, "iteration": int(iteration),
                                 "kl_divergence": float(error), "wall_time": time.time()}) + "\n")
        self.f.flush()
        return False  # never stop


def main():
    mode, record = sys.argv[1], sys.argv[2]
    digits = datasets.load_digits()
    X, y = digits.data, digits.target
    rec = JsonlRecorder(record)

    if mode == "fit":
        tsne = TSNE(perplexity=30, metric="euclidean", n_jobs=2, random_state=42, verbose=True,
                    callbacks=rec, callbacks_every_iters=50)
        emb = tsne.fit(X)
    elif mode == "advanced":
        aff = affinity.PerplexityBasedNN(X, perplexity=30, metric="euclidean", n_jobs=2,
                                         random_state=42, verbose=True)
        init = initialization.pca(X, random_state=42, verbose=True)
        emb = TSNEEmbedding(init, aff, negative_gradient_method="fft", n_jobs=2, verbose=True,
                            callbacks=rec, callbacks_every_iters=50)
        emb = emb.optimize(n_iter=250, exaggeration=12, momentum=0.5)
        emb = emb.optimize(n_iter=750, momentum=0.8)
    elif mode == "transform":
        rng = np.random.RandomState(0)
        idx = rng.permutation(len(X))
        tr, te = idx[:1500], idx[1500:]
        tsne = TSNE(perplexity=30, n_jobs=2, random_state=42, verbose=True,
                    callbacks=rec, callbacks_every_iters=50)
        emb = tsne.fit(X[tr])
        part = emb.transform(X[te])
        print("transformed shape", part.shape)
    else:
        raise SystemExit("unknown mode " + mode)
    print("final embedding shape", np.asarray(emb).shape, "KL divergence", emb.kl_divergence)
    rec.f.close()


if __name__ == "__main__":
    main()
