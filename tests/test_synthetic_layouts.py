"""The common print layouts of custom training loops, drawn at random (benchmarks/synthetic_layouts.py: a prefix, a
counter, the pair style, the separator, the keys and units, records as lines, dicts, JSON, headed blocks and
tables), each with the values it prints read back as the expectation. The inferred reading must read nearly all of
them: a change that breaks one axis (a separator, a counter form) breaks many logs at once and shows here."""

from __future__ import annotations

import importlib.util
import random
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _module(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    assert spec.loader is not None
    spec.loader.exec_module(module)
    return module


LAYOUTS = _module("synthetic_layouts")
READER = _module("read_unseen")


def test_nearly_every_common_layout_reads_right(tmp_path):
    rng = random.Random(7)
    wrong: list[str] = []
    axes: Counter[str] = Counter()
    n = 60
    for i in range(n):
        name, text, entry = LAYOUTS.one_log(rng, i)
        (tmp_path / f"{name}.log").write_text(text)
        result = READER.read_excerpt(tmp_path, name, entry)
        if result["differences"]:
            wrong.append(f"{name}: {result['differences'][0]}")
            axes.update(f"{k}={v}" for k, v in entry["axes"].items())
    # (the few that fail are layouts a reader cannot settle: `key value` pairs split by tabs read as table cells)
    assert len(wrong) <= n // 30, "\n".join(wrong) + f"\nby axis: {axes.most_common(6)}"
