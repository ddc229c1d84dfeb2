#!/usr/bin/env python3
"""Capture a real Lightning Fabric training loop's console log, in the style of Lightning's own example
examples/fabric/language_model/train.py (Lightning-AI/pytorch-lightning 7f0c3436):

    line 47: fabric.print(f"epoch: {epoch} - iteration: {batch_idx} - loss {loss.item():.4f}")  (every N batches)
    line 52: fabric.print("Validating ...")
    line 33: fabric.print(f"val loss {val_loss.item():.4f}")

and beside it the run's own record: every step's loss sent with fabric.log_dict(..., step=global_step) to
Fabric's CSVLogger (lightning.fabric.loggers.CSVLogger), whose metrics.csv is the truth. A tiny regression
model on CPU, one optimizer step per batch (no accumulation); nothing else of ours is printed except one
`# capture:` line with the versions.

Usage (see README.md beside this file):
    python capture_fabric.py --out /tmp/fabric_run > X.log 2>&1
"""

from __future__ import annotations

import argparse
import platform

import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import DataLoader, TensorDataset

torch.set_num_threads(1)

import lightning as L  # noqa: E402
from lightning.fabric.loggers import CSVLogger  # noqa: E402


def data(n: int, seed: int) -> TensorDataset:
    g = torch.Generator().manual_seed(seed)
    x = torch.randn(n, 8, generator=g)
    y = x[:, :2].sum(dim=1, keepdim=True) + 0.1 * torch.randn(n, 1, generator=g)
    return TensorDataset(x, y)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--epochs", type=int, default=3)
    ap.add_argument("--batches", type=int, default=20)
    ap.add_argument("--every", type=int, default=5, help="print every N batches (the example: 200)")
    args = ap.parse_args()
    print(f"# capture: python {platform.python_version()} lightning {L.__version__} torch {torch.__version__}", flush=True)

    L.seed_everything(42)
    fabric = L.Fabric(accelerator="cpu", devices=1, loggers=CSVLogger(args.out, name="csv", version=0))
    model = nn.Sequential(nn.Linear(8, 16), nn.ReLU(), nn.Linear(16, 1))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.05)
    model, optimizer = fabric.setup(model, optimizer)
    train_dl, val_dl = fabric.setup_dataloaders(
        DataLoader(data(8 * args.batches, 1), batch_size=8, shuffle=False), DataLoader(data(32, 2), batch_size=8)
    )
    global_step = 0
    for epoch in range(args.epochs):
        for batch_idx, (x, y) in enumerate(train_dl):
            loss = F.mse_loss(model(x), y)
            fabric.backward(loss)
            optimizer.step()
            optimizer.zero_grad()
            fabric.log_dict({"loss": loss.item(), "epoch": epoch, "batch_idx": batch_idx}, step=global_step)
            global_step += 1
            if batch_idx % args.every == 0:
                fabric.print(f"epoch: {epoch} - iteration: {batch_idx} - loss {loss.item():.4f}")
        fabric.print("Validating ...")
        with torch.no_grad():
            val = torch.stack([F.mse_loss(model(x), y) for x, y in val_dl]).mean()
        fabric.log_dict({"val_loss": val.item()}, step=global_step - 1)
        fabric.print(f"val loss {val.item():.4f}")
    fabric.logger.finalize("success")


if __name__ == "__main__":
    main()
