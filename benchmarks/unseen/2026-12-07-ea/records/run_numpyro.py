"""NumPyro on CPU: SVI (svi.run with progress_bar=True) and MCMC (NUTS) on synthetic data.

usage: python run_numpyro.py MODE OUTDIR
  MODE = svi_adam     : Bayesian logistic regression, AutoNormal guide, Adam(0.01), Trace_ELBO, 8000 steps
  MODE = svi_clipped  : same model, AutoDiagonalNormal guide, ClippedAdam(0.005), Trace_ELBO, 6000 steps
  MODE = mcmc_nuts    : same model, NUTS, 500 warmup + 500 samples, 1 chain, then print_summary()
Writes OUTDIR/<MODE>_losses.json and .csv (svi_result.losses, one per step, step = 1..num_steps as in the
bar), or for MCMC OUTDIR/mcmc_nuts_extra_fields.json (per-sample diagnostics from mcmc.get_extra_fields()).
"""
import csv
import json
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np

import numpyro
import numpyro.distributions as dist
from numpyro.infer import MCMC, NUTS, SVI, Trace_ELBO
from numpyro.infer.autoguide import AutoDiagonalNormal, AutoNormal


def make_data(n=20000, d=8, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d)).astype(np.float32)
    w = rng.normal(size=d)
    logits = X @ w + 0.3
    y = (rng.uniform(size=n) < 1 / (1 + np.exp(-logits))).astype(np.float32)
    return jnp.asarray(X), jnp.asarray(y)


def model(X, y=None):
    d = X.shape[1]
    w = numpyro.sample("w", dist.Normal(jnp.zeros(d), 1.0).to_event(1))
    b = numpyro.sample("b", dist.Normal(0.0, 5.0))
    with numpyro.plate("data", X.shape[0]):
        numpyro.sample("y", dist.Bernoulli(logits=X @ w + b), obs=y)


def dump_losses(losses, outdir, mode):
    losses = np.asarray(losses, dtype=np.float64).tolist()
    with open(os.path.join(outdir, f"{mode}_losses.json"), "w") as f:
        json.dump({"num_steps": len(losses), "losses": losses}, f)
    with open(os.path.join(outdir, f"{mode}_losses.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["step", "loss"])
        for i, v in enumerate(losses, start=1):
            w.writerow([i, repr(v)])


def main():
    mode, outdir = sys.argv[1], sys.argv[2]
    os.makedirs(outdir, exist_ok=True)
    if mode == "svi_adam":
        X, y = make_data()
        guide = AutoNormal(model)
        svi = SVI(model, guide, numpyro.optim.Adam(step_size=0.01), loss=Trace_ELBO())
        svi_result = svi.run(jax.random.PRNGKey(0), 8000, X, y)
        dump_losses(svi_result.losses, outdir, mode)
    elif mode == "svi_clipped":
        X, y = make_data()
        guide = AutoDiagonalNormal(model)
        svi = SVI(model, guide, numpyro.optim.ClippedAdam(step_size=0.005), loss=Trace_ELBO())
        svi_result = svi.run(jax.random.PRNGKey(1), 6000, X, y, progress_bar=True)
        dump_losses(svi_result.losses, outdir, mode)
    elif mode == "mcmc_nuts":
        X, y = make_data(n=2000)
        mcmc = MCMC(NUTS(model), num_warmup=500, num_samples=500, num_chains=1)
        mcmc.run(jax.random.PRNGKey(2), X, y, extra_fields=("num_steps", "accept_prob", "diverging", "adapt_state.step_size", "potential_energy"))
        mcmc.print_summary()
        ef = mcmc.get_extra_fields()
        with open(os.path.join(outdir, f"{mode}_extra_fields.json"), "w") as f:
            json.dump({k: np.asarray(v).tolist() for k, v in ef.items()}, f)
    else:
        raise SystemExit("unknown mode " + mode)


if __name__ == "__main__":
    main()
