"""Fit a lifelines model on the bundled Rossi recidivism data with show_progress=True; dump what the
fitter keeps (log_likelihood_, params_, ...) and, for the Cox fitters, the per-iteration values of the
Newton-Raphson loop, copied from its local variables by a sys.settrace line tracer.

usage: python run_lifelines.py {cox,cox_penalized,weibull_aft} OUT_JSON
"""
import inspect
import json
import sys
import time

from lifelines import CoxPHFitter, WeibullAFTFitter
from lifelines.datasets import load_rossi
from lifelines.fitters import coxph_fitter

kind, out = sys.argv[1], sys.argv[2]
rossi = load_rossi()

# ---- per-iteration capture for the Cox Newton-Raphson loop -------------------------------------------
# SemiParametricPHFitter._newton_raphson_for_efron_model prints, once per iteration,
#   "\rIteration %d: norm_delta = %.2e, step_size = %.4f, log_lik = %.5f, newton_decrement = %.2e,
#    seconds_since_start = %.1f" % (i, norm_delta, step_size, ll_, newton_decrement, time.time() - start)
# The tracer fires on the line right after that print ("if norm_delta < precision:"), where those locals
# hold exactly the values just printed (step_size is updated only later in the loop body), and copies them.
NR = coxph_fitter.SemiParametricPHFitter._newton_raphson_for_efron_model
src_lines, first = inspect.getsourcelines(NR)
CHECK_LINE = first + next(k for k, l in enumerate(src_lines) if "if norm_delta < precision:" in l)
NR_CODE = NR.__code__
iterations = []


def _local_tracer(frame, event, arg):
    if event == "line" and frame.f_lineno == CHECK_LINE:
        loc = frame.f_locals
        iterations.append({
            "iteration": int(loc["i"]),
            "norm_delta": float(loc["norm_delta"]),
            "step_size": float(loc["step_size"]),
            "log_lik": float(loc["ll_"]),
            "newton_decrement": float(loc["newton_decrement"]),
            # taken a few microseconds after the print's own time.time() - start
            "seconds_since_start_approx": time.time() - loc["start"],
        })
    return _local_tracer


def _global_tracer(frame, event, arg):
    if event == "call" and frame.f_code is NR_CODE:
        return _local_tracer
    return None


if kind == "cox":
    fitter = CoxPHFitter()
    fit_kwargs = dict(duration_col="week", event_col="arrest", show_progress=True)
elif kind == "cox_penalized":
    # L1-penalised (lasso) Cox
    fitter = CoxPHFitter(penalizer=0.01, l1_ratio=1.0)
    fit_kwargs = dict(duration_col="week", event_col="arrest", show_progress=True)
elif kind == "weibull_aft":
    fitter = WeibullAFTFitter()
    fit_kwargs = dict(duration_col="week", event_col="arrest", show_progress=True)
else:
    raise SystemExit("unknown kind " + kind)

# for the parametric (scipy.optimize.minimize) fitters: keep what minimize returns, by wrapping the name
# lifelines.fitters calls
import lifelines.fitters as _lf

_minimize = _lf.minimize
minimize_results = []


def _recording_minimize(*a, **kw):
    res = _minimize(*a, **kw)
    minimize_results.append(res)
    return res


_lf.minimize = _recording_minimize

sys.settrace(_global_tracer)
try:
    fitter.fit(rossi, **fit_kwargs)
finally:
    sys.settrace(None)
sys.stdout.flush()

record = {
    "fitter": type(fitter).__name__,
    "fit_kwargs": {k: v for k, v in fit_kwargs.items()},
    "penalizer": getattr(fitter, "penalizer", None),
    "l1_ratio": getattr(fitter, "l1_ratio", None),
    "log_likelihood_": float(fitter.log_likelihood_),
    "AIC_partial_" if kind.startswith("cox") else "AIC_":
        float(fitter.AIC_partial_ if kind.startswith("cox") else fitter.AIC_),
    "concordance_index_": float(fitter.concordance_index_),
    "params_": {str(k): float(v) for k, v in fitter.params_.items()},
    "_ll_null_": float(fitter._ll_null_) if hasattr(fitter, "_ll_null_") else None,
    "n_iterations_captured": len(iterations),
    "iterations": iterations,
}
if kind == "weibull_aft":
    # what scipy.optimize.minimize returned (captured by the wrapper above)
    record["scipy_minimize_results"] = [
        {k: (v.tolist() if hasattr(v, "tolist") else v) for k, v in dict(r).items() if k != "hess_inv"}
        for r in minimize_results]
with open(out, "w") as fh:
    json.dump(record, fh, indent=2, default=str)
