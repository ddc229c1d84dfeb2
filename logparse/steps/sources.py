"""Sources: when two lines give one step's speed, which one to believe.

A log can hold two figures for the same quantity of the same step. Megatron-DeepSpeed prints Megatron's
iteration line (`elapsed time per iteration (ms): 75249.6 | ... samples per second: 27.216`) and DeepSpeed's
throughput timer (`CurrSamplesPerSec=291.6`), which times only part of the step: on SuperBench's two-node
fixture the timer reads 10.7x the real rate. Merging the two rows of a step by line order would take whichever
came first. Instead:

1. `keep_apart`, before a step's rows merge: a rate column that rows of two different patterns fill on the same
   step is also kept per pattern (`samples_per_s@deepspeed.throughput_timer`).
2. `settle`, once the batch, sequence length and GPU count are known: each candidate's figure is turned into
   the step time it implies, and compared with the step's wall clock (differences of the log's timestamps,
   else a step time no candidate disputes). The candidate whose implied time agrees with the clock wins; a
   rejected one that differs beyond noise gives a warning with both figures. Without any clock, the detected
   family's own line (the step record) wins, and the warning says there was nothing to check it against.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.summary_types import RejectedPart, SourcePart
from ..core.warnings import RunWarning

RATES = ("step_time_s", "samples_per_s", "tokens_per_s", "tokens_per_s_per_gpu")
SEP = "@"
NOISE = 0.10  # two figures of one step's speed further apart than this are two different measurements

_WHAT = {
    "step_time_s": "step time",
    "samples_per_s": "samples per second",
    "tokens_per_s": "tokens per second",
    "tokens_per_s_per_gpu": "tokens per second per GPU",
}


@dataclass
class Rejected:
    """A pattern's figure for a rate that was not believed, and how far it is from the chosen one."""

    pattern: str
    median: float
    ratio_to_chosen: float
    implied_step_time_s: float

    def as_dict(self) -> RejectedPart:
        return {
            "pattern": self.pattern,
            "median": self.median,
            "ratio_to_chosen": self.ratio_to_chosen,
            "implied_step_time_s": self.implied_step_time_s,
        }


@dataclass
class Choice:
    """Which pattern's figure was believed for a rate two patterns gave (summary.json's `sources`)."""

    quantity: str
    chosen: str
    reference: str
    rejected: list[Rejected]

    def as_dict(self) -> SourcePart:
        return {
            "quantity": self.quantity,
            "chosen": self.chosen,
            "checked_against": self.reference,
            "rejected": [r.as_dict() for r in self.rejected],
        }


def repeats_steps(steps: pd.DataFrame) -> bool:
    """Whether two rows have the same (segment, step): `duplicated(...).any()`, answered at once when the rows
    come in (segment, step) order (one rank printing each step once, or ranks printing each step in turn)."""
    seg, step = steps["segment"].to_numpy(), steps["step"].to_numpy()
    if seg.dtype.kind in "iu" and step.dtype.kind in "iuf" and len(step) > 1:
        d_seg, d_step = np.diff(seg), np.diff(step)
        if ((d_seg > 0) | ((d_seg == 0) & (d_step >= 0))).all():
            return bool(((d_seg == 0) & (d_step == 0)).any())
    return bool(steps.duplicated(["segment", "step"]).any())


def keep_apart(steps: pd.DataFrame) -> pd.DataFrame:
    """Where rows of two patterns give the same rate for the same step, keep each pattern's value in its own
    column, so that merging the step's rows cannot choose between them by line order."""
    if "pattern" not in steps or not repeats_steps(steps):
        return steps
    for col in RATES:
        if col not in steps:
            continue
        has = steps[col].notna()
        if steps.loc[has, "pattern"].nunique() < 2:
            continue
        per_step = steps.loc[has].groupby(["segment", "step"])["pattern"].nunique()
        if not (per_step > 1).any():
            continue
        for pattern in steps.loc[has, "pattern"].unique():
            steps[f"{col}{SEP}{pattern}"] = steps[col].where(steps["pattern"] == pattern)
    return steps


def _implied_time(steps: pd.DataFrame, col: str, values: pd.Series, gpus: float) -> pd.Series:
    """The step time a figure implies."""
    if col == "step_time_s":
        return values
    if col == "samples_per_s":
        return steps["global_batch_size"] / values
    if col == "tokens_per_s":
        return steps["tokens_per_step"] / values
    return steps["tokens_per_step"] / (values * gpus)


def median_ratio(a: pd.Series, b: pd.Series) -> float | None:
    """The median of a / b over the rows where both give a positive finite ratio; None where none does."""
    r = (a / b).replace([np.inf, -np.inf], np.nan).dropna()
    r = r[r > 0]
    return float(r.median()) if len(r) else None


def settle(
    steps: pd.DataFrame,
    gpus: float,
    clock: tuple[pd.Series, str] | None,
    primary: str,
    warnings: list[RunWarning],
) -> list[Choice]:
    """Choose, for every rate that two patterns gave, the one consistent with the step's wall clock; fill
    the canonical column from it and keep the rejected figures as `<column>@<pattern>`."""
    choices: list[Choice] = []
    for col in RATES:
        cands = [c for c in steps.columns if c.startswith(col + SEP)]
        if len(cands) < 2:
            continue
        ref, ref_name = _reference_time(steps, col, clock)
        implied = {c: _implied_time(steps, col, steps[c], gpus) for c in cands}
        off: dict[str, float | None] = {
            c: None if ref is None else median_ratio(implied[c], ref) for c in cands
        }
        checked = {c: r for c, r in off.items() if r is not None}
        if checked:
            best = min(checked, key=lambda c: abs(np.log(checked[c])))
            reference = ref_name
        else:
            # nothing to check against: the detected family's own step line is the record
            own = [c for c in cands if c.split(SEP, 1)[1].startswith(primary + ".")]
            best = own[0] if own else max(cands, key=lambda c: int(steps[c].notna().sum()))
            reference = "nothing (no clock in the log): the step record's own line is kept"
        rejected = _keep_best(steps, col, cands, best, implied)
        choice = Choice(col, best.split(SEP, 1)[1], reference, rejected)
        choices.append(choice)
        if rejected:
            warnings.append(RunWarning(_sentence(choice, steps, col, implied[best], ref), "sources_disagree"))
    return choices


def _reference_time(
    steps: pd.DataFrame, col: str, clock: tuple[pd.Series, str] | None
) -> tuple[pd.Series | None, str]:
    """What the candidates are checked against: the log's per-step clock, else the logged step time when
    only one line gave it (and `col` is not the step time itself), else nothing."""
    if clock is not None:
        return clock
    if (
        col != "step_time_s"
        and "step_time_s" in steps
        and not any(c.startswith("step_time_s" + SEP) for c in steps.columns)
    ):
        return steps["step_time_s"], "the logged step time"
    return None, ""


def _keep_best(
    steps: pd.DataFrame, col: str, cands: list[str], best: str, implied: dict[str, pd.Series]
) -> list[Rejected]:
    """Fill `col` from the chosen candidate (in place): a candidate within NOISE of it is the same
    measurement and fills the steps it alone gives; the others stay as `<column>@<pattern>` and are
    returned, with how far they are off."""
    rejected = []
    filled = steps[best].copy()
    for c in cands:
        if c == best:
            continue
        ratio = median_ratio(steps[c], steps[best])
        if ratio is None or abs(ratio - 1) <= NOISE:
            filled = filled.fillna(steps[c])  # the same measurement: fill the steps it alone gives
            del steps[c]
            continue
        rejected.append(
            Rejected(c.split(SEP, 1)[1], float(steps[c].median()), ratio, float(implied[c].median()))
        )
    steps[col] = filled
    del steps[best]
    return rejected


def _sentence(
    choice: Choice, steps: pd.DataFrame, col: str, chosen_time: pd.Series, ref: pd.Series | None
) -> str:
    what = _WHAT[col]
    kept = float(steps[col].median())
    parts = [
        f"{r.pattern} gives {r.median:,.4g} ({r.ratio_to_chosen:.1f}x, implying {r.implied_step_time_s:,.3g} s "
        "per step)"
        for r in choice.rejected
    ]
    if ref is not None:
        why = (
            f"the step's wall time ({float(ref.median()):,.3g} s by {choice.reference}) agrees with "
            f"{choice.chosen} ({float(chosen_time.median()):,.3g} s per step)"
        )
    else:
        why = "the log has no clock to check either against, so the step record's own line is kept"
    return (
        f"two sources disagree on {what}: {choice.chosen} gives {kept:,.4g} and {'; '.join(parts)}; {why}: "
        f"used {choice.chosen}, rejected {', '.join(r.pattern for r in choice.rejected)} "
        f"(its figures stay in steps.csv as {col}{SEP}<pattern>)"
    )
