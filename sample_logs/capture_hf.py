#!/usr/bin/env python3
"""Capture a real Hugging Face ``Trainer`` console log from a tiny CPU run.

This script produces the sample logs in ``sample_logs/`` that logparse is
tested against.  It trains a tiny GPT-2 (built from a config, random init, no
hub download) on deterministic byte-level synthetic text, on CPU, and lets the
``Trainer`` print its usual console output (INFO header, tqdm progress bar,
loss dicts, final summary dict, ``***** train metrics *****``).  After
training it writes ``trainer_state.json`` (whose ``log_history`` is the ground
truth for the logged values) into the output directory.

Requirements (in a virtualenv outside the repo)::

    python3 -m venv ../venv-hf
    ../venv-hf/bin/pip install torch==2.13.0 transformers accelerate

The shipped logs were captured with torch 2.13.0+cpu, transformers 5.24.0 and accelerate 1.15.0.

How to run (from the repo root; no network needed; the script sets
HF_HUB_OFFLINE=1 itself, and PYTHONUNBUFFERED=1 keeps stdout (loss dicts) and
stderr (tqdm, logging) interleaved as a terminal would show them)::

    # single process, gradient accumulation 4, plain log format
    HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1 ../venv-hf/bin/python sample_logs/capture_hf.py \\
        --out /tmp/hf_ga4 --grad-accum 4 --max-steps 60 --logging-steps 5 \\
        --batch-size 4 --seq-len 64 > sample_logs/hf_trainer_ga4_cpu.log 2>&1
    cp /tmp/hf_ga4/trainer_state.json sample_logs/hf_trainer_ga4_cpu.trainer_state.json

    # two processes (DDP on CPU/gloo) with torchrun's per-rank prefixes,
    # explicit transformers log format
    HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1 ../venv-hf/bin/python -m torch.distributed.run \\
        --nproc-per-node 2 --tee 3 sample_logs/capture_hf.py --explicit-format \\
        --out /tmp/hf_ddp2 --grad-accum 2 --max-steps 40 --logging-steps 4 \\
        --batch-size 4 --seq-len 64 > sample_logs/hf_trainer_ddp2_cpu.log 2>&1
    cp /tmp/hf_ddp2/trainer_state.json sample_logs/hf_trainer_ddp2_cpu.trainer_state.json

``save_strategy="no"``: no checkpoints are written, only ``trainer_state.json``
(by the main process).  Runs take a few seconds on 2 CPU cores.

Note: torchrun's ``--tee`` tails each rank's stdout/stderr file in text mode,
so tqdm's ``\\r`` redraws come out as separate prefixed lines (and a partial
line read at EOF gets a second prefix glued on); that is real torchrun output.
"""

from __future__ import annotations

import argparse
import os
import random

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import torch  # noqa: E402
import transformers  # noqa: E402
from torch.utils.data import Dataset  # noqa: E402
from transformers import (  # noqa: E402
    GPT2Config,
    GPT2LMHeadModel,
    Trainer,
    TrainingArguments,
    set_seed,
)

SEED = 1234

_WORDS = (
    "the a model loss step token batch learning rate warmup cosine gradient "
    "accumulation optimizer epoch train eval log parse rank world size cpu "
    "gloo tensor layer head embedding attention output input label value"
).split()


class ByteTextDataset(Dataset):
    """Deterministic byte-level "text" chunks; labels are the input ids.

    The text is pseudo-random sentences over a small word list, so a tiny
    model can actually learn it and the loss visibly goes down.
    """

    def __init__(self, n_samples: int, seq_len: int, seed: int = SEED) -> None:
        rng = random.Random(seed)
        n_bytes = n_samples * seq_len
        parts: list[str] = []
        size = 0
        while size < n_bytes:
            sentence = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(4, 10)))
            sentence = sentence.capitalize() + ". "
            parts.append(sentence)
            size += len(sentence)
        data = "".join(parts).encode("ascii")[:n_bytes]
        self.ids = torch.tensor(list(data), dtype=torch.long).view(n_samples, seq_len)

    def __len__(self) -> int:
        return self.ids.shape[0]

    def __getitem__(self, idx: int) -> dict[str, torch.Tensor]:
        x = self.ids[idx]
        return {"input_ids": x, "attention_mask": torch.ones_like(x), "labels": x.clone()}


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="Trainer output_dir (trainer_state.json goes here)")
    p.add_argument("--grad-accum", type=int, default=1, help="gradient_accumulation_steps")
    p.add_argument("--max-steps", type=int, default=60, help="number of optimizer steps")
    p.add_argument("--logging-steps", type=int, default=5, help="log every N optimizer steps")
    p.add_argument("--batch-size", type=int, default=4, help="per_device_train_batch_size")
    p.add_argument("--seq-len", type=int, default=64, help="tokens per sample (<= n_positions)")
    p.add_argument("--lr", type=float, default=3e-3, help="peak learning rate")
    p.add_argument("--warmup-steps", type=int, default=5)
    p.add_argument("--scheduler", default="cosine", help="lr_scheduler_type")
    p.add_argument("--n-samples", type=int, default=2048, help="dataset size (samples)")
    p.add_argument(
        "--explicit-format",
        action="store_true",
        help="use transformers' explicit log format: [LEVEL|file:line] time >> msg",
    )
    return p.parse_args()


def main() -> None:
    args = parse_args()
    if args.explicit_format:
        transformers.utils.logging.enable_explicit_format()

    set_seed(SEED)
    distributed = int(os.environ.get("WORLD_SIZE", "1")) > 1

    config = GPT2Config(
        n_layer=2,
        n_embd=64,
        n_head=4,
        n_positions=max(64, args.seq_len),
        vocab_size=256,
        bos_token_id=0,
        eos_token_id=0,
    )
    model = GPT2LMHeadModel(config)
    train_dataset = ByteTextDataset(args.n_samples, args.seq_len)

    training_args = TrainingArguments(
        output_dir=args.out,
        max_steps=args.max_steps,
        logging_steps=args.logging_steps,
        gradient_accumulation_steps=args.grad_accum,
        per_device_train_batch_size=args.batch_size,
        learning_rate=args.lr,
        warmup_steps=args.warmup_steps,
        lr_scheduler_type=args.scheduler,
        report_to=[],
        save_strategy="no",
        log_level="info",
        log_level_replica="info",
        disable_tqdm=False,
        use_cpu=True,
        seed=SEED,
        dataloader_num_workers=0,
        ddp_backend="gloo" if distributed else None,
    )

    trainer = Trainer(model=model, args=training_args, train_dataset=train_dataset)
    result = trainer.train()

    metrics = result.metrics
    trainer.log_metrics("train", metrics)
    # Writes <output_dir>/trainer_state.json (with log_history); only the
    # main process writes it.
    trainer.save_state()


if __name__ == "__main__":
    main()
