"""The fixed window performance teams report over, beside the automatic stable phase.

Peers each average a fixed stretch of steps: NVIDIA dgxc-benchmarking's llmb-run iterations 35-44 and its
parse_train_timing.sh 11-44, CloudAI's Megatron report the last 10 iterations, gpu-recipes' MFU calculator steps
10-30, CloudAI's JAX report everything after the first 10. `--window A:B` selects steps A..B in the log's own
numbering, `--last N` the last N logged steps and `--skip N` every logged step after the first N; and
`stats` gives each figure over the window's logged steps the way those tools compute it: the mean of the logged
figures (step time, the framework's TFLOP/s) as CloudAI and llmb-run average them, the mean of a rate logparse
derives from step time as total work / total time (gpu-recipes divides by the mean step time), the median,
min and max, the population standard deviation (`std`, as CloudAI's `pstdev`) and the sample one
(`std_sample`, as llmb-run's `statistics.stdev`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import cast

import numpy as np
import pandas as pd
import regex

from ..core.errors import LogparseError, UsageError, flag
from ..core.summary_types import FigureStatsPart, WindowPart

FIGURES = (
    "step_time_s",
    "tokens_per_s",
    "tokens_per_s_per_gpu",
    "samples_per_s",
    "tflops_per_gpu",
    "mfu",
    "hfu",
    "reported_tflops_per_gpu",
    "reported_mfu",
    "reported_hfu_tflops_per_gpu",
    "loss",
)


@dataclass
class Window:
    rows: pd.DataFrame
    rule: str
    complete: bool
    note: str | None


def numbering_basis(steps: pd.DataFrame) -> int | None:
    """0 when the log counts its first step 0, 1 when it counts it 1, None when the log does not show
    its first step (a resumed run, a log interval above 1)."""
    if steps.empty:
        return None
    first = int(steps.loc[steps["segment"] == steps["segment"].min(), "step"].min())
    return first if first in (0, 1) else None


def parse_range(text: str) -> tuple[int | None, int | None]:
    m = regex.fullmatch(r"\s*(\d*)\s*[:-]\s*(\d*)\s*", text)
    if m is None or not (m.group(1) or m.group(2)):
        raise UsageError(
            f"{flag('window', repr(text))}: give the first and last step as A:B (e.g. 35:44, 10:, :100)"
        )
    a = int(m.group(1)) if m.group(1) else None
    b = int(m.group(2)) if m.group(2) else None
    if a is not None and b is not None and b < a:
        raise UsageError(f"{flag('window', repr(text))}: the last step {b} comes before the first {a}")
    return a, b


def check_asked(window: str | None, last: int | None, skip: int | None) -> bool:
    """Whether a window is asked for; UsageError for one that no log could give (two of them at once, a
    --window that is not A:B), so that it is refused before a log is read."""
    asked = [x for x in (window, last, skip) if x is not None]
    if len(asked) > 1:
        raise UsageError(f"give one of {flag('window')}, {flag('last')} and {flag('skip')}, not several")
    if window is not None:
        parse_range(window)
    return bool(asked)


def select(
    steps: pd.DataFrame, window: str | None, last: int | None, skip: int | None, every: int = 1
) -> Window | None:
    """The rows of the window asked for, None when none was asked. `every`: how many steps apart the log
    prints them (Run.cadence), to tell a missing step from the log's own interval."""
    if not check_asked(window, last, skip):
        return None
    logged = steps["step"]
    if window is not None:
        a, b = parse_range(window)
        lo = a if a is not None else int(logged.min())
        hi = b if b is not None else int(logged.max())
        rows = steps[(logged >= lo) & (logged <= hi)]
        rule = f"steps {lo}..{hi} (--window {window})"
        note = None
        # every step of the window logged, at the log's own cadence (dgxc's llmb-run: a missing one = incomplete)
        inside = rows["step"].to_numpy()
        gaps = [int(a) for a, b in zip(inside[:-1], inside[1:], strict=True) if b - a > every]
        if not (int(logged.min()) <= lo and int(logged.max()) >= hi):
            note = f"the window {lo}..{hi} is not complete: the log's steps run {int(logged.min())}..{int(logged.max())}"
        elif gaps:
            note = f"the window {lo}..{hi} is not complete: the log skips the step(s) after {', '.join(map(str, gaps))}"
        complete = note is None
    elif last is not None:
        if last < 1:
            raise UsageError(f"{flag('last')} must be at least 1 (got {last})")
        rows = steps.tail(last)
        complete = len(steps) >= last
        rule = f"the last {last} logged steps (--last {last})"
        note = None if complete else f"--last {last}: the log has only {len(steps)} steps"
    else:
        assert skip is not None
        if skip < 0:
            raise UsageError(f"{flag('skip')} must be at least 0 (got {skip})")
        rows = steps.iloc[skip:]
        complete = len(rows) > 0
        rule = f"every logged step after the first {skip} (--skip {skip})"
        note = None if complete else f"--skip {skip}: the log has only {len(steps)} steps"
    if rows.empty:
        raise LogparseError(
            f"the window asked for ({rule}) holds no logged step: the log's steps run "
            f"{int(logged.min())}..{int(logged.max())}"
        )
    return Window(rows, rule, complete, note)


def _describe(values: pd.Series) -> FigureStatsPart | None:
    v = values.replace([np.inf, -np.inf], np.nan).dropna().astype(float)
    if v.empty:
        return None
    return {
        "mean": float(v.mean()),
        "median": float(v.median()),
        "min": float(v.min()),
        "max": float(v.max()),
        "std": float(v.std(ddof=0)),
        "std_sample": float(v.std(ddof=1)) if len(v) > 1 else 0.0,
    }


# rates logparse derives from each step's time: their mean over the window is total work / total time (the
# rate at the mean step time, as gpu-recipes computes it), not the mean of per-step rates
RATES = ("tokens_per_s", "tokens_per_s_per_gpu", "samples_per_s", "tflops_per_gpu", "mfu", "hfu")


def weighted_mean(values: pd.Series, weights: pd.Series) -> float:
    """The mean of `values` where they are known, each weighted by its row's `weights`: with a row's time as
    its weight, a rate's mean is total work / total time. The window weighs each logged row by its step time
    (stats); the stable phase (report.outputs) by the time the row stands for, step time x step_span."""
    ok = values.notna()
    return float((values[ok] * weights[ok]).sum() / weights[ok].sum())


def stats(w: Window) -> WindowPart:
    rows = w.rows
    time = rows["step_time_s"] if "step_time_s" in rows else None
    timed = time is not None and bool(time.notna().all()) and bool((time > 0).all())
    figures: dict[str, FigureStatsPart | None] = {}
    for col in FIGURES:
        fig = _describe(rows[col]) if col in rows else None
        if fig is not None and time is not None and col in RATES and timed:
            fig["mean"] = weighted_mean(rows[col], time)
        figures[col] = fig
    out = cast(
        WindowPart,
        {
            "rule": w.rule,
            "count": len(rows),
            "first_step": int(rows["step"].iloc[0]),
            "last_step": int(rows["step"].iloc[-1]),
            "complete": w.complete,
            "statistics": "over the logged steps: the mean of a rate derived from step time (tokens/s, TFLOP/s, MFU) "
            "is total work / total time, every other figure (step time, the log's own figures) a plain mean; median, "
            "min and max per step; std is the population standard deviation, std_sample the sample one",
            **figures,  # FIGURES, in the summary's order
        },
    )
    if w.note:
        out["note"] = w.note
    return out
