"""Segments: what a step counter going back means, and a numbering that loses no step.

Part of the resolve stage. A counter goes back for three reasons, and each is handled differently:

- ``epoch``: the counter counts batches within an epoch (Lightning's and NeMo's bars, Composer's
  ``[epoch=N][batch=M/T]``, NeMo 2.0's printer). Steps continue: from the printed global step where the
  line has one, else from epoch x steps per epoch.
- ``restart``: the job was resumed (from a checkpoint, or from scratch) with the same configuration.
  The later attempt wins the steps it logs again; earlier steps it never repeats stay as rows.
- ``new_run``: another run was appended to the same file (its counter's total or its configuration
  differs). Nothing is dropped; the analysis covers the last run unless told otherwise.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd

from ..core.errors import flag
from ..core.summary_types import SegmentPart
from ..core.warnings import RunWarning
from .kinds import SegmentKind

# Facts that identify a run: when one of them changes across a counter going back, it is another run.
RUN_IDENTITY = (
    "train_iters",
    "global_batch_size",
    "micro_batch_size",
    "seq_len",
    "num_layers",
    "hidden_size",
    "num_attention_heads",
    "world_size",
    "num_examples",
    "steps_per_epoch",
    "vocab_size",
)
EXACT_PRINTED_STEP = 1e5  # Lightning's format_num prints a float global step exactly below this


@dataclass
class Segment:
    """One stretch of rows between counter resets: kind start | epoch | restart | new_run."""

    kind: SegmentKind
    first_step: int
    last_step: int
    line: int  # first line of the stretch
    segment: int  # the `segment` column of its rows (attempts and runs; epochs do not start one)
    run: int  # which run of the file (0 = the first)
    epoch: int | None = None
    reason: str = ""

    def as_dict(self) -> SegmentPart:
        out: SegmentPart = {
            "kind": self.kind,
            "first_step": self.first_step,
            "last_step": self.last_step,
            "line": self.line,
            "segment": self.segment,
            "run": self.run,
        }
        if self.epoch is not None:
            out["epoch"] = self.epoch
        if self.reason:
            out["reason"] = self.reason
        return out


class SegmentRows:
    """The positions of each attempt's (`segment`'s) rows in a frame, in frame order, found by one stable sort:
    a log cut into thousands of attempts took a masked look at every row for each (split_segments, the ledger's
    timeline, the warm-up of each attempt)."""

    def __init__(self, segment: np.ndarray) -> None:
        self.order = np.argsort(segment, kind="stable")
        self.sorted = segment[self.order]

    def at(self, seg: int) -> np.ndarray:
        """The rows of attempt `seg` (none when it has none)."""
        return self.spanning(seg, seg + 1)

    def spanning(self, first: int, stop: int) -> np.ndarray:
        """The rows of attempts first..stop-1, attempt by attempt."""
        a, b = np.searchsorted(self.sorted, [first, stop], side="left")
        return self.order[a:b]


def reference_rows(steps: pd.DataFrame) -> pd.DataFrame:
    """The rows of the rank that prints most (all rows when the log has no rank prefixes), in line order."""
    ref = steps
    if "rank" in steps and steps["rank"].notna().any():
        counts = steps["rank"].value_counts()
        ref_rank = sorted(counts[counts == counts.max()].index)[0]
        ref = steps[steps["rank"] == ref_rank]
    if ref["line"].is_monotonic_increasing:
        return ref  # (rows come in line order: a stable sort would give them back as they are)
    return ref.sort_values("line", kind="stable")


# ------------------------------------------------------------------------------------------------
# per-epoch counters


def continue_epochs(
    steps: pd.DataFrame, counter: str, grad_accum: int | None, warnings: list[RunWarning]
) -> tuple[pd.DataFrame, bool, str | None]:
    """Number rows whose counter restarts each epoch as steps since the run began.

    `counter` is "step" (it counts optimizer steps) or "micro_step" (micro-batches: rows are grouped
    into optimizer steps and each step keeps the row that completes it). Returns the rows, whether
    an epoch boundary was crossed, and how the steps were numbered (None when nothing was done)."""
    has_epoch = "epoch_index" in steps and steps["epoch_index"].notna().any()
    if not has_epoch or counter not in steps:
        return steps, False, None
    rows = steps[steps[counter].notna() & steps["epoch_index"].notna()]
    if rows.empty:
        return steps, False, None
    steps = steps.copy()
    epoch = steps["epoch_index"]
    pos = steps[counter].astype(float)
    total = steps["progress_total"] if "progress_total" in steps else pd.Series(np.nan, index=steps.index)
    how: list[str] = []

    if counter == "micro_step":
        g = grad_accum or 1
        if grad_accum is None:
            warnings.append(
                RunWarning(
                    "the progress bar counts micro-batches and the gradient accumulation is not stated: each "
                    f"micro-batch is read as an optimizer step (pass {flag('grad_accum')})",
                    "grad_accum_unknown",
                )
            )
        within = np.ceil(pos / g)  # the optimizer step (from 1) that this micro-batch belongs to
        # position 0 is a bar drawn before the epoch's first batch: no step yet
        completes = ((pos % g == 0) | (pos == total)) & (pos > 0)
        per_epoch = np.ceil(total / g)
        how.append(
            f"the bar's micro-batch position m within the epoch -> optimizer step ceil(m / {g}); each step "
            f"takes its values from the redraw that completes it (m a multiple of {g}, or the epoch's last batch)"
        )
    else:
        within = pos
        completes = pd.Series(True, index=steps.index)
        per_epoch = total.astype(float)

    offset = _epoch_offsets(steps, epoch, within, per_epoch, how)
    numbered = steps[counter].notna() & epoch.notna()
    steps.loc[numbered, "step"] = (offset + within)[numbered]
    dropped = numbered & ~completes.fillna(False).astype(bool)
    if dropped.any():
        steps = steps[~dropped]
    crossed = steps["epoch_index"].dropna().nunique() > 1
    if not crossed and counter == "step":
        return steps, False, None
    return steps, crossed, "; ".join(how)


def _epoch_offsets(
    steps: pd.DataFrame, epoch: pd.Series, within: pd.Series, per_epoch: pd.Series, how: list[str]
) -> pd.Series:
    """Steps before each row's epoch: from a printed global step, else epoch x steps per epoch, else
    the steps counted in the epochs seen before (per rank)."""
    offset = pd.Series(np.nan, index=steps.index)
    if "global_step" in steps and steps["global_step"].notna().any():
        gs = steps["global_step"]
        exact = gs.notna() & (gs < EXACT_PRINTED_STEP) & within.notna()
        if exact.any():
            # the printed global step may lag the counter by a fixed amount (a bar shows the previous
            # batch's metrics): only its change from epoch to epoch is used
            lag = (gs[exact].round() - within[exact]).groupby(epoch[exact]).median()
            base = lag.iloc[0]
            offset = epoch.map(lag - base)
            how.append("epochs continue from the printed global step")
    missing = offset.isna() & epoch.notna()
    if missing.any() and per_epoch[missing].notna().all() and per_epoch[missing].nunique() == 1:
        spe = float(per_epoch[missing].iloc[0])
        offset[missing] = epoch[missing] * spe
        how.append(f"step = epoch x {spe:g} steps per epoch (the counter's printed total) + position")
    missing = offset.isna() & epoch.notna()
    if missing.any():
        # no total: each epoch adds the largest position its rows reached (per rank)
        ranks = steps["rank"] if "rank" in steps else pd.Series(None, index=steps.index)
        for _, idx in steps[missing].groupby(ranks[missing].fillna(-1), sort=False).groups.items():
            e = epoch.loc[idx]
            per = within.loc[idx].groupby(e).max()
            cum = per.cumsum().shift(1, fill_value=0)
            offset.loc[idx] = e.map(cum)
        how.append("epochs continue after the largest position the previous epoch reached")
    return offset.fillna(0)


# ------------------------------------------------------------------------------------------------
# restarts and appended runs


def boundaries(steps: pd.DataFrame, events: pd.DataFrame) -> list[int]:
    """Lines where a new attempt or run begins: the step counter goes back (on the rank that prints
    most), or a start / checkpoint-load line appears after steps were logged."""
    if steps.empty:
        return []
    ref = reference_rows(steps)
    s = ref["step"].to_numpy()
    lines = ref["line"].to_numpy()
    found = {int(line) for line in lines[1:][s[1:] < s[:-1]]}
    if not events.empty and "event" in events:
        first_line = int(steps["line"].min())
        for line in events.loc[events["event"].isin(["start", "checkpoint_load"]), "line"]:
            if line > first_line:
                # (ref is in line order) the first step line after the marker, when steps came before it too
                after = int(np.searchsorted(lines, line, side="right"))
                if after < len(lines) and np.searchsorted(lines, line, side="left") > 0:
                    found.add(int(lines[after]))
    return sorted(found)


def new_run_reason(
    old: pd.DataFrame, new: pd.DataFrame, facts: dict[str, list[Any]], boundary_line: int
) -> str:
    """Why the rows after `boundary_line` are another run, or "" when they continue the same one."""
    if "progress_total" in old and "progress_total" in new:
        a, b = old["progress_total"].dropna(), new["progress_total"].dropna()
        if len(a) and len(b):
            was, now = _commonest(a), _commonest(b)
            if was != now:
                return f"the counter's total changes from {int(was):,} to {int(now):,}"
    old_epochs = "epoch_index" in old and old["epoch_index"].notna().any()
    new_epochs = "epoch_index" in new and new["epoch_index"].notna().any()
    if old_epochs != new_epochs:
        return "the step counter changes form (per epoch vs whole run)"
    old_last = int(old["line"].max())
    for name in RUN_IDENTITY:
        obs = facts.get(name, [])
        before = [o for o in obs if o.line <= old_last]
        between = [o for o in obs if old_last < o.line < boundary_line]
        if before and between and _differs(before[-1].value, between[-1].value):
            return f"{name} changes from {before[-1].value} to {between[-1].value} (line {between[-1].line})"
    return ""


def _commonest(values: pd.Series) -> Any:
    """The value seen most often, the smallest of those tied (Series.mode().iloc[0]; numbers without NaN at once,
    as a log cut into thousands of attempts asks for two an attempt)."""
    if values.dtype.kind in "iuf":
        seen, counts = np.unique(values.to_numpy(), return_counts=True)
        return seen[int(np.argmax(counts))]
    return values.mode().iloc[0]


def _differs(a: Any, b: Any) -> bool:
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return not math.isclose(float(a), float(b), rel_tol=1e-9)
    return a != b
