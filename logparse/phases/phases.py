"""Phases: regimes and the shifts between them, warmup end, the stable window, dips grouped into
events, and post-restart warmups.

The rules are stated, not tuned per run (peers_and_needs.md §3.4): the run is cut into regimes of
steady speed (regimes.py: a lasting change of more than 10% is a shift); each regime's reference is
its median and its noise the scaled MAD of its later half; warmup ends at the first step from which a
few consecutive steps sit inside the noise band of their regime; a dip is a step more than
max(5 sigma, 10%) below its regime (Falcon's "at least 10% shift") and consecutive dip steps form one
event. The stable window is one regime, the one that took most of the wall time: it never blends two.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core.summary_types import DipPart, NearEventPart
from ..frame.assemble import Averaging
from ..steps.kinds import Word
from ..steps.segments import SegmentRows
from ..steps.stepframe import flagged, windowed
from ..steps.timing import Throughput
from .regimes import SHIFT_MIN, Piece, find_regimes, shift_rows

DIP_FLOOR = 0.10  # a dip is at least 10% below the reference ...
DIP_SIGMAS = 5.0  # ... and at least 5 noise sigmas below it
BAND_SIGMAS = 3.0  # warmup is over when steps stay within 3 sigmas (at least 3%) of the reference
BAND_FLOOR = 0.03
NEAR_EVENT_STEPS = 1  # events this many log rows before a dip count as near it


class Phase(Word):
    """A step's phase (the step frame's `phase` column; NA for a step without a speed)."""

    WARMUP = "warmup"  # the first attempt's rows before the speed settles in its regime's band
    RESTART = "restart"  # a later attempt's rows before it settles again
    STABLE = "stable"  # settled
    DIP = "dip"  # settled, but well below the regime's level


@dataclass
class Dip:
    start_step: int
    end_step: int
    rows: int
    min_ratio: float  # lowest throughput / reference
    min_mfu: float | None
    lost_s: float | None
    near_events: list[NearEventPart] = field(default_factory=list)

    def as_dict(self) -> DipPart:
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
class Regime:
    start_step: int
    end_step: int
    rows: int
    level: float  # median speed (the speed series' unit)
    noise: float  # relative noise (sigma / level) in its later half
    wall_s: float | None  # wall time of its rows, when step times are known


@dataclass
class Shift:
    at_step: int
    line: int
    before: int  # index of the regime before
    after: int
    change: float  # relative change of the speed (after / before - 1)
    near_events: list[NearEventPart] = field(default_factory=list)


@dataclass
class Phases:
    reference: float | None  # steady-state throughput of the stable regime (the speed series' unit)
    noise: float | None  # relative noise (sigma / reference) of the stable regime
    warmup_end_step: int | None  # first stable step
    warmup_steps: int | None
    stable_mask: pd.Series  # aligned with the steps frame: stable rows of the stable regime
    dips: list[Dip]
    rule: str
    regimes: list[Regime] = field(default_factory=list)
    shifts: list[Shift] = field(default_factory=list)
    stable_regime: int | None = None
    lag_rows: int = 0  # how many rows the speed series lags the work it measures (a windowed average)

    def stable_rows(self, steps: pd.DataFrame) -> pd.DataFrame:
        """The stable phase's rows, without the odd step whose timing is impossible (flagged mfu_above_100).
        When most are impossible the inputs are wrong, not the steps: they stay, and the summary refuses."""
        rows = steps[self.stable_mask]
        bad = flagged(rows, "mfu_above_100")
        if bad.any() and bad.mean() < 0.5:
            rows = rows[~bad]
        return rows


def speed_series(steps: pd.DataFrame) -> tuple[pd.Series, str]:
    """What phases are judged on: tokens/s when known, else 1 / step time (same shape)."""
    if "tokens_per_s" in steps and steps["tokens_per_s"].notna().any():
        return steps["tokens_per_s"].astype(float), "tokens/s"
    if "step_time_s" in steps and steps["step_time_s"].notna().any():
        t = steps["step_time_s"].astype(float)
        return 1.0 / t.where(t > 0), "steps/s"
    return pd.Series(np.nan, index=steps.index), "none"


def choose_speed(
    steps: pd.DataFrame, windows: dict[str, Averaging], throughput: Throughput | None
) -> tuple[pd.Series, str, int, str]:
    """The speed series phases judge, and how many rows it lags the work it measures.

    Resolve already prefers a per-step signal (the step's own time, a precise clock) over a figure
    averaged over a window; when the log has only the average, its edges are moved back by the window."""
    speed, unit = speed_series(steps)
    # the logged column the speed was computed from (steps.timing.fill_throughput says which)
    col = throughput.column if throughput is not None and unit == "tokens/s" else "step_time_s"
    if not windowed(steps, col):
        return speed, unit, 0, ""
    averaging = windows.get(col)
    w = averaging["window"] if averaging else None
    if w == "first_value":
        first = steps[col].notna().to_numpy().argmax()
        w = int(steps["step_span"].iloc[:first].sum()) or None
    if isinstance(w, int) and w > 1:
        span = float(steps["step_span"].median()) or 1.0
        return speed, unit, max(1, math.ceil(w / span)), f"an average over the last {w} steps"
    return speed, unit, 0, ""


def moving_average_lag(window_rows: int, position: int) -> int:
    """How far a mean over the last `window_rows` rows lags the rows it averages, at a row
    `position` rows into the series: half its span (its centroid), the span being shorter while the
    window is still filling (OLMo averages whatever it has; Composer prints nothing until full)."""
    return max(0, (min(window_rows, position) - 1) // 2)


def _climbing(x: np.ndarray) -> bool:
    """A ramp, not a level: its last third runs more than SHIFT_MIN above its first third."""
    third = max(1, len(x) // 3)
    return bool(np.median(x[-third:]) > np.median(x[:third]) * (1 + SHIFT_MIN))


def _noise(x: np.ndarray, level: float) -> float:
    tail = x[len(x) // 2 :]
    return float(np.median(np.abs(tail - level))) * 1.4826 / level if level > 0 and len(tail) else 0.0


def detect_phases(
    steps: pd.DataFrame,
    events: pd.DataFrame,
    windows: dict[str, Averaging] | None = None,
    throughput: Throughput | None = None,
) -> Phases:
    """Regimes, warmup, dips and shifts of the speed series (see choose_speed); writes each row's `phase`
    and `regime` into `steps`."""
    speed, unit, lag_rows, signal = choose_speed(steps, windows or {}, throughput)
    valid = speed.notna() & np.isfinite(speed) & (speed > 0)
    phase = pd.Series(pd.NA, index=steps.index, dtype="object")
    if valid.sum() < 3:
        steps["phase"] = phase
        return Phases(None, None, None, None, pd.Series(False, index=steps.index), [], "too few timed steps")

    x = speed[valid]
    xv = x.to_numpy()
    idx = x.index
    pieces = _merge_leading_warmup(xv, find_regimes(xv))
    regime_of, level, noises, band, dip_thr = _bands(xv, pieces)
    k = int(min(5, max(2, len(x) // 20)))

    phase.loc[idx] = Phase.STABLE
    at_stable = valid.to_numpy(dtype=bool).copy()  # (the rows `phase` says are stable, kept beside it)
    regime = pd.Series(pd.NA, index=steps.index, dtype="Int64")
    regime.loc[idx] = regime_of
    warmup_end_step, warmup_steps = _mark_warmup(
        steps, phase, at_stable, valid, xv, level * (1 - band), k, lag_rows
    )

    ratio = speed / pd.Series(level, index=idx).reindex(steps.index)
    thr = pd.Series(dip_thr, index=idx).reindex(steps.index)
    is_dip = pd.Series(at_stable, index=steps.index) & (ratio < 1 - thr)
    phase.loc[is_dip] = Phase.DIP
    steps["phase"] = phase
    steps["regime"] = regime

    regimes = _regimes(steps, pieces, idx, noises)
    weights = [r.wall_s if r.wall_s is not None else float(r.rows) for r in regimes]
    chosen = int(np.argmax(weights))
    stable = pd.Series(at_stable & ~is_dip.to_numpy(dtype=bool), index=steps.index) & (
        regime == chosen
    ).fillna(False).astype(bool)
    dips = _group_dips(steps, is_dip, ratio, stable, events)
    shifts = _shifts(steps, pieces, idx, events, lag_rows)
    ref, ref_noise = pieces[chosen].level, noises[chosen]
    rule = _rule(len(regimes), unit, len(xv), chosen, ref, ref_noise, k, signal, lag_rows)
    return Phases(
        ref, ref_noise, warmup_end_step, warmup_steps, stable, dips, rule, regimes, shifts, chosen, lag_rows
    )


def _merge_leading_warmup(xv: np.ndarray, pieces: list[Piece]) -> list[Piece]:
    """A leading piece below the next that is still climbing, or lies in the first quarter, is warmup:
    it joins the next piece (repeatedly)."""
    while (
        len(pieces) > 1
        and pieces[0].level < pieces[1].level * (1 - SHIFT_MIN)
        and (pieces[0].end <= 0.25 * len(xv) or _climbing(xv[pieces[0].start : pieces[0].end]))
    ):
        pieces = [Piece(0, pieces[1].end, pieces[1].level), *pieces[2:]]
    return pieces


def _bands(
    xv: np.ndarray, pieces: list[Piece]
) -> tuple[np.ndarray, np.ndarray, list[float], np.ndarray, np.ndarray]:
    """Per valid row: its regime, the regime's level, and the relative band (warmup ends inside it) and dip
    threshold the regime's noise gives; with each regime's noise."""
    regime_of = np.zeros(len(xv), dtype=int)
    for r, p in enumerate(pieces):
        regime_of[p.start : p.end] = r
    level = np.array([p.level for p in pieces], dtype=np.float64)[regime_of]
    noises = [_noise(xv[p.start : p.end], p.level) for p in pieces]
    noise = np.array(noises, dtype=np.float64)[regime_of]
    band = np.maximum(BAND_SIGMAS * noise, BAND_FLOOR)
    dip_thr = np.maximum(DIP_SIGMAS * noise, DIP_FLOOR)
    return regime_of, level, noises, band, dip_thr


def _mark_warmup(
    steps: pd.DataFrame,
    phase: pd.Series,
    at_stable: np.ndarray,
    valid: pd.Series,
    xv: np.ndarray,
    floor: np.ndarray,
    k: int,
    lag_rows: int,
) -> tuple[int | None, int | None]:
    """Label each attempt's rows before `k` consecutive rows reach their regime's band (`floor`, per valid
    row): warmup in the first attempt, restart in later ones (in `phase`; `at_stable`, per row, loses them).
    Returns the first stable step and the optimizer steps before it, for the first attempt."""
    warmup_end_step: int | None = None
    warmup_steps: int | None = None
    # the first attempt is the rows' first segment: 0, or a later run of the file (--segment, the last run)
    first = steps["segment"].min() if len(steps) else 0
    rows = np.flatnonzero(valid.to_numpy(dtype=bool))  # (each valid row's place in `steps`; xv's order)
    segment = steps["segment"].to_numpy()[rows]
    attempts = SegmentRows(segment)
    for seg in np.unique(segment).tolist():
        pos = attempts.at(seg)
        seg_idx = steps.index[rows[pos]]
        inside = xv[pos] >= floor[pos]
        start = next((i for i in range(len(pos)) if inside[i : i + k].all()), len(pos))
        if seg == first and 0 < start < len(pos) and lag_rows:
            # a windowed speed reaches the band late: by its window's centroid
            first_value = int(np.argmax(valid.loc[seg_idx[0] :].to_numpy())) if len(seg_idx) else 0
            start = max(1, start - moving_average_lag(lag_rows, start + first_value))
        label = Phase.WARMUP if seg == first else Phase.RESTART
        phase.loc[seg_idx[:start]] = label
        at_stable[rows[pos[:start]]] = False
        if seg == first and start < len(pos):
            warmup_end_step = int(steps.at[seg_idx[start], "step"])
            # the optimizer steps the attempt's rows stand for up to its last warmup row (an untimed first row
            # among them): counted, not that row's number, which counts them only in a log that starts at step
            # 1 (one that counts from 0, or starts part-way, said otherwise)
            warmup_steps = 0
            if start > 0:
                mine = np.flatnonzero(steps["segment"].to_numpy() == seg)
                upto = mine[mine <= rows[pos[start - 1]]]
                warmup_steps = int(steps["step_span"].iloc[upto].sum())
    return warmup_end_step, warmup_steps


def _rule(
    n_regimes: int,
    unit: str,
    n_rows: int,
    chosen: int,
    ref: float,
    ref_noise: float,
    k: int,
    signal: str,
    lag_rows: int,
) -> str:
    """The sentence that says how the phases were found."""
    rule = (
        f"{n_regimes} regime(s) found by change points on log {unit} (binary segmentation, a shift = more "
        f"than {SHIFT_MIN:.0%} for at least {shift_rows(n_rows)} rows); the stable window is regime "
        f"{chosen}, which took the most wall time; its reference = median {unit} ({ref:.4g}), noise = 1.4826 "
        f"MAD = {ref_noise:.2%}; warmup ends when {k} consecutive steps are within max(3 sigma, 3%) of their "
        f"regime; dip = more than max(5 sigma, 10%) below it"
    )
    if signal and lag_rows:
        rule += (
            f"; the speed is {signal}, so warmup and shift edges are moved back by half that window "
            f"(its centroid), {moving_average_lag(lag_rows, n_rows)} row(s) once it has filled"
        )
    return rule


def _regimes(steps: pd.DataFrame, pieces: list[Piece], idx: pd.Index, noises: list[float]) -> list[Regime]:
    out = []
    wanted = [
        c for c in ("step", "step_time_s", "step_span") if c in steps
    ]  # (not every column of every row)
    for p, nz in zip(pieces, noises, strict=True):
        rows = steps.loc[idx[p.start : p.end], wanted]
        wall = None
        if "step_time_s" in rows and rows["step_time_s"].notna().any():
            wall = float((rows["step_time_s"] * rows["step_span"]).sum())
        out.append(
            Regime(int(rows["step"].iloc[0]), int(rows["step"].iloc[-1]), len(rows), p.level, nz, wall)
        )
    return out


def _shifts(
    steps: pd.DataFrame, pieces: list[Piece], idx: pd.Index, events: pd.DataFrame, lag_rows: int
) -> list[Shift]:
    out = []
    for i in range(1, len(pieces)):
        at = max(pieces[i - 1].start + 1, pieces[i].start - moving_average_lag(lag_rows, pieces[i].start))
        row = steps.loc[idx[at]]
        lo = int(steps.loc[idx[max(0, at - 3)], "line"])
        hi = int(steps.loc[idx[min(len(idx) - 1, at + 1)], "line"])
        out.append(
            Shift(
                at_step=int(row["step"]),
                line=int(row["line"]),
                before=i - 1,
                after=i,
                change=pieces[i].level / pieces[i - 1].level - 1,
                near_events=_events_between(events, lo, hi),
            )
        )
    return out


def _events_between(events: pd.DataFrame, lo_line: int, hi_line: int) -> list[NearEventPart]:
    near: list[NearEventPart] = []
    if events.empty:
        return near
    ev = events[(events["line"] > lo_line) & (events["line"] <= hi_line)]
    for _, e in ev.head(10).iterrows():
        item: NearEventPart = {"event": e["event"], "line": int(e["line"]), "text": e["text"]}
        if "step" in e and not pd.isna(e["step"]):
            item["step"] = int(e["step"])
        near.append(item)
    return near


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
        near = _events_between(events, lo_line, hi_line)
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
