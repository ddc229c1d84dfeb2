"""Ensemble-Pytorch (torchensemble) on a small synthetic 3-class set, as its quick start does:
set_logger(...) for the default console logger (and the log file it writes under ./logs/),
an ensemble of small MLPs, set_optimizer, fit(train_loader, epochs, log_interval, test_loader).

Modes:
  voting   : VotingClassifier(n_estimators=3), 3 epochs, log_interval=10
  bagging  : BaggingClassifier(n_estimators=2), 4 epochs, log_interval=10
  gboost   : GradientBoostingClassifier(n_estimators=3), 2 epochs, log_interval=10,
             set_logger(use_tb_logger=True): its TensorBoard scalars are the record

Record (voting/bagging): the criterion is wrapped (set_criterion(RecordingCE())): every call's loss value,
in call order, dumped to JSON. joblib runs the estimators one after another in this process (n_jobs=None),
so the call order is: epoch -> estimator -> batch.
Record (gboost): fit() uses its own internal nn.MSELoss (no set_criterion), so the record is the
TensorBoard scalars torchensemble itself writes (gradient_boosting/Est_i/Train_Loss at total_iters,
gradient_boosting/Validation_Acc at est_idx), read back afterwards by read_tb_scalars.py with
tensorboard's EventAccumulator.
"""
import argparse, glob, json, os

import torch
import torch.nn as nn
from torch.utils.data import TensorDataset, DataLoader

from torchensemble import VotingClassifier, BaggingClassifier, GradientBoostingClassifier
from torchensemble.utils.logging import set_logger


def make_data(n, seed):
    g = torch.Generator().manual_seed(seed)
    centers = torch.tensor([[2.0, 0.0, 0.0, 0.0], [0.0, 2.0, 0.0, 0.0], [0.0, 0.0, 2.0, 0.0]])
    y = torch.randint(0, 3, (n,), generator=g)
    x = centers[y] + 1.2 * torch.randn(n, 4, generator=g)
    x = torch.cat([x, torch.randn(n, 12, generator=g)], dim=1)
    return TensorDataset(x, y)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(nn.Linear(16, 32), nn.ReLU(), nn.Linear(32, 3))

    def forward(self, x):
        return self.net(x)


class RecordingCE(nn.CrossEntropyLoss):
    """CrossEntropyLoss that keeps every value it returns (the record)."""

    def __init__(self):
        super().__init__()
        self.values = []

    def forward(self, input, target):
        loss = super().forward(input, target)
        self.values.append(loss.item())
        return loss


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["voting", "bagging", "gboost"], required=True)
    ap.add_argument("--record", required=True)
    args = ap.parse_args()

    torch.manual_seed(0)
    train_loader = DataLoader(make_data(800, 1), batch_size=32, shuffle=True)
    test_loader = DataLoader(make_data(200, 2), batch_size=64)
    log_interval = 10

    if args.mode == "gboost":
        set_logger("gradient_boosting_synthetic_mlp", use_tb_logger=True)
        model = GradientBoostingClassifier(estimator=MLP, n_estimators=3, cuda=False)
        model.set_optimizer("Adam", lr=1e-3, weight_decay=5e-4)
        epochs = 2
        model.fit(train_loader, epochs=epochs, log_interval=log_interval, test_loader=test_loader)
    else:
        set_logger(f"{args.mode}_synthetic_mlp")
        if args.mode == "voting":
            model = VotingClassifier(estimator=MLP, n_estimators=3, cuda=False)
            epochs = 3
        else:
            model = BaggingClassifier(estimator=MLP, n_estimators=2, cuda=False)
            epochs = 4
        criterion = RecordingCE()
        model.set_criterion(criterion)
        model.set_optimizer("Adam", lr=1e-3, weight_decay=5e-4)
        model.fit(train_loader, epochs=epochs, log_interval=log_interval, test_loader=test_loader)

    nb = len(train_loader)
    n_est = model.n_estimators if args.mode != "gboost" else 3
    rec = {"mode": args.mode, "batches_per_epoch": nb, "epochs": epochs, "n_estimators": n_est,
           "log_interval": log_interval}
    if args.mode != "gboost":
        vals = criterion.values
        assert len(vals) == epochs * n_est * nb, (len(vals), epochs, n_est, nb)
        rec["source"] = "wrapped criterion (RecordingCE): loss.item() of every training batch, call order"
        rec["all_losses_call_order"] = vals
        rec["per_batch"] = [
            {"estimator": (k // nb) % n_est, "epoch": k // (nb * n_est), "batch": k % nb, "loss": v}
            for k, v in enumerate(vals)
        ]
        rec["logged_batches"] = [r for r in rec["per_batch"] if r["batch"] % log_interval == 0]
    else:
        # the TensorBoard scalars are read back by read_tb_scalars.py in a separate process afterwards,
        # so that tensorboard's own log messages do not enter this run's console log
        rec["source"] = "see tb_scalars_gradient_boosting.json (read_tb_scalars.py)"
    with open(args.record, "w") as f:
        json.dump(rec, f, indent=1)


if __name__ == "__main__":
    main()
