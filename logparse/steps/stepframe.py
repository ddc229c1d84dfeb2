"""The step frame's internal columns, and the one place that reads or writes them.

Every stage after `frame` handles one pandas frame with a row per optimizer step. Besides the columns the
pattern sets fill (schema.STEP_ORDER), it carries bookkeeping columns that this module owns:

- `flags`: a comma-joined list of names a step was flagged with (`nonfinite_<col>`, `malformed`, `cut`,
  `bad_step_time`, `consumed_jump`, `mfu_above_100`, `skipped_nan`: iterations the framework stepped over
  for a NaN or infinite loss or gradient); written by `add_flag`, merged by `merge_flags`, read by
  `flagged`.
- `windowed`: the comma-joined columns whose value the pattern set declares as an average over a window;
  read by `windowed`, cleared for a column by `unmark_windowed`.
- the log's cadence (how many steps apart it prints them), computed by `log_cadence`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.facts import Fact


def add_flag(steps: pd.DataFrame, mask: pd.Series, flag: str) -> None:
    """Append `flag` to the `flags` of the rows in `mask` (in place)."""
    if not mask.any():
        return
    if "flags" not in steps:
        steps["flags"] = None
    current = steps.loc[mask, "flags"]
    steps.loc[mask, "flags"] = [flag if pd.isna(c) or not c else f"{c},{flag}" for c in current]


def flagged(steps: pd.DataFrame, *flags: str, prefix: bool = False) -> np.ndarray:
    """Rows carrying any of `flags` (add_flag's names; with `prefix`, any flag starting with one of them)."""
    if "flags" not in steps:
        return np.zeros(len(steps), dtype=bool)
    split = steps["flags"].fillna("").astype(str).str.split(",")
    if prefix:
        return split.apply(lambda fs: any(f.startswith(flags) for f in fs)).to_numpy(dtype=bool)
    return split.apply(lambda fs: any(f in fs for f in flags)).to_numpy(dtype=bool)


def merge_flags(flags: pd.Series) -> str | None:
    """The flags of several rows that become one step (ranks, repeated lines): every name once, sorted."""
    return ",".join(sorted({x for v in flags.dropna() for x in v.split(",")})) or None


def windowed(steps: pd.DataFrame, col: str) -> bool:
    """Most rows took `col` from a field the pattern set declares as an average over a window."""
    if "windowed" not in steps or col not in steps:
        return False
    has = steps[col].notna()
    marked = steps.loc[has, "windowed"].fillna("").str.split(",").apply(lambda cs: col in cs)
    return bool(has.any() and marked.mean() > 0.5)


def unmark_windowed(steps: pd.DataFrame, col: str) -> None:
    """`col` no longer holds a windowed value (it was replaced by a per-step one): drop its mark (in place)."""
    if "windowed" in steps:
        steps["windowed"] = steps["windowed"].str.replace(col, "", regex=False)


def log_cadence(steps: pd.DataFrame, facts: dict[str, Fact]) -> int | None:
    """How many steps apart the log prints them: its stated log interval, else the typical gap."""
    if "log_interval" in facts and facts["log_interval"].value:
        return int(facts["log_interval"].value)
    d = steps.sort_values("line")["step"].diff()
    d = d[d > 0]
    return int(d.median()) if len(d) else None
