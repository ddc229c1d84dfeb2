"""Shared by the run scripts: synthetic data and dumping CatBoost's own record (get_evals_result) to JSON."""
import json
import os
import shutil

import numpy as np


def classification_data(n=6000, d=20, seed=0, noise=1.0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    w = rng.normal(size=d)
    logit = X @ w * 0.5 + np.sin(2 * X[:, 0]) - X[:, 1] * X[:, 2] + rng.normal(scale=noise, size=n)
    y = (logit > 0).astype(int)
    return X, y


def regression_data(n=4000, d=10, seed=1):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = 2.0 * X[:, 0] + np.sin(3 * X[:, 1]) + X[:, 2] * X[:, 3] + rng.normal(scale=0.5, size=n)
    return X, y


def dump_record(model, name, extra=None):
    """model.get_evals_result() (every iteration's metric values) plus best iteration/score, to <name>_evals_result.json."""
    out = {
        "evals_result": model.get_evals_result(),
        "best_iteration": model.get_best_iteration(),
        "best_score": model.get_best_score(),
        "tree_count": model.tree_count_,
        "params": {k: (v if isinstance(v, (int, float, str, bool, list, type(None))) else repr(v))
                   for k, v in model.get_all_params().items()},
    }
    if extra:
        out.update(extra)
    with open(f"{name}_evals_result.json", "w") as f:
        json.dump(out, f, indent=1)
