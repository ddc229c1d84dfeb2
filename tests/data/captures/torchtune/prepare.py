"""Prepare a tiny local torchtune fine-tuning run on CPU: a text dataset, a SentencePiece tokenizer trained on
it, and a randomly initialised 2-layer llama2-style model saved as a torchtune state dict."""
import pathlib
import random
import sys

import sentencepiece as spm
import torch
from torchtune.models.llama2 import llama2

out = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else "work")
repeat = int(sys.argv[2]) if len(sys.argv) > 2 else 1  # the dataset's lines written this many times (a longer epoch)
out.mkdir(parents=True, exist_ok=True)
# the dataset: sentences drawn from the docstrings of the standard library (one sample per line)
import collections
import inspect
import json
import os
import pathlib as pl
import re
import string
import textwrap

random.seed(0)
text = " ".join(inspect.getdoc(m) or "" for m in (json, collections, os, re, string, textwrap, pl, inspect))
words = text.split()
lines = [" ".join(words[i:i + random.randint(20, 40)]) for i in range(0, len(words), 30)]
(out / "data.txt").write_text("\n".join(lines[:200] * repeat) + "\n")
spm.SentencePieceTrainer.train(input=str(out / "data.txt"), model_prefix=str(out / "tok"), vocab_size=256,
                               model_type="bpe", character_coverage=1.0, minloglevel=2)
torch.manual_seed(0)
model = llama2(vocab_size=256, num_layers=2, num_heads=4, num_kv_heads=4, embed_dim=64, max_seq_len=128)
torch.save(model.state_dict(), out / "model.pt")
print("samples", len(lines[:200]) * repeat, "params", sum(p.numel() for p in model.parameters()))
