"""fastai on CPU: Learner.fit_one_cycle on synthetic data, a small MLP, as a script run in a terminal (the
console as fastprogress prints it outside a notebook). fastai's own record: the CSVLogger callback's history.csv
(one row per epoch, the same values the Recorder holds), copied to <name>.history.csv, and the Recorder's
per-batch smoothed losses (learn.recorder.losses) to <name>.losses.json.
"""

import argparse
import json
from pathlib import Path

import fastai.callback.schedule  # noqa: F401  (adds Learner.fit_one_cycle)
import torch
from fastai.callback.progress import CSVLogger
from fastai.data.core import DataLoaders
from fastai.data.load import DataLoader
from fastai.learner import Learner
from fastai.metrics import accuracy
from fastai.torch_core import set_seed
from torch import nn

torch.set_num_threads(1)


def blobs(n, seed):
    g = torch.Generator().manual_seed(seed)
    y = torch.randint(0, 4, (n,), generator=g)
    centres = torch.randn(4, 128, generator=torch.Generator().manual_seed(1)) * 0.12
    x = centres[y] + torch.randn(n, 128, generator=g)
    return list(zip(x, y, strict=True))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="fit_one_cycle")
    ap.add_argument("--epochs", type=int, default=5)
    args = ap.parse_args()
    here = Path(__file__).resolve().parent
    set_seed(0, reproducible=True)
    dls = DataLoaders(
        DataLoader(blobs(1600, 0), bs=32, shuffle=True, drop_last=True),
        DataLoader(blobs(256, 7), bs=64),
        device="cpu",
    )
    model = nn.Sequential(nn.Linear(128, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 4))
    history = here / f"{args.name}.history.csv"
    learn = Learner(
        dls, model, loss_func=nn.CrossEntropyLoss(), metrics=accuracy, cbs=CSVLogger(fname=str(history))
    )
    learn.fit_one_cycle(args.epochs, 3e-3)
    (here / f"{args.name}.losses.json").write_text(json.dumps([float(x) for x in learn.recorder.losses]))


if __name__ == "__main__":
    main()
