"""Write a few small parquet shards of real English text (the docstrings of Python's standard library) in the
layout nanochat's dataset module reads (base_dir/base_data_climbmix/shard_NNNNN.parquet, column `text`; the
last shard is the validation split). No download: the text is on this machine."""

import importlib
import inspect
import os
import sys

import pyarrow as pa
import pyarrow.parquet as pq

base = os.environ["NANOCHAT_BASE_DIR"]
out = os.path.join(base, "base_data_climbmix")
os.makedirs(out, exist_ok=True)
docs = []
for mod in sorted(sys.stdlib_module_names):
    if mod.startswith("_") or mod in ("antigravity", "this", "idlelib", "tkinter", "turtle", "turtledemo"):
        continue
    try:
        m = importlib.import_module(mod)
    except Exception:
        continue
    for name, obj in list(vars(m).items())[:200]:
        d = inspect.getdoc(obj) if not name.startswith("_") else None
        if d and len(d) > 200:
            docs.append(d)
docs = sorted(set(docs))
print(len(docs), "documents", sum(map(len, docs)), "chars")
shards = 3
for i in range(shards):
    part = docs[i::shards]
    table = pa.table({"text": part})
    pq.write_table(table, os.path.join(out, f"shard_{i:05d}.parquet"), row_group_size=256)
