"""Catalyst 22.04 on CPU: dl.SupervisedRunner.train on synthetic data (a small MLP, 3 epochs, a valid loader),
as its README's minimal example sets it up, with verbose=True (tqdm bars per loader) and Catalyst's console and
CSV loggers. Catalyst's own record: the CSV logger's files (<logdir>/train.csv, valid.csv: one row per epoch),
copied to <name>.<loader>.csv; and every training batch's `runner.batch_metrics` (what the bar's postfix shows),
unrounded, written by a callback to <name>.batches.jsonl."""

import argparse
import json
import shutil
from pathlib import Path

import torch
from catalyst import dl
from catalyst.utils import set_global_seed
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)


def blobs(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    centres = torch.randn(4, 128, generator=torch.Generator().manual_seed(1)) * 0.12
    return TensorDataset(centres[y] + torch.randn(n, 128, generator=g), y)


class BatchRecord(dl.Callback):
    def __init__(self, path):
        super().__init__(order=dl.CallbackOrder.External)
        self.path = path
        path.unlink(missing_ok=True)

    def on_batch_end(self, runner):
        if runner.is_train_loader:
            row = dict(
                epoch=runner.epoch_step,
                batch=runner.loader_batch_step,
                **{k: float(v) for k, v in runner.batch_metrics.items()},
            )
            with self.path.open("a") as f:
                f.write(json.dumps(row) + "\n")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="supervised")
    ap.add_argument("--logdir", default="/tmp/c43/catalyst")
    args = ap.parse_args()
    here = Path(__file__).resolve().parent
    shutil.rmtree(args.logdir, ignore_errors=True)
    set_global_seed(0)
    loaders = {
        "train": DataLoader(blobs(800, 0), batch_size=16, shuffle=True),
        "valid": DataLoader(blobs(256, 7), batch_size=64),
    }
    model = nn.Sequential(nn.Linear(128, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 4))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.01, momentum=0.9)
    runner = dl.SupervisedRunner(
        input_key="features", output_key="logits", target_key="targets", loss_key="loss"
    )
    runner.train(
        model=model,
        criterion=nn.CrossEntropyLoss(),
        optimizer=optimizer,
        loaders=loaders,
        num_epochs=3,
        callbacks=[
            dl.AccuracyCallback(input_key="logits", target_key="targets", topk=(1,)),
            BatchRecord(here / f"{args.name}.batches.jsonl"),
        ],
        loggers={"console": dl.ConsoleLogger(), "csv": dl.CSVLogger(logdir=args.logdir)},
        logdir=args.logdir,
        valid_loader="valid",
        valid_metric="loss",
        minimize_valid_metric=True,
        verbose=True,
        seed=0,
    )
    for loader in loaders:
        shutil.copy(Path(args.logdir) / f"{loader}.csv", here / f"{args.name}.{loader}.csv")


if __name__ == "__main__":
    main()
