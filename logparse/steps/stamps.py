"""Stamps: which of a log's timestamps cannot be the time their line was written.

A log is written in time order, so its stamps, read in line order, go forward. Two rules find the stamps that
do not, and the wall time and the ledger leave them out (a single line stamped 9999-12-31 made a one-hour run
last 8,000 years):

- out of line: a stamp that jumps away from the stamps around it and comes back. Each stamp is compared with
  the median of the NEIGHBOURS stamps before it and of those after it; it is out of line when the two medians
  agree (time runs on across it) and it is later than both by more than the tolerance, or earlier than both
  (at the log's start, later than the stamps after it; at its end, earlier than those before it). A run that
  pauses for weeks and goes on jumps forward and stays there: the stamps after the pause agree with those after
  them, the stamps before it with those before them, and none is out of line. A clock set back once (a change
  of time zone, two runs concatenated out of order) is no excursion either: across it the medians disagree.
  The medians make three stray stamps in a row as plain as one. The tolerance is TOLERANCE_GAPS typical gaps
  between stamps, at least TOLERANCE_S (ranks' clocks and buffered output disagree by seconds).
- impossible: a stamp later than the moment it is read (plus a day: a local time read as UTC runs ahead by up
  to 14 hours), or before the year patterns.sets.NO_YEAR (a stamp without a year is read in it; no log here is
  older); applied when most stamps are possible, so that a set which reads something else as a stamp (seconds
  since the run began) keeps its clock.
"""

from __future__ import annotations

import time
from datetime import datetime, timezone

import numpy as np
import pandas as pd

from ..core.warnings import RunWarning
from ..patterns.sets import NO_YEAR
from .stepframe import add_flag

NEIGHBOURS = 7
TOLERANCE_S = 60.0
TOLERANCE_GAPS = 10
AHEAD_S = 86_400.0
EARLIEST = datetime(NO_YEAR, 1, 1, tzinfo=timezone.utc).timestamp()


def stray_stamps(stamps: np.ndarray, now: float | None = None) -> np.ndarray:
    """Which of `stamps` (epoch seconds in line order, NaN where a line has none) are out of line or impossible
    (the module's rules); `now`: the moment they are read (the clock's, by default)."""
    t = np.asarray(stamps, dtype=float)
    stray = np.zeros(len(t), dtype=bool)
    at = np.flatnonzero(np.isfinite(t))
    if not len(at):
        return stray
    s = t[at]
    latest = (time.time() if now is None else now) + AHEAD_S
    possible = (s >= EARLIEST) & (s <= latest)
    if EARLIEST <= float(np.median(s)) <= latest:
        stray[at[~possible]] = True
        at, s = at[possible], s[possible]
    if len(s) >= 3:
        stray[at[_out_of_line(s)]] = True
    return stray


def _out_of_line(s: np.ndarray) -> np.ndarray:
    """The out-of-line rule on stamps that all have a value."""
    gaps = np.diff(s)
    forward = gaps[gaps > 0]
    tol = max(TOLERANCE_S, TOLERANCE_GAPS * float(np.median(forward))) if len(forward) else TOLERANCE_S
    if float(np.max(np.maximum.accumulate(s) - s)) <= tol:
        # no stamp is more than the tolerance before one printed above it: nothing jumps away and back
        return np.zeros(len(s), dtype=bool)
    series = pd.Series(s)
    before = series.rolling(NEIGHBOURS, min_periods=1).median().shift(1).to_numpy()
    after = series[::-1].rolling(NEIGHBOURS, min_periods=1).median()[::-1].shift(-1).to_numpy()
    has_before, has_after = np.isfinite(before), np.isfinite(after)
    with np.errstate(invalid="ignore"):
        # (time runs on across the stamp: where the stamps after it are earlier than those before, the clock
        # itself went back there, and the stamp belongs to one side or the other)
        runs_on = ~has_before | ~has_after | (after >= before - tol)
        ahead = has_after & (s > after + tol) & (~has_before | (s > before + tol))
        behind = has_before & (s < before - tol) & (~has_after | (s < after - tol))
    return (ahead | behind) & runs_on


def drop_stray_stamps(steps: pd.DataFrame, warnings: list[RunWarning], now: float | None = None) -> None:
    """The step rows' stray stamps (stray_stamps) left out (NaN), their rows flagged `stray_stamp`, and said once
    (in place)."""
    if "timestamp" not in steps:
        return
    stamps = pd.to_numeric(steps["timestamp"], errors="coerce").to_numpy(dtype=float)
    stray = stray_stamps(stamps, now)
    if not stray.any():
        return
    first = int(np.flatnonzero(stray)[0])
    line = int(steps["line"].iloc[first])
    warnings.append(
        RunWarning(
            f"{stamp_lines(int(stray.sum()))} out of line with the stamps around them or at an impossible time "
            f"(first on line {line}: {stamp_text(stamps[first])}): left out of the step times, the wall time and "
            "the ledger",
            "stray_stamp",
            line=line,
        )
    )
    steps.loc[stray, "timestamp"] = np.nan
    add_flag(steps, pd.Series(stray, index=steps.index), "stray_stamp")


def stamp_lines(n: int) -> str:
    """`n` lines "stamped", as a warning starts."""
    return f"{n} line{'' if n == 1 else 's'} stamped"


def stamp_text(t: float) -> str:
    """A stamp as a person reads it: its UTC date and time, or the number when no calendar holds it."""
    try:
        return datetime.fromtimestamp(t, tz=timezone.utc).strftime("%Y-%m-%d %H:%M:%S")
    except (OverflowError, OSError, ValueError):
        return f"{t:g} s since 1970"
