"""Ray Tune function trainable: a tiny torch linear-regression model (SGD, StepLR), one tune.report per iteration.

usage: python run_tune.py NAME LR [LR ...]      (stdout+stderr redirected to the .log by the caller)
The experiment folder is written under /tmp/cap-ray-results/NAME (each trial's progress.csv / result.json).
"""
import sys

import ray
import torch
from ray import tune

N_ITERS = 15
name = sys.argv[1]
lrs = [float(v) for v in sys.argv[2:]]


def train_fn(config):
    torch.manual_seed(0)
    X = torch.randn(512, 8)
    true_w = torch.arange(1.0, 9.0).unsqueeze(1)
    y = X @ true_w + 0.1 * torch.randn(512, 1)
    model = torch.nn.Linear(8, 1)
    opt = torch.optim.SGD(model.parameters(), lr=config["lr"])
    sched = torch.optim.lr_scheduler.StepLR(opt, step_size=5, gamma=0.5)
    for it in range(N_ITERS):
        lr_used = opt.param_groups[0]["lr"]
        # one iteration = 4 mini-batches of 128 samples
        total = 0.0
        for b in range(4):
            xb, yb = X[b * 128:(b + 1) * 128], y[b * 128:(b + 1) * 128]
            opt.zero_grad()
            loss = torch.nn.functional.mse_loss(model(xb), yb)
            loss.backward()
            opt.step()
            total += loss.item()
        sched.step()
        # loss: mean of this iteration's 4 mini-batch MSE losses; lr: the lr those 4 steps used
        tune.report({"loss": total / 4, "lr": lr_used})


if __name__ == "__main__":
    ray.init(address="local", num_cpus=2, _temp_dir="/tmp/cap-ray-tmp")
    param_space = {"lr": tune.grid_search(lrs)} if len(lrs) > 1 else {"lr": lrs[0]}
    tuner = tune.Tuner(
        train_fn,
        param_space=param_space,
        tune_config=tune.TuneConfig(metric="loss", mode="min"),
        # verbose=2: the default (1) prints no per-iteration result in this Ray version
        run_config=tune.RunConfig(name=name, storage_path="/tmp/cap-ray-results", verbose=2),
    )
    results = tuner.fit()
    print("Best config:", results.get_best_result().config)
