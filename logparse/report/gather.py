"""The report's figures gathered from a run's frames (pandas): its `ReportData` (figdata.py), which the drawing
process draws without pandas, and the event lane's marks."""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..steps.run import Run
from ..steps.stepframe import flagged
from .analysis import Findings
from .figdata import DRAWN, ReportData
from .styles import EVENT_STYLES, dip_cause


def report_data(analysis: Findings) -> ReportData:
    """What the report of `analysis` draws, in step order."""
    steps = analysis.run.steps  # in step order (a resumed attempt's rows ran last)
    if not steps["step"].is_monotonic_increasing:
        steps = steps.sort_values("step", kind="stable")
    series = {
        col: pd.to_numeric(steps[col], errors="coerce").to_numpy(dtype=float)
        for col in DRAWN
        if col in steps and steps[col].notna().any()
    }
    runs = pd.to_numeric(steps["run"], errors="coerce").dropna().astype(int) if "run" in steps else []
    restarts = []
    warmup_end = None
    if "phase" in steps:
        for _seg, rows in steps[steps["phase"] == "restart"].groupby("segment"):
            restarts.append((float(rows["step"].min()), float(rows["step"].max())))
        warm = steps.loc[steps["phase"] == "warmup", "step"]
        warmup_end = float(warm.max()) if len(warm) else None
    return ReportData(
        summary=analysis.summary,
        x=steps["step"].to_numpy(dtype=float),
        series=series,
        gaps=flagged(steps, "nonfinite_", "malformed", prefix=True),
        impossible=flagged(steps, "mfu_above_100"),
        marks=event_marks(analysis),
        runs=tuple(int(r) for r in np.unique(np.asarray(runs, dtype=np.int64))),
        restarts=restarts,
        warmup_end=warmup_end,
    )


def event_marks(analysis: Findings) -> dict[str, np.ndarray]:
    """Mark kind -> the steps it happened at (sorted, one per step): the event lines the patterns tag
    (checkpoint save/load, eval, NCCL and other errors, overflow), non-finite and skipped steps, restarts,
    and dips as `dip:<cause>`. An event line without a step is placed by its line number between the
    step lines around it."""
    s = analysis.summary
    steps = analysis.run.steps
    found: dict[str, list[float]] = {}

    events = analysis.run.parsed.events
    if not events.empty and len(steps):
        _line_marks(events, analysis.run, found)

    step = steps["step"].to_numpy(dtype=float) if len(steps) else np.array([])
    for kind in ("nonfinite_loss", "nonfinite_grad_norm"):
        bad = flagged(steps, kind)
        if bad.any():
            found.setdefault(kind, []).extend(step[bad])
    if "nan_iters" in steps:  # Megatron counts the iterations of the interval whose loss was NaN or inf
        found.setdefault("nonfinite_loss", []).extend(step[_positive(steps["nan_iters"])])
    if "skipped_iters" in steps:
        found.setdefault("skipped", []).extend(step[_positive(steps["skipped_iters"])])
    if "skipped_total" in steps:  # a running count (DeepSpeed): skips happened where it grows
        by_line = steps.sort_values("line", kind="stable")
        total = pd.to_numeric(by_line["skipped_total"], errors="coerce")
        grew = total.diff().fillna(total) > 0
        found.setdefault("skipped", []).extend(by_line["step"].to_numpy(dtype=float)[grew.to_numpy()])

    for r in s.get("restarts", []):
        at_step = r["resumed_from"] if r.get("resumed_from") is not None else r["at_step"]
        found.setdefault("restart", []).append(float(at_step))
    for d in s.get("dips", []):
        found.setdefault(f"dip:{dip_cause(d)}", []).append((d["start_step"] + d["end_step"]) / 2)
    return {k: np.unique(np.asarray(v, dtype=float)) for k, v in found.items() if len(v)}


def _line_marks(events: pd.DataFrame, run: Run, found: dict[str, list[float]]) -> None:
    """event_marks of the event lines: each at its own step, or placed between the step lines around it."""
    kind, names = _event_kinds(events)
    by_line = _step_lines(run)
    at, between = _event_steps(events, by_line)
    # the gap each event line with its own step falls in: a line without one in the same gap (the
    # save-checkpoint timer after "saving checkpoint at iteration 100") is the same event
    lines = by_line["line"].to_numpy(dtype=float)
    gap_of = np.searchsorted(lines, pd.to_numeric(events["line"], errors="coerce").to_numpy(dtype=float))
    own = between < 0
    shown = np.array([name in EVENT_STYLES for name in names], dtype=bool)[kind] & np.isfinite(at)
    mark = own & shown
    for name in sorted({names[k] for k in np.unique(kind[mark]).tolist()}):
        found.setdefault(name, []).extend(at[mark & (kind == names.index(name))].tolist())
    # a placed line is one event with the others of its kind in its gap: skipped when one with its own
    # step is there, else the first of its kind there stands for them (in line order)
    width = len(lines) + 2
    where = kind * width + gap_of
    gap = kind * width + np.maximum(between, 0)
    mine = np.sort(pd.unique(where[own]))
    chosen = np.flatnonzero(~own & shown)
    chosen = chosen[~_among(where[chosen], mine) & ~_among(gap[chosen], mine)]
    seen: set[int] = set()  # (NeMo's 5 validation lines between two step lines are one event)
    for i, w, g in zip(chosen.tolist(), where[chosen].tolist(), gap[chosen].tolist(), strict=True):
        if w not in seen and g not in seen:
            seen.add(g)
            found.setdefault(names[kind[i]], []).append(float(at[i]))


def _among(values: np.ndarray, sorted_set: np.ndarray) -> np.ndarray:
    """np.isin(values, sorted_set) for a sorted set (one search, no sort of both)."""
    if not len(sorted_set):
        return np.zeros(len(values), dtype=bool)
    at = np.minimum(np.searchsorted(sorted_set, values), len(sorted_set) - 1)
    return sorted_set[at] == values


def _event_kinds(events: pd.DataFrame) -> tuple[np.ndarray, list[str]]:
    """Each event line's mark kind as a code into the names: its event, `skipped` for an overflow, and
    `nccl_error` for an error its pattern or text says is NCCL's."""
    codes, uniques = pd.factorize(events["event"].astype(str))
    shown = ["skipped" if str(u) == "overflow" else str(u) for u in uniques]
    names = list(dict.fromkeys([*shown, "nccl_error"]))
    # (a missing event, code -1, takes the appended 0: the first name)
    kind = np.array([*(names.index(name) for name in shown), 0], dtype=np.int64)[codes]
    errors = (
        np.flatnonzero(kind == names.index("error")) if "error" in names else np.array([], dtype=np.int64)
    )
    if len(errors):
        part = events.iloc[errors]
        nccl = (
            part["pattern"].astype(str).str.endswith(".nccl").to_numpy()
            | part["text"].astype(str).str.contains("NCCL", regex=False).to_numpy()
        )
        kind[errors[nccl]] = names.index("nccl_error")
    return kind, names


def _positive(col: pd.Series) -> np.ndarray:
    return (pd.to_numeric(col, errors="coerce").fillna(0) > 0).to_numpy()


def _step_lines(run) -> pd.DataFrame:
    """(line, step) of every step line, by line. The matched lines themselves when their counter is the
    steps' (it keeps the steps a restart redid, which the step frame replaced); else the step frame."""
    steps = run.steps[["line", "step"]].dropna()
    raw = run.parsed.rows
    if {"kind", "line", "step"} <= set(raw.columns):
        raw = raw.loc[raw["kind"] == "step", ["line", "step"]].dropna()
        if _same_steps_by_line(steps, raw):
            steps = raw
    steps = steps.astype(float)
    return steps if steps["line"].is_monotonic_increasing else steps.sort_values("line", kind="stable")


def _same_steps_by_line(steps: pd.DataFrame, raw: pd.DataFrame) -> bool:
    """Whether every line both frames hold (one at least) has one step in each, the same. Each line's least and
    greatest step compared, not each pair of rows of a line: a progress bar redrawn on one physical line puts
    thousands of rows on it, and their pairs grew as its square (40,000 redraws: 1.6e9 pairs)."""
    mine = steps.groupby("line")["step"].agg(["min", "max"]).astype(float)
    theirs = raw.groupby("line")["step"].agg(["min", "max"]).astype(float)
    theirs.columns = ["min_raw", "max_raw"]
    both = mine.join(theirs, how="inner")
    if not len(both):
        return False
    low, high = both["min"].to_numpy(), both["max"].to_numpy()
    one = (low == high) & (high == both["min_raw"].to_numpy()) & (low == both["max_raw"].to_numpy())
    return bool(one.all())


def _event_steps(events: pd.DataFrame, by_line: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The step of each event line: its own when it names one, else placed by its line number between
    the step lines before and after it (at the one before when the counter goes back, as after a
    restart; at the first or last step outside them). With it, for the lines placed, how many step lines
    come before them (-1 for lines with their own step)."""
    own = (
        pd.to_numeric(events["step"], errors="coerce").to_numpy(dtype=float)
        if "step" in events
        else np.full(len(events), np.nan)
    )
    lines = by_line["line"].to_numpy(dtype=float)
    at = by_line["step"].to_numpy(dtype=float)
    ev_line = pd.to_numeric(events["line"], errors="coerce").to_numpy(dtype=float)
    if not len(lines):
        return own, np.full(len(events), -1)
    i = np.searchsorted(lines, ev_line, side="right")
    before = np.clip(i - 1, 0, len(lines) - 1)
    after = np.clip(i, 0, len(lines) - 1)
    span = lines[after] - lines[before]
    with np.errstate(divide="ignore", invalid="ignore"):
        frac = np.where(span > 0, (ev_line - lines[before]) / span, 0.0)
    placed = np.where(at[after] >= at[before], at[before] + frac * (at[after] - at[before]), at[before])
    placed = np.where(np.isfinite(ev_line), placed, np.nan)
    return np.where(np.isfinite(own), own, placed), np.where(np.isfinite(own), -1, i)
