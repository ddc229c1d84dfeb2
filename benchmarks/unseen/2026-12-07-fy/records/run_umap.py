"""Real CPU runs of umap-learn with verbose=True, as its users run it.

    python run_umap.py default      # UMAP(verbose=True).fit(digits)              (default n_epochs -> 500)
    python run_umap.py supervised   # UMAP(n_epochs=200, verbose=True).fit(X, y)  (supervised)
    python run_umap.py transform    # UMAP(n_epochs=150, verbose=True).fit(train); .transform(test)

The framework's own record of the run is written to records/<mode>_record.jsonl (never to the console):
a thin wrapper around umap.layouts' per-epoch SGD function records, for every epoch the layout optimizer runs,
the epoch index n that umap/layouts.py prints ("completed n / n_epochs epochs"), n_epochs, the learning rate
alpha that epoch used, whether verbose prints a line for it (n % int(n_epochs / 10) == 0, layouts.py:433), and
its wall time. The wrapper calls the original numba function unchanged. After the run the fitted model's own
attributes (embedding_, the a/b curve parameters, n_epochs) and the embedding's final values are dumped.
"""
import json
import sys
import time
from pathlib import Path

import numpy as np
from sklearn.datasets import load_digits

import umap
import umap.layouts as layouts
import umap.umap_ as umap_mod

MODE = sys.argv[1]
OUT = Path(__file__).resolve().parent
REC = open(OUT / f"{MODE}_record.jsonl", "w")
_state = {"phase": None, "run": 0, "n_epochs": None, "t0": None}

_orig_get_fn = layouts._get_optimize_layout_euclidean_single_epoch_fn
_orig_opt = umap_mod.optimize_layout_euclidean


def _get_fn(parallel=False):
    fn = _orig_get_fn(parallel)

    def recorded_epoch(*args):
        t = time.time()
        fn(*args)
        n, alpha = int(args[16]), float(args[12])
        ne = _state["n_epochs"]
        REC.write(json.dumps({
            "phase": _state["phase"], "optimize_run": _state["run"], "epoch": n, "n_epochs": ne,
            "alpha": alpha, "verbose_line_printed": bool(n % int(ne / 10) == 0),
            "epoch_wall_s": time.time() - t, "t_end_since_optimize_start_s": time.time() - _state["t0"],
        }) + "\n")
    return recorded_epoch


def _opt(*args, **kwargs):
    _state["run"] += 1
    _state["n_epochs"] = args[4]
    _state["t0"] = time.time()
    emb = _orig_opt(*args, **kwargs)
    REC.write(json.dumps({"phase": _state["phase"], "optimize_run": _state["run"], "end": True,
                          "n_epochs": args[4], "n_vertices": int(args[5]), "embedding_shape": list(emb.shape),
                          "initial_alpha": kwargs.get("initial_alpha", args[11] if len(args) > 11 else None)})
              + "\n")
    REC.flush()
    return emb


layouts._get_optimize_layout_euclidean_single_epoch_fn = _get_fn
umap_mod.optimize_layout_euclidean = _opt

X, y = load_digits(return_X_y=True)
summary = {"mode": MODE, "data": "sklearn load_digits", "X_shape": list(X.shape)}

if MODE == "default":
    _state["phase"] = "fit"
    reducer = umap.UMAP(verbose=True, random_state=42)
    reducer.fit(X)
    emb_test = None
elif MODE == "supervised":
    _state["phase"] = "fit"
    reducer = umap.UMAP(n_epochs=200, verbose=True, random_state=42)
    reducer.fit(X, y)
    emb_test = None
elif MODE == "transform":
    X_train, X_test = X[:1500], X[1500:]
    summary["X_train_shape"], summary["X_test_shape"] = list(X_train.shape), list(X_test.shape)
    _state["phase"] = "fit"
    reducer = umap.UMAP(n_epochs=150, verbose=True, random_state=42)
    reducer.fit(X_train)
    _state["phase"] = "transform"
    emb_test = reducer.transform(X_test)
else:
    raise SystemExit(f"unknown mode {MODE}")

REC.close()
np.save(OUT / f"{MODE}_embedding.npy", reducer.embedding_)
if emb_test is not None:
    np.save(OUT / f"{MODE}_transform_embedding.npy", emb_test)
summary.update({
    "umap_version": umap.__version__,
    "params": {k: repr(v) for k, v in reducer.get_params().items()},
    "n_epochs_param": reducer.n_epochs,
    "a": float(reducer._a), "b": float(reducer._b), "initial_alpha": float(reducer._initial_alpha),
    "embedding_shape": list(reducer.embedding_.shape),
    "embedding_first3": reducer.embedding_[:3].tolist(),
    "embedding_mean": reducer.embedding_.mean(0).tolist(),
    "embedding_min": reducer.embedding_.min(0).tolist(),
    "embedding_max": reducer.embedding_.max(0).tolist(),
})
if emb_test is not None:
    summary.update({"transform_shape": list(emb_test.shape), "transform_first3": emb_test[:3].tolist()})
(OUT / f"{MODE}_summary.json").write_text(json.dumps(summary, indent=1))
