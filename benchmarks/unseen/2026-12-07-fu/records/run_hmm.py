"""Fit an hmmlearn model with verbose=True on synthetic data; dump model.monitor_ to JSON.

usage: python run_hmm.py {gaussian,gmm,categorical} OUT_JSON
"""
import json
import sys

import numpy as np
from hmmlearn import hmm

kind, out = sys.argv[1], sys.argv[2]
rng = np.random.RandomState(0)

if kind == "gaussian":
    # sample from a known 3-state Gaussian HMM, then fit a fresh model to it
    gen = hmm.GaussianHMM(n_components=3, covariance_type="full", random_state=1)
    gen.startprob_ = np.array([0.6, 0.3, 0.1])
    gen.transmat_ = np.array([[0.7, 0.2, 0.1], [0.3, 0.5, 0.2], [0.3, 0.3, 0.4]])
    gen.means_ = np.array([[0.0, 0.0], [3.0, -3.0], [5.0, 10.0]])
    gen.covars_ = np.tile(np.identity(2), (3, 1, 1))
    X, _ = gen.sample(500, random_state=rng)
    lengths = [500]
    model = hmm.GaussianHMM(n_components=3, covariance_type="full", n_iter=30, tol=1e-4,
                            verbose=True, random_state=7)
elif kind == "gmm":
    X = np.concatenate([rng.normal(0, 1, (200, 2)), rng.normal(4, 1.5, (200, 2)),
                        rng.normal(-3, 0.5, (200, 2))])
    lengths = [300, 300]
    model = hmm.GMMHMM(n_components=2, n_mix=2, covariance_type="diag", n_iter=25, tol=1e-6,
                       verbose=True, random_state=3)
elif kind == "categorical":
    gen = hmm.CategoricalHMM(n_components=2, random_state=5)
    gen.startprob_ = np.array([0.5, 0.5])
    gen.transmat_ = np.array([[0.9, 0.1], [0.2, 0.8]])
    gen.emissionprob_ = np.array([[0.6, 0.3, 0.1, 0.0], [0.05, 0.15, 0.3, 0.5]])
    X, _ = gen.sample(800, random_state=rng)
    lengths = [400, 400]
    model = hmm.CategoricalHMM(n_components=2, n_iter=20, tol=1e-9, verbose=True, random_state=11)
else:
    raise SystemExit("unknown kind " + kind)

model.fit(X, lengths)

mon = model.monitor_
hist = [float(v) for v in mon.history]
record = {
    "model": type(model).__name__,
    "monitor": {
        "class": type(mon).__name__,
        "tol": mon.tol,
        "n_iter": mon.n_iter,
        "verbose": mon.verbose,
        "iter": mon.iter,
        "converged": bool(mon.converged),
        "history": hist,
    },
    # per-iteration view derived from monitor_.history: the 1-based iteration the monitor prints
    # (iter + 1 at report time) and delta = history[i] - history[i-1] (NaN -> null at the first)
    "per_iteration": [
        {"iter": i + 1, "log_prob": h, "delta": (h - hist[i - 1]) if i else None}
        for i, h in enumerate(hist)
    ],
    "score_after_fit": float(model.score(X, lengths)),
}
with open(out, "w") as fh:
    json.dump(record, fh, indent=2)
