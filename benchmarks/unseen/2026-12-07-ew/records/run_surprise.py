"""Real CPU runs of Surprise (scikit-surprise) as its user guide shows them, on synthetic ratings.

usage: python run_surprise.py {svd_fit,svd_cv,knn_cv} RECORD_DIR

stdout/stderr: what Surprise prints (the log). RECORD_DIR gets the framework's own record:
  svd_fit: <which>.model.json (the fitted SVD's attributes + the returned accuracy values) and
           <which>.model_arrays.npz (pu, qi, bu, bi)
  svd_cv / knn_cv: <which>.cross_validate.json (the dict cross_validate returned) + the algo's params
"""
import json
import sys

import numpy as np
import pandas as pd

from surprise import SVD, Dataset, KNNBasic, Reader, accuracy
from surprise.model_selection import KFold, cross_validate, train_test_split


def synthetic_ratings(n_users=300, n_items=200, n_ratings=8000, seed=0):
    """Ratings 1..5 from a small latent-factor model plus noise (no download)."""
    rng = np.random.default_rng(seed)
    pu = rng.normal(0, 0.6, (n_users, 4))
    qi = rng.normal(0, 0.6, (n_items, 4))
    bu = rng.normal(0, 0.4, n_users)
    bi = rng.normal(0, 0.4, n_items)
    pairs = set()
    while len(pairs) < n_ratings:
        pairs.add((int(rng.integers(n_users)), int(rng.integers(n_items))))
    rows = []
    for u, i in sorted(pairs):
        r = 3.5 + bu[u] + bi[i] + pu[u] @ qi[i] + rng.normal(0, 0.5)
        rows.append((f"u{u}", f"i{i}", float(np.clip(np.rint(r), 1, 5))))
    return pd.DataFrame(rows, columns=["userID", "itemID", "rating"])


def tojson(o):
    if isinstance(o, np.ndarray):
        return o.tolist()
    if isinstance(o, (np.floating, np.integer)):
        return o.item()
    if isinstance(o, tuple):
        return list(o)
    raise TypeError(type(o))


def main():
    which, record_dir = sys.argv[1], sys.argv[2]
    df = synthetic_ratings()
    data = Dataset.load_from_df(df[["userID", "itemID", "rating"]], Reader(rating_scale=(1, 5)))

    if which == "svd_fit":
        trainset, testset = train_test_split(data, test_size=0.2, random_state=0)
        algo = SVD(n_factors=20, n_epochs=20, random_state=0, verbose=True)
        algo.fit(trainset)
        predictions = algo.test(testset)
        rmse = accuracy.rmse(predictions)  # prints "RMSE: x.xxxx"
        mae = accuracy.mae(predictions)  # prints "MAE:  x.xxxx"
        rec = {
            "algo": type(algo).__name__,
            "n_epochs": algo.n_epochs, "n_factors": algo.n_factors, "biased": algo.biased,
            "init_mean": algo.init_mean, "init_std_dev": algo.init_std_dev,
            "lr_bu": algo.lr_bu, "lr_bi": algo.lr_bi, "lr_pu": algo.lr_pu, "lr_qi": algo.lr_qi,
            "reg_bu": algo.reg_bu, "reg_bi": algo.reg_bi, "reg_pu": algo.reg_pu, "reg_qi": algo.reg_qi,
            "random_state": algo.random_state, "verbose": algo.verbose,
            "pu_shape": algo.pu.shape, "qi_shape": algo.qi.shape,
            "bu_shape": algo.bu.shape, "bi_shape": algo.bi.shape,
            "trainset": {"n_users": trainset.n_users, "n_items": trainset.n_items,
                         "n_ratings": trainset.n_ratings, "global_mean": trainset.global_mean},
            "n_test_predictions": len(predictions),
            "accuracy_rmse_returned": rmse, "accuracy_mae_returned": mae,
        }
        with open(f"{record_dir}/{which}.model.json", "w") as f:
            json.dump(rec, f, indent=1, default=tojson)
        np.savez(f"{record_dir}/{which}.model_arrays.npz", pu=algo.pu, qi=algo.qi, bu=algo.bu, bi=algo.bi)
        return

    if which == "svd_cv":
        algo = SVD(n_factors=20, n_epochs=10, random_state=0, verbose=True)
    elif which == "knn_cv":
        algo = KNNBasic(k=40, sim_options={"name": "msd", "user_based": True}, verbose=True)
    else:
        raise SystemExit(f"unknown: {which}")
    cv = KFold(n_splits=3, random_state=0, shuffle=True)
    res = cross_validate(algo, data, measures=["RMSE", "MAE"], cv=cv, verbose=True)
    rec = {"algo": type(algo).__name__, "n_splits": cv.n_splits,
           "cross_validate_returned": res}
    if which == "svd_cv":
        rec["n_epochs"] = algo.n_epochs
        rec["n_factors"] = algo.n_factors
    else:
        rec["k"] = algo.k
        rec["sim_options"] = algo.sim_options
    with open(f"{record_dir}/{which}.cross_validate.json", "w") as f:
        json.dump(rec, f, indent=1, default=tojson)


if __name__ == "__main__":
    main()
