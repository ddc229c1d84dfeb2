#!/usr/bin/env python3
"""Capture a real Hugging Face ``Trainer`` console log with eval and checkpoints.

Companion of ``capture_hf.py``: same tiny GPT-2 (2 layers, built from a
config, random init, no hub download) on the same deterministic byte-level
synthetic text, on CPU, but with ``logging_steps=5``,
``gradient_accumulation_steps=3``, an eval dataset evaluated every 10
optimizer steps (``{'eval_loss': ...}`` dicts and the eval tqdm bar) and a
checkpoint every 20 steps.  A callback sleeps 0.15 s at every optimizer step
end, so each step takes longer than tqdm's ``mininterval`` (0.1 s) and the
training bar is redrawn on every step.  After training it writes
``trainer_state.json`` (whose ``log_history`` is the ground truth for the
logged values) into the output directory with ``trainer.save_state()``.

It prints one ``# capture: ...`` line with the versions, then only what the
Trainer itself prints.

Requirements (in a virtualenv outside the repo)::

    python3 -m venv ../venv-capture
    ../venv-capture/bin/pip install torch==2.13.0    # the CPU wheel on disk
    ../venv-capture/bin/pip install -c <(echo torch==2.13.0) transformers accelerate

The shipped logs were captured with Python 3.11.7, torch 2.13.0+cpu,
transformers 5.24.0, accelerate 1.15.0 and tqdm 4.70.1.

How to run (from the repo root; no network needed; the script sets
HF_HUB_OFFLINE=1 itself; PYTHONUNBUFFERED=1 keeps stdout (loss dicts) and
stderr (tqdm, logging) interleaved as a terminal would show them)::

    # INFO verbosity (transformers.logging.set_verbosity_info()): the
    # "***** Running training *****" header, eval and checkpoint-save lines;
    # include_num_input_tokens_seen=True
    rm -rf /tmp/hf_ls5 && HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1 ../venv-capture/bin/python \\
        sample_logs/capture_hf_ls5.py --out /tmp/hf_ls5 --info --tokens-seen \\
        > sample_logs/hf_trainer_ls5_ga3_eval10_cpu.log 2>&1
    cp /tmp/hf_ls5/trainer_state.json sample_logs/hf_trainer_ls5_ga3_eval10_cpu.trainer_state.json

    # default verbosity (WARNING): no header, only bars, dicts and warnings
    rm -rf /tmp/hf_ls5_nh && HF_HUB_OFFLINE=1 PYTHONUNBUFFERED=1 ../venv-capture/bin/python \\
        sample_logs/capture_hf_ls5.py --out /tmp/hf_ls5_nh \\
        > sample_logs/hf_trainer_ls5_noheader_cpu.log 2>&1
    cp /tmp/hf_ls5_nh/trainer_state.json sample_logs/hf_trainer_ls5_noheader_cpu.trainer_state.json

Each run takes well under a minute on 2 CPU cores.

This file is a capture tool, not part of the logparse package or its tests.
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import sys
import time

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import accelerate  # noqa: E402
import torch  # noqa: E402
import transformers  # noqa: E402
from torch.utils.data import Dataset  # noqa: E402
from transformers import (  # noqa: E402
    GPT2Config,
    GPT2LMHeadModel,
    Trainer,
    TrainerCallback,
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
    """Deterministic byte-level "text" chunks; labels are the input ids."""

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


class SlowStepCallback(TrainerCallback):
    """Sleep at every optimizer step end so tqdm redraws the bar on every step."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def on_step_end(self, args, state, control, **kwargs):
        time.sleep(self.seconds)


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="Trainer output_dir (checkpoints, trainer_state.json)")
    p.add_argument("--info", action="store_true", help="transformers.logging.set_verbosity_info()")
    p.add_argument("--tokens-seen", action="store_true", help="include_num_input_tokens_seen=True")
    p.add_argument("--grad-accum", type=int, default=3, help="gradient_accumulation_steps")
    p.add_argument("--max-steps", type=int, default=50, help="number of optimizer steps")
    p.add_argument("--logging-steps", type=int, default=5)
    p.add_argument("--eval-steps", type=int, default=10)
    p.add_argument("--save-steps", type=int, default=20)
    p.add_argument("--batch-size", type=int, default=4, help="per_device_train_batch_size")
    p.add_argument("--seq-len", type=int, default=64)
    p.add_argument("--n-samples", type=int, default=1024, help="train dataset size (samples)")
    p.add_argument("--n-eval", type=int, default=32, help="eval dataset size (samples)")
    p.add_argument(
        "--threads",
        type=int,
        default=1,
        help="torch.set_num_threads (1: steady step times on a shared 2-core machine)",
    )
    p.add_argument("--sleep", type=float, default=0.15, help="seconds slept per optimizer step")
    return p.parse_args()


def main() -> None:
    args = parse_args()
    torch.set_num_threads(args.threads)
    print(
        f"# capture: python {platform.python_version()}, torch {torch.__version__}, "
        f"transformers {transformers.__version__}, accelerate {accelerate.__version__}",
        file=sys.stderr,
    )
    if args.info:
        transformers.logging.set_verbosity_info()

    set_seed(SEED)
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
    eval_dataset = ByteTextDataset(args.n_eval, args.seq_len, seed=SEED + 1)

    training_args = TrainingArguments(
        output_dir=args.out,
        max_steps=args.max_steps,
        logging_steps=args.logging_steps,
        gradient_accumulation_steps=args.grad_accum,
        per_device_train_batch_size=args.batch_size,
        per_device_eval_batch_size=8,
        eval_strategy="steps",
        eval_steps=args.eval_steps,
        save_strategy="steps",
        save_steps=args.save_steps,
        learning_rate=3e-3,
        warmup_steps=5,
        lr_scheduler_type="cosine",
        include_num_input_tokens_seen=args.tokens_seen,
        report_to=[],
        disable_tqdm=False,
        use_cpu=True,
        seed=SEED,
        dataloader_num_workers=0,
    )

    trainer = Trainer(
        model=model,
        args=training_args,
        train_dataset=train_dataset,
        eval_dataset=eval_dataset,
        callbacks=[SlowStepCallback(args.sleep)],
    )
    result = trainer.train()
    trainer.log_metrics("train", result.metrics)
    # Writes <output_dir>/trainer_state.json (log_history incl. the final
    # train_runtime entry).
    trainer.save_state()


if __name__ == "__main__":
    main()
