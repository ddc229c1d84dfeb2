"""Inputs for a tiny, real run of llm.c's train_gpt2.c on CPU: a randomly initialised GPT-2-layout checkpoint
(gpt2_124M.bin is the name train_gpt2.c opens; here 2 layers, 2 heads, 32 channels, max_seq_len 64, GPT-2's
vocabulary 50257 padded to 50304) and token files in llm.c's data format (header magic 20240520, version 1,
uint16 tokens): the bytes of a local text as token ids. No tokenizer file: train_gpt2.c then prints token ids."""
import collections
import inspect
import json
import os
import re
import string
import textwrap

import numpy as np

maxT, V, L, NH, C, Vp = 64, 50257, 2, 2, 32, 50304
rng = np.random.default_rng(0)
sizes = [Vp * C, maxT * C, L * C, L * C, L * 3 * C * C, L * 3 * C, L * C * C, L * C, L * C, L * C,
         L * 4 * C * C, L * 4 * C, L * C * 4 * C, L * C, C, C]
ones = {2, 8, 14}  # layernorm weights
biases = {3, 5, 7, 9, 11, 13, 15}
params = [np.ones(n) if i in ones else np.zeros(n) if i in biases else rng.normal(0, 0.02, n) for i, n in enumerate(sizes)]
header = np.zeros(256, dtype=np.int32)
header[:8] = [20240326, 3, maxT, V, L, NH, C, Vp]
with open("gpt2_124M.bin", "wb") as f:
    f.write(header.tobytes())
    f.write(np.concatenate(params).astype(np.float32).tobytes())

text = " ".join(inspect.getdoc(m) or "" for m in (json, os, re, string, textwrap, collections)).encode()
tokens = np.frombuffer(text, dtype=np.uint8).astype(np.uint16)
os.makedirs("dev/data/tinyshakespeare", exist_ok=True)
split = int(len(tokens) * 0.9)
for name, part in (("train", tokens[:split]), ("val", tokens[split:])):
    h = np.zeros(256, dtype=np.int32)
    h[:3] = [20240520, 1, len(part)]
    with open(f"dev/data/tinyshakespeare/tiny_shakespeare_{name}.bin", "wb") as f:
        f.write(h.tobytes())
        f.write(part.tobytes())
print("params", sum(sizes), "train tokens", split, "val tokens", len(tokens) - split)
