"""Data for a tiny, real llama2.c train.py run on CPU: `--vocab_source=custom --vocab_size=256` reads uint16
token shards from data/tok256/*.bin (shard 0 is the validation split); here the bytes of some standard-library
docstrings as token ids, in three shards."""
import collections
import inspect
import json
import os
import re
import string
import textwrap

import numpy as np

text = " ".join(inspect.getdoc(m) or "" for m in (json, os, re, string, textwrap, collections, inspect)).encode()
tokens = np.frombuffer(text, dtype=np.uint8).astype(np.uint16)
os.makedirs("data/tok256", exist_ok=True)
for i, part in enumerate(np.array_split(tokens, 3)):
    part.tofile(f"data/tok256/shard_{i:02d}.bin")
print("tokens", len(tokens))
