"""Synthetic pretraining shards for nanochat (no download): parquet files with a `text` column of made-up
sentences from a fixed word list, fixed seed, in $NANOCHAT_BASE_DIR/base_data_climbmix/ as nanochat's dataset
module names them (the last shard is the validation split)."""

import os
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

rng = np.random.default_rng(0)
words = [
    "the",
    "a",
    "model",
    "trains",
    "on",
    "data",
    "and",
    "learns",
    "to",
    "predict",
    "next",
    "token",
    "from",
    "context",
    "small",
    "large",
    "network",
    "loss",
    "falls",
    "slowly",
    "quickly",
    "every",
    "step",
    "batch",
    "of",
    "text",
    "with",
    "many",
    "words",
    "cat",
    "dog",
    "sat",
    "mat",
    "ran",
    "home",
    "after",
    "school",
    "in",
    "morning",
    "evening",
    "river",
    "flows",
    "under",
    "bridge",
    "city",
    "lights",
    "shine",
    "at",
    "night",
    "people",
    "walk",
    "along",
    "streets",
]
nxt = rng.integers(0, len(words), (len(words), 3))


def document():
    w = int(rng.integers(len(words)))
    out = []
    for _ in range(int(rng.integers(40, 160))):
        out.append(words[w])
        w = int(nxt[w, rng.integers(3)]) if rng.random() < 0.85 else int(rng.integers(len(words)))
    return " ".join(out).capitalize() + "."


data = Path(os.environ["NANOCHAT_BASE_DIR"]) / "base_data_climbmix"
data.mkdir(parents=True, exist_ok=True)
for index, n in ((0, 3000), (6542, 300)):
    pq.write_table(
        pa.table({"text": [document() for _ in range(n)]}),
        data / f"shard_{index:05d}.parquet",
        row_group_size=500,
    )
