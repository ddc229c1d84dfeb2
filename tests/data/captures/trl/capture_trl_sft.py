#!/usr/bin/env python3
"""Capture a real TRL ``SFTTrainer`` console log from a tiny CPU run (no download).

A tiny GPT-2 (from a config, random init), a word-level tokenizer trained here with the ``tokenizers``
library, and a local ``datasets.Dataset`` of synthetic sentences. SFTTrainer's console is the Trainer's:
the tqdm bar on stderr and one dict per ``logging_steps`` on stdout, with TRL's own keys (``entropy``,
``num_tokens``, ``mean_token_accuracy``). ``trainer_state.json`` (log_history, each entry with its ``step``)
is written beside the log as the truth. See README.md here for the command and versions.
"""

from __future__ import annotations

import argparse
import os
import random

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")

import torch  # noqa: E402
from datasets import Dataset  # noqa: E402
from tokenizers import Tokenizer, models, pre_tokenizers, trainers  # noqa: E402
from transformers import GPT2Config, GPT2LMHeadModel, PreTrainedTokenizerFast, set_seed  # noqa: E402
from trl import SFTConfig, SFTTrainer  # noqa: E402

SEED = 1234
WORDS = (
    "the a model loss step token batch learning rate warmup cosine gradient "
    "accumulation optimizer epoch train eval log parse rank world size cpu"
).split()


def sentences(n: int) -> list[str]:
    rng = random.Random(SEED)
    return [" ".join(rng.choice(WORDS) for _ in range(rng.randint(6, 20))) + " ." for _ in range(n)]


def tokenizer(texts: list[str]) -> PreTrainedTokenizerFast:
    tok = Tokenizer(models.WordLevel(unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Whitespace()
    tok.train_from_iterator(texts, trainers.WordLevelTrainer(special_tokens=["<unk>", "<pad>", "<eos>"]))
    return PreTrainedTokenizerFast(
        tokenizer_object=tok, unk_token="<unk>", pad_token="<pad>", eos_token="<eos>"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--out", required=True)
    p.add_argument("--n-samples", type=int, default=96)
    p.add_argument("--epochs", type=float, default=2)
    p.add_argument("--logging-steps", type=int, default=2)
    p.add_argument("--grad-accum", type=int, default=2)
    args = p.parse_args()

    torch.set_num_threads(1)
    set_seed(SEED)
    texts = sentences(args.n_samples)
    tok = tokenizer(texts)
    eos, pad = tok.eos_token_id, tok.pad_token_id
    config = GPT2Config(
        n_layer=2, n_embd=64, n_head=4, n_positions=64, vocab_size=len(tok),
        bos_token_id=eos, eos_token_id=eos, pad_token_id=pad,
    )  # fmt: skip
    model = GPT2LMHeadModel(config)
    config = SFTConfig(
        output_dir=args.out,
        num_train_epochs=args.epochs,
        logging_steps=args.logging_steps,
        gradient_accumulation_steps=args.grad_accum,
        per_device_train_batch_size=4,
        learning_rate=3e-3,
        max_length=64,
        report_to=[],
        save_strategy="no",
        use_cpu=True,
        seed=SEED,
        dataloader_num_workers=0,
    )
    trainer = SFTTrainer(model=model, args=config, train_dataset=Dataset.from_dict({"text": texts}),
                         processing_class=tok)
    trainer.train()
    trainer.save_state()  # <output_dir>/trainer_state.json, with log_history


if __name__ == "__main__":
    main()
