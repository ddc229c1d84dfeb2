"""Bayesian linear regression on synthetic data, fitted with ADVI (pm.fit), as in PyMC's variational API quickstart.
Usage: python fit_advi_linreg.py METHOD N OUT_PREFIX [convergence]
Dumps approx.hist (the loss, negative ELBO, of every iteration) to OUT_PREFIX_hist.json."""
import json
import sys

import numpy as np
import pymc as pm

method = sys.argv[1]
n = int(sys.argv[2])
out = sys.argv[3]
use_cb = len(sys.argv) > 4 and sys.argv[4] == "convergence"

rng = np.random.default_rng(42)
N, K = 200, 3
X = rng.normal(size=(N, K))
true_beta = np.array([1.5, -2.0, 0.7])
y = 0.5 + X @ true_beta + rng.normal(scale=0.8, size=N)

with pm.Model() as model:
    alpha = pm.Normal("alpha", 0.0, 10.0)
    beta = pm.Normal("beta", 0.0, 10.0, shape=K)
    sigma = pm.HalfNormal("sigma", 2.0)
    mu = alpha + pm.math.dot(X, beta)
    pm.Normal("y", mu=mu, sigma=sigma, observed=y)

    callbacks = [pm.callbacks.CheckParametersConvergence(diff="absolute", tolerance=1e-2)] if use_cb else None
    approx = pm.fit(n=n, method=method, callbacks=callbacks, random_seed=1)

hist = [float(v) for v in approx.hist]
with open(f"{out}_hist.json", "w") as f:
    json.dump({"method": method, "n": n, "callbacks": "CheckParametersConvergence(diff='absolute', tolerance=1e-2)" if use_cb else None,
               "len": len(hist), "hist": hist}, f)
idata = approx.sample(1000, random_seed=2)
print("posterior means:", {k: np.round(idata.posterior[k].mean(("chain", "draw")).values, 3).tolist() for k in ["alpha", "beta", "sigma"]})
