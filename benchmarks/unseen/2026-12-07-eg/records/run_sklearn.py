"""Capture sklearn verbose training output; the estimator's own record goes to records/<mode>_record.json.

usage: python run_sklearn.py {sgd,gb,hgb} RECORD_DIR   (stdout+stderr redirected to the .log by the caller)
Nothing but the estimator itself prints to stdout.
"""
import json
import sys

import numpy as np
from sklearn.datasets import make_classification
from sklearn.preprocessing import StandardScaler

mode, outdir = sys.argv[1], sys.argv[2]
rec = {"mode": mode}


def sgd_replica(X, y01, alpha, max_iter, random_state):
    """Pure-numpy replay of sklearn/linear_model/_sgd_fast.pyx.tp _plain_sgd for hinge loss, l2 penalty,
    learning_rate='optimal', shuffle=True, dense X, no early stopping: recomputes each epoch's printed
    'Avg. loss' (sumloss / train_count) and 'Objective'."""
    MAX_INT = np.iinfo(np.int32).max
    rs = np.random.RandomState(random_state)
    rs.randint(1, MAX_INT)          # linear_model/_base.py make_dataset: dataset seed
    seed = int(rs.randint(MAX_INT))  # _stochastic_gradient.py fit_binary: shuffle seed
    yy = np.where(y01 == 1, 1.0, -1.0)
    n, d = X.shape
    w = np.zeros(d)
    b = 0.0
    typw = np.sqrt(1.0 / np.sqrt(alpha))
    optimal_init = 1.0 / (typw * alpha)  # hinge gradient at (1, -typw) is -1 -> initial_eta0 = typw
    t = 1.0
    ind = list(range(n))
    s = [seed & 0xFFFFFFFF]

    def rand_r():
        if s[0] == 0:
            s[0] = 1
        v = s[0]
        v ^= (v << 13) & 0xFFFFFFFF
        v ^= v >> 17
        v ^= (v << 5) & 0xFFFFFFFF
        s[0] = v
        return v % (0x7FFFFFFF + 1)

    out = []
    count = 0
    for epoch in range(max_iter):
        s[0] = seed & 0xFFFFFFFF  # dataset.shuffle(seed) takes the seed by value: same draws every epoch
        for i in range(n - 1):
            j = i + rand_r() % (n - i)
            ind[i], ind[j] = ind[j], ind[i]
        sumloss = 0.0
        obj = 0.0
        for k in ind:
            p = float(X[k] @ w) + b
            eta = 1.0 / (alpha * (optimal_init + t - 1))
            z = p * yy[k]
            lv = 1.0 - z if z <= 1.0 else 0.0
            sumloss += lv
            obj += lv + alpha * 0.5 * float(w @ w)
            dloss = -yy[k] if z <= 1.0 else 0.0
            update = -eta * dloss
            w *= max(0.0, 1.0 - eta * alpha)
            if update != 0.0:
                w += update * X[k]
                b += update
            t += 1
            count += 1
        out.append({"epoch": epoch + 1, "norm": float(np.sqrt(w @ w)), "nnz": int(np.count_nonzero(w)),
                    "bias": b, "T": count, "avg_loss": sumloss / n, "objective": obj / n})
    return out


if mode == "sgd":
    from sklearn.linear_model import SGDClassifier
    X, y = make_classification(n_samples=2000, n_features=20, n_informative=5, flip_y=0.05, random_state=0)
    X = StandardScaler().fit_transform(X)
    clf = SGDClassifier(verbose=1, max_iter=20, tol=None, random_state=0)
    clf.fit(X, y)
    rec["params"] = {k: v for k, v in clf.get_params().items() if isinstance(v, (int, float, str, type(None)))}
    rec["n_iter_"] = int(clf.n_iter_)
    rec["t_"] = float(clf.t_)
    rec["coef_norm"] = float(np.linalg.norm(clf.coef_))
    rec["coef_nnz"] = int(np.count_nonzero(clf.coef_))
    rec["intercept_"] = float(clf.intercept_[0])
    rec["final_train_hinge_loss_of_fitted_model"] = float(np.mean(np.maximum(0, 1 - np.where(y == 1, 1, -1) * clf.decision_function(X))))
    rec["replica_per_epoch"] = sgd_replica(X, y, clf.alpha, clf.max_iter, 0)
elif mode == "gb":
    from sklearn.ensemble import GradientBoostingClassifier
    from sklearn.metrics import log_loss
    X, y = make_classification(n_samples=2000, n_features=20, n_informative=5, random_state=1)
    clf = GradientBoostingClassifier(n_estimators=100, max_depth=3, verbose=1, random_state=0)
    clf.fit(X, y)
    rec["n_estimators_"] = int(clf.n_estimators_)
    rec["train_score_"] = [float(v) for v in clf.train_score_]
    # recomputation: 2 * mean log loss (binomial deviance) after each stage
    rec["recomputed_2x_log_loss"] = [2 * float(log_loss(y, p)) for p in clf.staged_predict_proba(X)]
elif mode == "hgb":
    from sklearn.ensemble import HistGradientBoostingClassifier
    from sklearn.metrics import log_loss
    from sklearn.model_selection import train_test_split
    X, y = make_classification(n_samples=5000, n_features=20, n_informative=6, flip_y=0.05, random_state=2)
    clf = HistGradientBoostingClassifier(max_iter=30, learning_rate=0.1, early_stopping=True,
                                         validation_fraction=0.1, verbose=2, random_state=0)
    clf.fit(X, y)
    rec["n_iter_"] = int(clf.n_iter_)
    rec["train_score_"] = [float(v) for v in clf.train_score_]
    rec["validation_score_"] = [float(v) for v in clf.validation_score_]
    # recomputation on the same internal split (gradient_boosting.py: train_test_split with self._random_seed)
    Xtr, Xva, ytr, yva = train_test_split(X, y, test_size=0.1, stratify=y, random_state=clf._random_seed)
    rec["recomputed_train_log_loss"] = [float(log_loss(ytr, p)) for p in clf.staged_predict_proba(Xtr)]
    rec["recomputed_val_log_loss"] = [float(log_loss(yva, p)) for p in clf.staged_predict_proba(Xva)]
    rec["n_leaves_per_iter"] = [int(p[0].get_n_leaf_nodes()) for p in clf._predictors]
    rec["max_depth_per_iter"] = [int(p[0].get_max_depth()) for p in clf._predictors]

with open(f"{outdir}/{mode}_record.json", "w") as f:
    json.dump(rec, f, indent=1)
