"""DeepChem torch models on synthetic data (dc.data.NumpyDataset of random features), Python logging at INFO
so TorchModel.fit prints its 'Ending global_step N: Average loss X' lines.  The framework's own record is
the all_losses= list argument of fit(); a step-recording callback gives the global step of each callback
call, so the steps of the logged losses can be checked.

usage: python -u dc_run.py MODE RECORD.json
  MODE = classifier : MultitaskClassifier, 1000 samples / batch 50 = 20 steps per epoch, 10 epochs, log_frequency=10
  MODE = validation : MultitaskRegressor, 640 train + 160 valid samples / batch 40 = 16 steps per epoch, 10 epochs,
                      log_frequency=8,
                      ValidationCallback(interval=40) with save_dir (best checkpoint)
  MODE = twofits    : MultitaskClassifier with ExponentialDecay lr, 520 samples / batch 50 (11 steps per epoch),
                      fit(nb_epoch=8) called twice with the same all_losses list, log_frequency=10
"""
import json
import logging
import sys
import tempfile

import numpy as np

import deepchem as dc

logging.basicConfig(level=logging.INFO)


class StepRecorder:
    """fit(callbacks=...) callback: called as c(model, current_step) after every optimizer step."""

    def __init__(self):
        self.steps = []

    def __call__(self, model, step):
        self.steps.append(int(step))


def main():
    mode, record_path = sys.argv[1], sys.argv[2]
    rng = np.random.RandomState(123)
    torch_seed = 123
    import torch
    torch.manual_seed(torch_seed)
    record = {"mode": mode, "fits": []}
    all_losses = []
    rec = StepRecorder()

    if mode == "classifier":
        n, d, t = 1000, 64, 3
        X = rng.randn(n, d).astype(np.float32)
        w_true = rng.randn(d, t)
        y = (X @ w_true + 0.5 * rng.randn(n, t) > 0).astype(np.float32)
        ds = dc.data.NumpyDataset(X, y)
        model = dc.models.MultitaskClassifier(n_tasks=t, n_features=d, layer_sizes=[128],
                                              dropouts=0.1, batch_size=50, learning_rate=0.001,
                                              log_frequency=10, model_dir=tempfile.mkdtemp())
        final = model.fit(ds, nb_epoch=10, all_losses=all_losses, callbacks=[rec])
        record["fits"].append({"nb_epoch": 10, "returned_loss": final,
                               "global_step_after": int(model.get_global_step())})
        metric = dc.metrics.Metric(dc.metrics.roc_auc_score, np.mean)
        print("train ROC-AUC:", model.evaluate(ds, [metric]))
        record["log_frequency"] = 10
    elif mode == "validation":
        n, d, t = 800, 32, 2
        X = rng.randn(n, d).astype(np.float32)
        w_true = rng.randn(d, t)
        y = (X @ w_true + 0.3 * rng.randn(n, t)).astype(np.float32)
        ds = dc.data.NumpyDataset(X[:640], y[:640])
        valid = dc.data.NumpyDataset(X[640:], y[640:])
        model = dc.models.MultitaskRegressor(n_tasks=t, n_features=d, layer_sizes=[64],
                                             dropouts=0.0, batch_size=40, learning_rate=0.003,
                                             log_frequency=8, model_dir=tempfile.mkdtemp())
        metrics = [dc.metrics.Metric(dc.metrics.mean_absolute_error), dc.metrics.Metric(dc.metrics.pearson_r2_score)]
        save_dir = tempfile.mkdtemp()
        vc = dc.models.ValidationCallback(valid, interval=40, metrics=metrics, save_dir=save_dir,
                                          save_metric=0, save_on_minimum=True)
        # record the callback's own scores: wrap model.evaluate as the callback calls it
        evals = []
        orig_eval = model.evaluate

        def evaluate(dataset, metrics, transformers=[], *a, **k):
            scores = orig_eval(dataset, metrics, transformers, *a, **k)
            if dataset is valid:
                evals.append({"step": int(model.get_global_step()), "scores": {kk: float(v) for kk, v in scores.items()}})
            return scores

        model.evaluate = evaluate
        final = model.fit(ds, nb_epoch=10, all_losses=all_losses, callbacks=[vc, rec])
        record["fits"].append({"nb_epoch": 10, "returned_loss": final,
                               "global_step_after": int(model.get_global_step())})
        record["validation"] = evals
        record["best_validation_score"] = float(vc.get_best_score())
        record["log_frequency"] = 8
    elif mode == "twofits":
        n, d, t = 520, 48, 2
        X = rng.randn(n, d).astype(np.float32)
        w_true = rng.randn(d, t)
        y = (X @ w_true > 0).astype(np.float32)
        ds = dc.data.NumpyDataset(X, y)
        lr = dc.models.optimizers.ExponentialDecay(initial_rate=0.002, decay_rate=0.9, decay_steps=20)
        model = dc.models.MultitaskClassifier(n_tasks=t, n_features=d, layer_sizes=[64, 32],
                                              batch_size=50, learning_rate=lr,
                                              log_frequency=10, model_dir=tempfile.mkdtemp())
        for _ in range(2):
            final = model.fit(ds, nb_epoch=8, all_losses=all_losses, callbacks=[rec])
            record["fits"].append({"nb_epoch": 8, "returned_loss": final,
                                   "global_step_after": int(model.get_global_step())})
        record["log_frequency"] = 10
    else:
        raise SystemExit("unknown mode")

    # Map each all_losses entry to its step: TorchModel.fit_generator appends when global_step % log_frequency == 0
    # and once more at the end of each fit() if batches remain un-averaged (torch_model.py).
    record["all_losses"] = all_losses
    record["callback_steps_count"] = len(rec.steps)
    record["callback_steps_first_last"] = [rec.steps[0], rec.steps[-1]]
    freq = record["log_frequency"]
    logged_steps = []
    fit_ends = [int(f["global_step_after"]) for f in record["fits"]]
    last_logged = 0
    for step in rec.steps:
        if step % freq == 0:
            logged_steps.append(step)
            last_logged = step
        if step in fit_ends and last_logged != step:
            logged_steps.append(step)  # the end-of-fit line for the partial window
            last_logged = step
    record["logged_steps"] = logged_steps
    record["losses_by_step"] = [{"step": st, "loss": l} for st, l in zip(logged_steps, all_losses)]
    assert len(logged_steps) == len(all_losses), (len(logged_steps), len(all_losses))
    record["callback_steps"] = rec.steps
    with open(record_path, "w") as fh:
        json.dump(record, fh, indent=1)


if __name__ == "__main__":
    main()
