#!/usr/bin/env python3
"""Capture a real PyTorch Lightning console log with its DEFAULT progress bar (RichProgressBar, chosen by
Lightning whenever `rich` is installed), and the run's CSVLogger metrics.csv as its own record.

A tiny regression model (Linear 8 -> 16 -> 1) on deterministic random data, CPU, `log_every_n_steps=1`,
`self.log("train_loss", loss, prog_bar=True)` every step, a validation loss each epoch. Nothing but
Lightning prints, except one `# capture:` line with the versions.

Usage (see README.md beside this file):
    python capture_rich.py --out /tmp/rich_run > X.log 2>&1                 # a file, as a user redirects
    script -qfec "python capture_rich.py --out /tmp/rich_tty" X.tty.log     # a terminal (pty)
then copy /tmp/rich_run/csv/version_0/metrics.csv beside the log.
"""

from __future__ import annotations

import argparse
import platform
import sys

import torch
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)

import lightning  # noqa: E402
import rich  # noqa: E402, F401
from lightning.pytorch import LightningModule, Trainer, seed_everything  # noqa: E402
from lightning.pytorch.callbacks import RichProgressBar  # noqa: E402
from lightning.pytorch.loggers import CSVLogger  # noqa: E402


class Tiny(LightningModule):
    def __init__(self) -> None:
        super().__init__()
        self.net = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))

    def training_step(self, batch, batch_idx):
        x, y = batch
        loss = nn.functional.mse_loss(self.net(x), y)
        self.log("train_loss", loss, prog_bar=True)
        return loss

    def validation_step(self, batch, batch_idx):
        x, y = batch
        self.log("val_loss", nn.functional.mse_loss(self.net(x), y), prog_bar=True)

    def configure_optimizers(self):
        return torch.optim.SGD(self.parameters(), lr=0.05)


def data(n: int, seed: int) -> TensorDataset:
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    y = x[:, :2].sum(dim=1, keepdim=True) + 0.1 * torch.randn(n, 1, generator=g)
    return TensorDataset(x, y)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=2)
    ap.add_argument("--batches", type=int, default=10)
    ap.add_argument("--leave", action="store_true", help="RichProgressBar(leave=True): keep each epoch's finished bar")
    args = ap.parse_args()
    import rich as _rich

    print(
        f"# capture: python {platform.python_version()} lightning {lightning.__version__} torch {torch.__version__} "
        f"rich {_rich.__version__ if hasattr(_rich, '__version__') else 'installed'} stdout isatty {sys.stdout.isatty()}",
        flush=True,
    )
    seed_everything(1234)
    train = DataLoader(data(8 * args.batches, 1), batch_size=8)
    val = DataLoader(data(32, 2), batch_size=8)
    trainer = Trainer(
        accelerator="cpu",
        devices=1,
        max_epochs=args.epochs,
        log_every_n_steps=1,
        logger=CSVLogger(args.out, name="csv", version=0),
        enable_checkpointing=False,
        callbacks=[RichProgressBar(leave=True)] if args.leave else None,
    )
    trainer.fit(Tiny(), train, val)


if __name__ == "__main__":
    main()
