#!/usr/bin/env python3
"""Capture a real PyTorch Lightning console log from a tiny CPU run.

This script produces the ``lightning_*_cpu.log`` sample logs in
``sample_logs/`` that logparse is tested against.  It trains a tiny
next-token language model (embedding + 2 small transformer encoder layers with
a causal mask, random init, nothing downloaded) on deterministic byte-level
synthetic text, on CPU, with ``accumulate_grad_batches=4``, an explicit
``TQDMProgressBar(refresh_rate=1)`` (so the bar is redrawn on every
micro-batch, also when ``rich`` is installed) and a ``CSVLogger`` with
``log_every_n_steps=1``.  The logger's ``metrics.csv`` (one row per optimizer
step: ``epoch,step,train_loss``) is the ground truth for the console log.

It prints one ``# capture: ...`` line with the versions, then only what
Lightning itself prints (seed line, accelerator lines, model summary,
warnings, the tqdm bar with ``train_loss`` in its postfix, the
``max_epochs`` stop line).

Requirements (in a virtualenv outside the repo)::

    python3 -m venv ../venv-capture
    ../venv-capture/bin/pip install torch==2.13.0    # the CPU wheel on disk
    ../venv-capture/bin/pip install -c <(echo torch==2.13.0) lightning

The shipped logs were captured with Python 3.11.7, torch 2.13.0+cpu,
lightning 2.6.6 and tqdm 4.70.1.  rich 15.0.0 was installed too (it comes
with transformers); that is why the TQDMProgressBar is set explicitly, and why
the default model summary is RichModelSummary's box table (``--plain-summary``
gives the plain one).

How to run (from the repo root; PYTHONUNBUFFERED=1 keeps stdout and stderr
interleaved as a terminal would show them)::

    # 10 micro-batches per epoch: not a multiple of 4, so the last optimizer
    # step of each epoch accumulates only 2 micro-batches (3 steps/epoch)
    PYTHONUNBUFFERED=1 ../venv-capture/bin/python sample_logs/capture_lightning.py \\
        --out /tmp/pl_ga4 --batches-per-epoch 10 --epochs 3 \\
        > sample_logs/lightning_ga4_cpu.log 2>&1
    cp /tmp/pl_ga4/csv/version_0/metrics.csv sample_logs/lightning_ga4_cpu.metrics.csv

    # 40 micro-batches per epoch: 10 optimizer steps/epoch, 30 in all; with
    # the plain-text model summary table (what Lightning prints without rich)
    PYTHONUNBUFFERED=1 ../venv-capture/bin/python sample_logs/capture_lightning.py \\
        --out /tmp/pl_ga4_3ep --batches-per-epoch 40 --epochs 3 --plain-summary \\
        > sample_logs/lightning_ga4_3ep_cpu.log 2>&1
    cp /tmp/pl_ga4_3ep/csv/version_0/metrics.csv sample_logs/lightning_ga4_3ep_cpu.metrics.csv

Use a fresh ``--out`` (delete it first): the CSVLogger is pinned to
``version_0``.  Each run takes 10-30 s on 2 CPU cores.

This file is a capture tool, not part of the logparse package or its tests.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys

import lightning
import torch
from lightning.pytorch import LightningModule, Trainer, seed_everything
from lightning.pytorch.callbacks import ModelSummary, TQDMProgressBar
from lightning.pytorch.loggers import CSVLogger
from torch import nn
from torch.utils.data import DataLoader, Dataset

SEED = 1234

_WORDS = (
    "the a model loss step token batch learning rate warmup cosine gradient "
    "accumulation optimizer epoch train eval log parse rank world size cpu "
    "gloo tensor layer head embedding attention output input label value"
).split()


class ByteTextDataset(Dataset):
    """Deterministic byte-level "text" chunks of ``seq_len + 1`` bytes.

    Pseudo-random sentences over a small word list, so the tiny model learns
    something and the loss visibly goes down.
    """

    def __init__(self, n_samples: int, seq_len: int, seed: int = SEED) -> None:
        rng = random.Random(seed)
        n_bytes = n_samples * (seq_len + 1)
        parts: list[str] = []
        size = 0
        while size < n_bytes:
            sentence = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(4, 10)))
            sentence = sentence.capitalize() + ". "
            parts.append(sentence)
            size += len(sentence)
        data = "".join(parts).encode("ascii")[:n_bytes]
        self.ids = torch.tensor(list(data), dtype=torch.long).view(n_samples, seq_len + 1)

    def __len__(self) -> int:
        return self.ids.shape[0]

    def __getitem__(self, idx: int) -> torch.Tensor:
        return self.ids[idx]


class TinyLM(LightningModule):
    """Byte-level causal LM: embedding, 2 transformer layers, tied head."""

    def __init__(self, seq_len: int, d_model: int = 64, n_layer: int = 2, lr: float = 3e-3) -> None:
        super().__init__()
        self.save_hyperparameters()
        self.tok = nn.Embedding(256, d_model)
        self.pos = nn.Embedding(seq_len, d_model)
        layer = nn.TransformerEncoderLayer(
            d_model, nhead=4, dim_feedforward=4 * d_model, dropout=0.0, batch_first=True
        )
        self.blocks = nn.TransformerEncoder(layer, num_layers=n_layer, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d_model)
        nn.init.normal_(self.tok.weight, std=0.02)
        nn.init.normal_(self.pos.weight, std=0.02)
        self.register_buffer(
            "mask", nn.Transformer.generate_square_subsequent_mask(seq_len), persistent=False
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        t = x.shape[1]
        h = self.tok(x) + self.pos(torch.arange(t, device=x.device))
        h = self.blocks(h, mask=self.mask[:t, :t], is_causal=True)
        return self.norm(h) @ self.tok.weight.T

    def training_step(self, batch: torch.Tensor, batch_idx: int) -> torch.Tensor:
        x, y = batch[:, :-1], batch[:, 1:]
        logits = self(x)
        loss = nn.functional.cross_entropy(logits.reshape(-1, logits.shape[-1]), y.reshape(-1))
        self.log("train_loss", loss, prog_bar=True, on_step=True)
        return loss

    def configure_optimizers(self):
        return torch.optim.AdamW(self.parameters(), lr=self.hparams.lr)


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="root dir for CSVLogger (csv/version_0/metrics.csv)")
    p.add_argument("--batches-per-epoch", type=int, default=10, help="micro-batches per epoch")
    p.add_argument("--epochs", type=int, default=3, help="max_epochs")
    p.add_argument("--grad-accum", type=int, default=4, help="accumulate_grad_batches")
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument(
        "--threads",
        type=int,
        default=1,
        help="torch.set_num_threads (1: steady step times on a shared 2-core machine)",
    )
    p.add_argument("--seq-len", type=int, default=32)
    p.add_argument(
        "--plain-summary",
        action="store_true",
        help="pass ModelSummary() explicitly: the plain-text table Lightning prints when rich is "
        "not installed (with rich installed the default is RichModelSummary's box table)",
    )
    return p.parse_args()


def main() -> None:
    args = parse_args()
    torch.set_num_threads(args.threads)
    print(
        f"# capture: python {platform.python_version()}, torch {torch.__version__}, "
        f"lightning {lightning.__version__}",
        file=sys.stderr,
    )
    seed_everything(SEED)

    dataset = ByteTextDataset(args.batches_per_epoch * args.batch_size, args.seq_len)
    loader = DataLoader(dataset, batch_size=args.batch_size, shuffle=True, num_workers=0)
    model = TinyLM(args.seq_len)

    callbacks = [TQDMProgressBar(refresh_rate=1)]
    if args.plain_summary:
        callbacks.append(ModelSummary())
    trainer = Trainer(
        accelerator="cpu",
        devices=1,
        max_epochs=args.epochs,
        accumulate_grad_batches=args.grad_accum,
        log_every_n_steps=1,
        callbacks=callbacks,
        logger=CSVLogger(save_dir=args.out, name="csv", version=0),
        enable_checkpointing=False,
        deterministic=True,
    )
    trainer.fit(model, train_dataloaders=loader)


if __name__ == "__main__":
    main()
