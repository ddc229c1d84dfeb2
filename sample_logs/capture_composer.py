#!/usr/bin/env python3
"""Capture a real MosaicML Composer console log from a tiny CPU run.

This script produces ``composer_mb_cpu.log`` in ``sample_logs/`` that
logparse is tested against.  It trains a tiny byte-level causal LM (a
``ComposerModel`` wrapping an embedding + 2 transformer encoder layers with a
causal mask, random init, nothing downloaded) on deterministic synthetic text,
on CPU, with ``composer.Trainer``: batch size 8 split into microbatches of 2
(``device_train_microbatch_size=2``), ``max_duration="2ep"`` (20 batches per
epoch, 40 batches = 40 optimizer steps), ``progress_bar=False``,
``log_to_console=True``, ``console_log_interval="1ba"`` (one multi-line
``[epoch=E][batch=B/20]:`` record per batch), ``SpeedMonitor(window_size=5)``
(``throughput/*`` lines once 5 batches are in the window; the model has
``flops_per_batch`` so ``throughput/flops_per_sec`` appears too) and
``LRMonitor``.  An ``InMemoryLogger`` records everything the console logger
gets; its ``.data`` is dumped to JSON (tensors as floats) as the ground truth:
``{"meta": {...}, "data": {key: [[timestamp_batch, value], ...]}}``.

``timestamp_batch`` is Composer's ``state.timestamp.batch`` at the moment of
logging: metrics logged inside the batch (``loss/train/total``, ``time/*``,
``lr-*``) carry the number of batches completed *before* this one (0 for the
first batch, shown on the console as ``[batch=1/20]``), while metrics logged at
``BATCH_END`` (``throughput/*``, ``wall_clock/*``) carry the batch's own
1-based number.

It prints one ``# capture: ...`` line with the versions, then only what
Composer itself prints.

Requirements (in a SEPARATE virtualenv outside the repo: Composer needs
torchvision at import time, and the only torchvision that admits torch 2.13.0
is PyPI's 0.28.0, a CUDA build whose ``_C`` extension cannot load beside the
CPU torch; in a venv that also holds lightning/transformers this broken
torchvision would break their imports too)::

    python3 -m venv ../venv-capture-composer
    P=../venv-capture-composer/bin/pip
    $P install torch==2.13.0                                 # the CPU wheel on disk
    $P download --no-deps mosaicml==0.32.1 -d /tmp/mos       # pins torch<2.7.1: no deps
    $P install --no-deps /tmp/mos/mosaicml-0.32.1-py3-none-any.whl
    $P install -c <(echo torch==2.13.0) torchvision==0.28.0 'torchmetrics<1.7.5' \\
        'torch_optimizer<0.4' 'numpy<2.3' 'packaging<25.1' 'coolname<3' \\
        'importlib-metadata<9' tabulate==0.9.0 'py-cpuinfo<10' 'mosaicml-cli<0.8' \\
        'pillow<12' requests psutil pyyaml tqdm

Because torchvision's ``_C`` cannot load, importing torchvision fails with
``RuntimeError: operator torchvision::nms does not exist`` (its
``_meta_registrations`` registers fake kernels for ``nms``/``qnms`` without
checking that the ops exist).  This script therefore defines those two op
schemas (no kernels) before importing Composer; nothing in this run calls
them.  This is a workaround for this machine, not something Composer prints.

The shipped log was captured with Python 3.11.7, torch 2.13.0+cpu,
mosaicml (composer) 0.32.1, torchvision 0.28.0 (see above), torchmetrics 1.7.4.

How to run (from the repo root; PYTHONUNBUFFERED=1 keeps stdout and stderr
interleaved as a terminal would show them)::

    PYTHONUNBUFFERED=1 ../venv-capture-composer/bin/python sample_logs/capture_composer.py \\
        --truth sample_logs/composer_mb_cpu.inmemory.json > sample_logs/composer_mb_cpu.log 2>&1

The run takes well under a minute on 2 CPU cores.

``--max-duration`` overrides ``max_duration`` (default ``"<epochs>ep"``, as
above).  ``composer_two_runs_cpu.log`` appends two runs to one file, the way a
user who reuses a log file gets them: a run of ``--max-duration 20ba`` (console
``[batch=N/20]:``), then one of ``--batches-per-epoch 5 --epochs 2`` (console
``[epoch=E][batch=N/5]:``)::

    rm -f sample_logs/composer_two_runs_cpu.log
    PYTHONUNBUFFERED=1 ../venv-capture-composer/bin/python sample_logs/capture_composer.py \\
        --max-duration 20ba --truth sample_logs/composer_two_runs_cpu.run1.inmemory.json \\
        >> sample_logs/composer_two_runs_cpu.log 2>&1
    PYTHONUNBUFFERED=1 ../venv-capture-composer/bin/python sample_logs/capture_composer.py \\
        --batches-per-epoch 5 --epochs 2 --truth sample_logs/composer_two_runs_cpu.run2.inmemory.json \\
        >> sample_logs/composer_two_runs_cpu.log 2>&1

This file is a capture tool, not part of the logparse package or its tests.
"""

from __future__ import annotations

import argparse
import json
import platform
import random
import sys

import torch

# Workaround (see docstring): let PyPI's CUDA torchvision import beside the
# CPU torch by defining the two op schemas its meta registrations expect.
for _op in ("nms", "qnms"):
    try:
        torch.library.define(
            f"torchvision::{_op}", "(Tensor dets, Tensor scores, float iou_threshold) -> Tensor"
        )
    except RuntimeError:  # already defined: torchvision's _C did load
        pass

import composer  # noqa: E402
from composer import Trainer  # noqa: E402
from composer.callbacks import LRMonitor, SpeedMonitor  # noqa: E402
from composer.loggers import InMemoryLogger  # noqa: E402
from composer.models import ComposerModel  # noqa: E402
from torch import nn  # noqa: E402
from torch.utils.data import DataLoader, Dataset  # noqa: E402

SEED = 1234

_WORDS = (
    "the a model loss step token batch learning rate warmup cosine gradient "
    "accumulation optimizer epoch train eval log parse rank world size cpu "
    "gloo tensor layer head embedding attention output input label value"
).split()


class ByteTextDataset(Dataset):
    """Deterministic byte-level "text"; samples are {"input_ids", "labels"}."""

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

    def __getitem__(self, idx: int) -> dict[str, torch.Tensor]:
        row = self.ids[idx]
        return {"input_ids": row[:-1], "labels": row[1:]}


class TinyLM(ComposerModel):
    """Byte-level causal LM: embedding, 2 transformer layers, tied head."""

    def __init__(self, seq_len: int, d_model: int = 64, n_layer: int = 2) -> None:
        super().__init__()
        self.tok = nn.Embedding(256, d_model)
        self.pos = nn.Embedding(seq_len, d_model)
        nn.init.normal_(self.tok.weight, std=0.02)
        nn.init.normal_(self.pos.weight, std=0.02)
        layer = nn.TransformerEncoderLayer(
            d_model, nhead=4, dim_feedforward=4 * d_model, dropout=0.0, batch_first=True
        )
        self.blocks = nn.TransformerEncoder(layer, num_layers=n_layer, enable_nested_tensor=False)
        self.norm = nn.LayerNorm(d_model)
        self.register_buffer(
            "mask", nn.Transformer.generate_square_subsequent_mask(seq_len), persistent=False
        )
        self.n_params = sum(p.numel() for p in self.parameters())

    def forward(self, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        x = batch["input_ids"]
        t = x.shape[1]
        h = self.tok(x) + self.pos(torch.arange(t, device=x.device))
        h = self.blocks(h, mask=self.mask[:t, :t], is_causal=True)
        return self.norm(h) @ self.tok.weight.T

    def loss(self, outputs: torch.Tensor, batch: dict[str, torch.Tensor]) -> torch.Tensor:
        y = batch["labels"]
        return nn.functional.cross_entropy(outputs.reshape(-1, outputs.shape[-1]), y.reshape(-1))

    def flops_per_batch(self, batch: dict[str, torch.Tensor]) -> float:
        return 6.0 * self.n_params * batch["input_ids"].numel()


def _to_jsonable(value):
    if isinstance(value, torch.Tensor):
        return value.item() if value.numel() == 1 else value.tolist()
    if isinstance(value, (int, float, str, bool)) or value is None:
        return value
    return str(value)


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--truth", required=True, help="where to write the InMemoryLogger data (JSON)")
    p.add_argument("--batches-per-epoch", type=int, default=20)
    p.add_argument("--epochs", type=int, default=2)
    p.add_argument(
        "--max-duration",
        default=None,
        help='Trainer max_duration, e.g. "20ba" (default: "<epochs>ep"); with a duration in '
        "batches the console records read [batch=N/<total>] instead of [epoch=E][batch=N/<len>]",
    )
    p.add_argument("--batch-size", type=int, default=8)
    p.add_argument("--microbatch-size", type=int, default=2, help="device_train_microbatch_size")
    p.add_argument("--window", type=int, default=5, help="SpeedMonitor window_size")
    p.add_argument("--seq-len", type=int, default=32)
    p.add_argument(
        "--threads",
        type=int,
        default=1,
        help="torch.set_num_threads (1: steady step times on a shared 2-core machine)",
    )
    return p.parse_args()


def main() -> None:
    args = parse_args()
    torch.set_num_threads(args.threads)
    print(
        f"# capture: python {platform.python_version()}, torch {torch.__version__}, "
        f"composer {composer.__version__}",
        file=sys.stderr,
    )
    torch.manual_seed(SEED)

    dataset = ByteTextDataset(args.batches_per_epoch * args.batch_size, args.seq_len)
    loader = DataLoader(dataset, batch_size=args.batch_size, shuffle=False, num_workers=0)
    model = TinyLM(args.seq_len)
    in_memory = InMemoryLogger()
    max_duration = args.max_duration if args.max_duration else f"{args.epochs}ep"

    trainer = Trainer(
        model=model,
        train_dataloader=loader,
        max_duration=max_duration,
        optimizers=torch.optim.AdamW(model.parameters(), lr=3e-3),
        device="cpu",
        device_train_microbatch_size=args.microbatch_size,
        progress_bar=False,
        log_to_console=True,
        console_log_interval="1ba",
        callbacks=[SpeedMonitor(window_size=args.window), LRMonitor()],
        loggers=[in_memory],
        seed=SEED,
    )
    trainer.fit()
    trainer.close()

    truth = {
        "meta": {
            "source": "composer.loggers.InMemoryLogger.data",
            "python": platform.python_version(),
            "torch": torch.__version__,
            "composer": composer.__version__,
            "batches_per_epoch": args.batches_per_epoch,
            "epochs": args.epochs,
            "batch_size": args.batch_size,
            "device_train_microbatch_size": args.microbatch_size,
            "speed_monitor_window_size": args.window,
            "seq_len": args.seq_len,
            "timestamp_batch": (
                "state.timestamp.batch when logged: batches completed before this one for metrics "
                "logged inside the batch (loss/train/total, time/*, lr-*), the batch's own 1-based "
                "number for metrics logged at BATCH_END (throughput/*, wall_clock/*)"
            ),
        },
        "data": {
            key: [[int(ts.batch.value), _to_jsonable(v)] for ts, v in series]
            for key, series in in_memory.data.items()
        },
    }
    if args.max_duration:  # only then, so the default run's JSON keeps its layout
        truth["meta"]["max_duration"] = max_duration
    with open(args.truth, "w") as f:
        json.dump(truth, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
