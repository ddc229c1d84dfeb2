#!/usr/bin/env python3
"""Capture a real Hugging Face ``Trainer`` console log of a run resumed from a checkpoint.

Companion of ``capture_hf.py`` and ``capture_hf_ls5.py``: a tiny GPT-2 (built
from ``GPT2Config(n_layer=2, n_head=2, n_embd=64, vocab_size=256,
n_positions=64)``, random init, no hub download) on the same deterministic
byte-level synthetic text (2,048 samples of 64 tokens, labels = input ids), on
CPU.  ``TrainingArguments(max_steps=60, per_device_train_batch_size=8,
gradient_accumulation_steps=2, logging_steps=5, eval_strategy="steps",
eval_steps=20, save_strategy="steps", save_steps=20, lr 3e-3 cosine with 5
warmup steps, report_to=[], seed=1234)`` with a 32-sample eval set (eval
batch 8).  Verbosity is INFO (``transformers.logging.set_verbosity_info()``)
so the ``***** Running training *****`` header and the resume lines show.
A callback sleeps 0.15 s at every optimizer step end, so each step takes
longer than tqdm's ``mininterval`` and the bar is redrawn on every step.

The run is done as two processes (sessions) with the same arguments:

* session 1 (``--stop-at 45``): trains from scratch; checkpoint-20 and
  checkpoint-40 are written; after step 45 has been logged a callback raises
  ``SystemExit`` in ``on_step_begin`` of step 46, i.e. the process dies as a
  preempted job would, with steps 41-45 lost work.  Nothing after that is
  printed (no final dict, no ``train metrics``).
* session 2 (``--resume``): ``trainer.train(resume_from_checkpoint=True)``
  picks the newest checkpoint (checkpoint-40) in ``--out``, fast-forwards the
  dataloader and runs steps 41-60 (20 optimizer steps), then prints
  ``***** train metrics *****`` and writes ``trainer_state.json`` with
  ``trainer.save_state()``.

Each process prints one ``# capture: ...`` line (versions, session,
PYTHONUNBUFFERED) to stderr, then only what the Trainer itself prints.

Requirements (in a virtualenv outside the repo)::

    python3 -m venv /tmp/hfcap/venv
    /tmp/hfcap/venv/bin/pip install torch==2.13.0    # the CPU wheel on disk
    /tmp/hfcap/venv/bin/pip install -c <(echo torch==2.13.0) transformers accelerate datasets

The shipped log was captured with Python 3.11.7, torch 2.13.0+cpu,
transformers 5.24.0, accelerate 1.16.0, datasets 5.2.0 (not used by the
script) and tqdm 4.70.1.

How it was run (from the repo root; no network needed; the script sets
HF_HUB_OFFLINE=1 itself).  Unlike the other captures, **without**
``PYTHONUNBUFFERED=1``: stdout is block-buffered as with a plain
``python script.py >> log 2>&1`` in a job script, so the dicts the Trainer
``print``s (stdout) do not sit where they would on a terminal next to the
tqdm bars and logging lines (stderr, unbuffered); they come out in blocks
when the buffer fills and at process exit::

    rm -rf /tmp/hfcap/out sample_logs/hf_trainer_resumed_cpu.log
    HF_HUB_OFFLINE=1 /tmp/hfcap/venv/bin/python sample_logs/capture_hf_resumed.py \\
        --out /tmp/hfcap/out --stop-at 45 >> sample_logs/hf_trainer_resumed_cpu.log 2>&1
    cp /tmp/hfcap/out/checkpoint-40/trainer_state.json \\
        sample_logs/hf_trainer_resumed_cpu.session1.trainer_state.json
    HF_HUB_OFFLINE=1 /tmp/hfcap/venv/bin/python sample_logs/capture_hf_resumed.py \\
        --out /tmp/hfcap/out --resume >> sample_logs/hf_trainer_resumed_cpu.log 2>&1
    cp /tmp/hfcap/out/trainer_state.json sample_logs/hf_trainer_resumed_cpu.trainer_state.json

(Session 1 exits with status 1 from the ``SystemExit``.)  Each session takes
well under a minute on 2 CPU cores.

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


class DieAfterStepCallback(TrainerCallback):
    """Kill the process (SystemExit) once ``step`` optimizer steps are done and logged.

    ``on_step_begin`` runs before the first micro-batch of the next optimizer
    step, i.e. after step ``step``'s log/eval/save, so the log dict of step
    ``step`` is printed and nothing after it.
    """

    def __init__(self, step: int) -> None:
        self.step = step

    def on_step_begin(self, args, state, control, **kwargs):
        if state.global_step >= self.step:
            raise SystemExit(1)


def parse_args() -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="Trainer output_dir (checkpoints, trainer_state.json)")
    g = p.add_mutually_exclusive_group(required=True)
    g.add_argument("--stop-at", type=int, help="session 1: die (SystemExit) after this optimizer step")
    g.add_argument("--resume", action="store_true", help="session 2: train(resume_from_checkpoint=True)")
    p.add_argument("--max-steps", type=int, default=60, help="number of optimizer steps")
    p.add_argument("--grad-accum", type=int, default=2, help="gradient_accumulation_steps")
    p.add_argument("--logging-steps", type=int, default=5)
    p.add_argument("--eval-steps", type=int, default=20)
    p.add_argument("--save-steps", type=int, default=20)
    p.add_argument("--batch-size", type=int, default=8, help="per_device_train_batch_size")
    p.add_argument("--seq-len", type=int, default=64)
    p.add_argument("--n-samples", type=int, default=2048, help="train dataset size (samples)")
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
    session = "2 (resume)" if args.resume else f"1 (dies after step {args.stop_at})"
    print(
        f"# capture: python {platform.python_version()}, torch {torch.__version__}, "
        f"transformers {transformers.__version__}, accelerate {accelerate.__version__}, "
        f"session {session}, PYTHONUNBUFFERED={os.environ.get('PYTHONUNBUFFERED', 'unset')}",
        file=sys.stderr,
    )
    transformers.logging.set_verbosity_info()

    set_seed(SEED)
    config = GPT2Config(
        n_layer=2,
        n_head=2,
        n_embd=64,
        vocab_size=256,
        n_positions=max(64, args.seq_len),
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
        report_to=[],
        disable_tqdm=False,
        use_cpu=True,
        seed=SEED,
        dataloader_num_workers=0,
    )

    callbacks: list[TrainerCallback] = [SlowStepCallback(args.sleep)]
    if args.stop_at is not None:
        callbacks.append(DieAfterStepCallback(args.stop_at))
    trainer = Trainer(
        model=model,
        args=training_args,
        train_dataset=train_dataset,
        eval_dataset=eval_dataset,
        callbacks=callbacks,
    )
    result = trainer.train(resume_from_checkpoint=True if args.resume else None)
    trainer.log_metrics("train", result.metrics)
    # Writes <output_dir>/trainer_state.json (log_history of both sessions,
    # as restored from the checkpoint, plus this session's entries and its
    # final train_runtime entry).
    trainer.save_state()


if __name__ == "__main__":
    main()
