#!/usr/bin/env python3
"""Capture a real Hugging Face ``Trainer`` console log with ``disable_tqdm=True`` (no progress bar).

Same tiny model and data as sample_logs/capture_hf.py (GPT-2 from a config, random init, byte-level
synthetic text, CPU, no download), trained for whole epochs so that the dicts' ``epoch`` runs over
epoch boundaries. With no bar, the Trainer's ``PrinterCallback`` prints each log dict on stdout and
nothing in the dict says which optimizer step it belongs to. ``trainer_state.json`` (its
``log_history`` with each entry's ``step``) is written beside the log as the truth.

Run from the repo root (see README.md here for the exact commands and versions).
"""

from __future__ import annotations

import argparse
import os
import random

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import torch  # noqa: E402
from torch.utils.data import Dataset  # noqa: E402
from transformers import GPT2Config, GPT2LMHeadModel, Trainer, TrainingArguments, set_seed  # noqa: E402

SEED = 1234
_WORDS = (
    "the a model loss step token batch learning rate warmup cosine gradient "
    "accumulation optimizer epoch train eval log parse rank world size cpu"
).split()


class ByteTextDataset(Dataset):
    """Deterministic byte-level "text" chunks; labels are the input ids."""

    def __init__(self, n_samples: int, seq_len: int, seed: int = SEED) -> None:
        rng = random.Random(seed)
        parts: list[str] = []
        size = 0
        while size < n_samples * seq_len:
            sentence = " ".join(rng.choice(_WORDS) for _ in range(rng.randint(4, 10))).capitalize() + ". "
            parts.append(sentence)
            size += len(sentence)
        data = "".join(parts).encode("ascii")[: n_samples * seq_len]
        self.ids = torch.tensor(list(data), dtype=torch.long).view(n_samples, seq_len)

    def __len__(self) -> int:
        return self.ids.shape[0]

    def __getitem__(self, idx: int) -> dict[str, torch.Tensor]:
        x = self.ids[idx]
        return {"input_ids": x, "attention_mask": torch.ones_like(x), "labels": x.clone()}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True, help="Trainer output_dir (trainer_state.json goes here)")
    p.add_argument("--epochs", type=float, default=2)
    p.add_argument("--max-steps", type=int, default=-1, help="max_steps (overrides --epochs when > 0)")
    p.add_argument("--grad-accum", type=int, default=2)
    p.add_argument("--logging-steps", type=int, default=3)
    p.add_argument("--no-first-step", action="store_true", help="logging_first_step=False")
    p.add_argument("--tokens-seen", action="store_true", help="include_num_input_tokens_seen=True")
    p.add_argument("--log-level", default="passive", help="'passive' (the default: no INFO header) or 'info'")
    p.add_argument("--batch-size", type=int, default=4)
    p.add_argument("--seq-len", type=int, default=64)
    p.add_argument("--n-samples", type=int, default=100)
    args = p.parse_args()

    torch.set_num_threads(1)
    set_seed(SEED)
    config = GPT2Config(
        n_layer=2, n_embd=64, n_head=4, n_positions=64, vocab_size=256, bos_token_id=0, eos_token_id=0
    )
    model = GPT2LMHeadModel(config)
    training_args = TrainingArguments(
        output_dir=args.out,
        num_train_epochs=args.epochs,
        max_steps=args.max_steps,
        logging_steps=args.logging_steps,
        logging_first_step=not args.no_first_step,
        include_num_input_tokens_seen=args.tokens_seen,
        gradient_accumulation_steps=args.grad_accum,
        per_device_train_batch_size=args.batch_size,
        learning_rate=3e-3,
        warmup_steps=2,
        report_to=[],
        save_strategy="no",
        log_level=args.log_level,
        disable_tqdm=True,
        use_cpu=True,
        seed=SEED,
        dataloader_num_workers=0,
        ddp_backend="gloo" if int(os.environ.get("WORLD_SIZE", "1")) > 1 else None,  # torchrun on CPU
    )
    train_dataset = ByteTextDataset(args.n_samples, args.seq_len)
    trainer = Trainer(model=model, args=training_args, train_dataset=train_dataset)
    trainer.train()
    trainer.save_state()  # <output_dir>/trainer_state.json, with log_history


if __name__ == "__main__":
    main()
