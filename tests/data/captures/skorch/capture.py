"""skorch 1.4 on CPU: NeuralNetClassifier.fit on synthetic data, as its docs set it up (a validation split,
EpochScoring of accuracy, a Checkpoint on the best valid loss). skorch prints its epoch table (PrintLog);
its own record is net.history, written with net.history.to_file() to <name>.history.json.
"""

import argparse
from pathlib import Path

import numpy as np
import torch
from skorch import NeuralNetClassifier
from skorch.callbacks import Checkpoint, EpochScoring, LRScheduler
from torch import nn

torch.set_num_threads(1)


class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(128, 512), nn.ReLU(), nn.Linear(512, 512), nn.ReLU(), nn.Linear(512, 4)
        )

    def forward(self, X):
        return self.net(X)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--name", default="fit")
    ap.add_argument("--cp-dir", default="/tmp/c43/skorch")
    args = ap.parse_args()
    here = Path(__file__).resolve().parent
    torch.manual_seed(0)
    rng = np.random.default_rng(0)
    y = rng.integers(0, 4, 2000)
    centres = np.random.default_rng(1).standard_normal((4, 128)) * 0.12
    X = (centres[y] + rng.standard_normal((2000, 128))).astype(np.float32)
    net = NeuralNetClassifier(
        MLP,
        criterion=nn.CrossEntropyLoss,
        optimizer=torch.optim.SGD,
        optimizer__momentum=0.9,
        lr=0.01,
        max_epochs=12,
        batch_size=32,
        callbacks=[
            EpochScoring("accuracy", name="train_acc", on_train=True),
            LRScheduler(policy="StepLR", step_size=5, gamma=0.5),
            Checkpoint(dirname=args.cp_dir, monitor="valid_loss_best"),
        ],
    )
    net.fit(X, y)
    net.history.to_file(str(here / f"{args.name}.history.json"))


if __name__ == "__main__":
    main()
