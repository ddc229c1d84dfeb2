"""Phases: warmup end, the stable window, dips grouped into events, and post-restart warmups.

The rules are stated, not tuned per run (peers_and_needs.md §3.4): the reference throughput is the
median of the run's second half and its noise the scaled MAD there; warmup ends at the first step
from which a few consecutive steps sit inside the noise band; a dip is a step more than
max(5 sigma, 10%) below the reference (Falcon's "at least 10% shift"); consecutive dip steps form one
event. No smoothing happens before detection.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

DIP_FLOOR = 0.10  # a dip is at least 10% below the reference ...
DIP_SIGMAS = 5.0  # ... and at least 5 noise sigmas below it
BAND_SIGMAS = 3.0  # warmup is over when steps stay within 3 sigmas (at least 3%) of the reference
BAND_FLOOR = 0.03
NEAR_EVENT_STEPS = 1  # events this many log rows before a dip count as near it


@dataclass
class Dip:
    start_step: int
    end_step: int
    rows: int
    min_ratio: float  # lowest throughput / reference
    min_mfu: float | None
    lost_s: float | None
    near_events: list[dict[str, Any]] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        return {
            "start_step": self.start_step,
            "end_step": self.end_step,
            "log_rows": self.rows,
            "depth": round(1.0 - self.min_ratio, 4),
            "min_mfu": None if self.min_mfu is None else round(self.min_mfu, 4),
            "lost_s": None if self.lost_s is None else round(self.lost_s, 3),
            "near_events": self.near_events,
        }


@dataclass
class Phases:
    reference: float | None  # steady-state throughput (the speed series' unit)
    noise: float | None  # relative noise (sigma / reference)
    warmup_end_step: int | None  # first stable step
    warmup_steps: int | None
    stable_mask: pd.Series  # aligned with the steps frame, False where no stable window was found
    dips: list[Dip]
    rule: str

    def stable_rows(self, steps: pd.DataFrame) -> pd.DataFrame:
        return steps[self.stable_mask]


def speed_series(steps: pd.DataFrame) -> tuple[pd.Series, str]:
    """What phases are judged on: tokens/s when known, else 1 / step time (same shape)."""
    if "tokens_per_s" in steps and steps["tokens_per_s"].notna().any():
        return steps["tokens_per_s"].astype(float), "tokens/s"
    if "step_time_s" in steps and steps["step_time_s"].notna().any():
        t = steps["step_time_s"].astype(float)
        return 1.0 / t.where(t > 0), "steps/s"
    return pd.Series(np.nan, index=steps.index), "none"


def detect_phases(steps: pd.DataFrame, events: pd.DataFrame) -> Phases:
    speed, unit = speed_series(steps)
    valid = speed.notna() & np.isfinite(speed) & (speed > 0)
    phase = pd.Series(pd.NA, index=steps.index, dtype="object")
    if valid.sum() < 3:
        steps["phase"] = phase
        return Phases(None, None, None, None, pd.Series(False, index=steps.index), [], "too few timed steps")

    x = speed[valid]
    tail = x.iloc[len(x) // 2 :]
    ref = float(tail.median())
    mad = float((tail - ref).abs().median()) * 1.4826
    noise = mad / ref if ref > 0 else 0.0
    band = max(BAND_SIGMAS * noise, BAND_FLOOR)
    dip_thr = max(DIP_SIGMAS * noise, DIP_FLOOR)
    k = int(min(5, max(2, len(x) // 20)))

    phase.loc[valid] = "stable"
    warmup_end_step: int | None = None
    warmup_steps: int | None = None
    for seg, idx in steps[valid].groupby("segment").groups.items():
        xs = x.loc[idx].to_numpy()
        inside = xs >= ref * (1 - band)
        start = next((i for i in range(len(xs)) if inside[i : i + k].all()), len(xs))
        label = "warmup" if seg == 0 else "restart"
        phase.loc[idx[:start]] = label
        if seg == 0 and start < len(xs):
            warmup_end_step = int(steps.at[idx[start], "step"])
            # optimizer steps before the stable window: up to the last warmup row's step
            warmup_steps = int(steps.at[idx[start - 1], "step"]) if start > 0 else 0

    ratio = speed / ref
    is_dip = (phase == "stable") & (ratio < 1 - dip_thr)
    phase.loc[is_dip] = "dip"
    steps["phase"] = phase

    stable = phase == "stable"
    dips = _group_dips(steps, is_dip, ratio, stable, events)
    rule = (
        f"reference = median {unit} of the second half ({ref:.4g}); noise = 1.4826 MAD = {noise:.2%}; "
        f"warmup ends when {k} consecutive steps are within {band:.1%} of the reference; "
        f"dip = more than {dip_thr:.1%} below the reference"
    )
    return Phases(ref, noise, warmup_end_step, warmup_steps, stable, dips, rule)


def _group_dips(
    steps: pd.DataFrame, is_dip: pd.Series, ratio: pd.Series, stable: pd.Series, events: pd.DataFrame
) -> list[Dip]:
    if not is_dip.any():
        return []
    ref_time = None
    if "step_time_s" in steps and steps.loc[stable, "step_time_s"].notna().any():
        ref_time = float(steps.loc[stable, "step_time_s"].median())
    positions = np.flatnonzero(is_dip.to_numpy())
    groups: list[list[int]] = [[positions[0]]]
    for p in positions[1:]:
        if p - groups[-1][-1] <= 2:  # one normal row inside a dip does not split it
            groups[-1].append(p)
        else:
            groups.append([p])
    dips: list[Dip] = []
    for g in groups:
        rows = steps.iloc[g[0] : g[-1] + 1]
        in_dip = rows[is_dip.iloc[g[0] : g[-1] + 1].to_numpy()]
        lost = None
        if ref_time is not None and "step_time_s" in rows:
            extra = (in_dip["step_time_s"] - ref_time).clip(lower=0) * in_dip["step_span"]
            lost = float(extra.sum())
        min_mfu = None
        if "mfu" in rows and in_dip["mfu"].notna().any():
            min_mfu = float(in_dip["mfu"].min())
        lo_pos = max(0, g[0] - NEAR_EVENT_STEPS)
        lo_line = int(steps["line"].iloc[lo_pos]) if lo_pos < g[0] else int(rows["line"].iloc[0]) - 1
        hi_line = int(rows["line"].iloc[-1])
        near: list[dict[str, Any]] = []
        if not events.empty:
            ev = events[(events["line"] > lo_line) & (events["line"] <= hi_line)]
            for _, e in ev.head(10).iterrows():
                item = {"event": e["event"], "line": int(e["line"]), "text": e["text"]}
                if "step" in e and not pd.isna(e["step"]):
                    item["step"] = int(e["step"])
                near.append(item)
        dips.append(
            Dip(
                start_step=int(rows["step"].iloc[0]),
                end_step=int(rows["step"].iloc[-1]),
                rows=len(in_dip),
                min_ratio=float(ratio.loc[in_dip.index].min()),
                min_mfu=min_mfu,
                lost_s=lost,
                near_events=near,
            )
        )
    return dips
