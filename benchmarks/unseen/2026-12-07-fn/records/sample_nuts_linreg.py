"""The same Bayesian linear regression, sampled with NUTS (pm.sample defaults: 4 chains requested, cores=min(4, cpus)).
Usage: python sample_nuts_linreg.py OUT_PREFIX
Dumps the sample_stats (per-draw, per-chain) and the arviz summary to OUT_PREFIX_sample_stats.json."""
import json
import sys

import arviz as az
import numpy as np
import pymc as pm

out = sys.argv[1]
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
    idata = pm.sample(random_seed=1)

ss = idata.sample_stats
rec = {
    "chains": int(ss.sizes["chain"]), "draws": int(ss.sizes["draw"]),
    "sampling_time_s": float(ss.attrs.get("sampling_time", float("nan"))),
    "tuning_steps": int(ss.attrs.get("tuning_steps", -1)),
    "divergences_per_chain": ss["diverging"].sum("draw").values.tolist(),
    "step_size_per_chain_last": ss["step_size"].isel(draw=-1).values.tolist(),
    "lp_per_chain_mean": ss["lp"].mean("draw").values.tolist(),
    "summary": json.loads(az.summary(idata).to_json(orient="index")),
}
with open(f"{out}_sample_stats.json", "w") as f:
    json.dump(rec, f, indent=1)
print(az.summary(idata))
