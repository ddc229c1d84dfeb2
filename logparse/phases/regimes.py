"""Regimes: the stretches of a run at one steady speed, and the lasting shifts between them.

Part of the phases stage. A lasting change in throughput (more than SHIFT_MIN for at least
`min_rows` log rows) is a shift, not a dip and not a trend. Change points come from binary
segmentation with a least-squares cost on the log of the speed (binary_segmentation: the cuts of
ruptures' Binseg, in numpy), after a running median that removes anything shorter than a shift (so
transient dips cannot split a regime). Binary segmentation rather than PELT: ruptures' PELT is pure
Python and quadratic here (25 s for 2,000 points on one core), binary segmentation takes milliseconds,
and a series longer than MAX_POINTS is binned first. The penalty is a BIC-style 2 sigma^2 log n on the filtered series; candidates are then
merged until neighbouring regimes differ by more than SHIFT_MIN, so the penalty only has to be
sensitive enough, not tuned per run.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..frame.fastlane import native_module

SHIFT_MIN = 0.10  # a shift changes throughput by more than 10% ...
SHIFT_ROWS = 20  # ... for at least 20 log rows, or
SHIFT_SHARE = 0.05  # ... 5% of the run's rows (whichever is fewer, but never under MIN_ROWS)
MIN_ROWS = 8
MAX_POINTS = 2000  # longer series are binned (medians) before change-point search


@dataclass
class Piece:
    start: int  # position in the series (inclusive)
    end: int  # position (exclusive)
    level: float  # median speed


def shift_rows(n: int) -> int:
    """How many rows a change must last to be a shift rather than a dip."""
    return max(MIN_ROWS, min(SHIFT_ROWS, math.ceil(SHIFT_SHARE * n)))


def find_regimes(speed: np.ndarray) -> list[Piece]:
    """Pieces of `speed` (positive, finite, in row order) at distinct steady levels."""
    n = len(speed)
    if n == 0:
        return []
    m = shift_rows(n)
    if n < 2 * m:
        return [Piece(0, n, float(np.median(speed)))]
    y = np.log(speed)
    # a running median as wide as a shift removes dips shorter than one; level edges survive it
    filtered = running_median(y, 2 * (m // 2) + 1)
    # refined cuts can land on one another: each piece must hold rows (an empty one has no median)
    cuts = sorted({c for c in _change_points(filtered, y, m) if 0 < c < n})
    pieces = [Piece(a, b, float(np.median(speed[a:b]))) for a, b in zip([0, *cuts], [*cuts, n], strict=True)]
    return _merge(pieces, speed, m)


def running_median(y: np.ndarray, window: int) -> np.ndarray:
    """`Series(y).rolling(window, center=True, min_periods=1).median()` for an odd window and no NaN: in the C
    extension where it is built (_native.c `medians`, the same values: 0.13 s against 0.45 s for 2.4 M rows)."""
    native = native_module()
    if native is None or not np.isfinite(y).all():
        return pd.Series(y).rolling(window, center=True, min_periods=1).median().to_numpy()
    out = np.empty(len(y), dtype=np.float64)
    native.medians(np.ascontiguousarray(y, dtype=np.float64), window, out)
    return out


def _change_points(filtered: np.ndarray, raw: np.ndarray, m: int) -> list[int]:
    n = len(filtered)
    binsize = max(1, math.ceil(n / MAX_POINTS))
    nb = n // binsize
    series = filtered[: nb * binsize].reshape(nb, binsize).mean(axis=1) if binsize > 1 else filtered
    d = np.diff(raw)
    sigma = 1.4826 * float(np.median(np.abs(d - np.median(d)))) / math.sqrt(2) if len(d) else 0.0
    # noise left after the running median, with a floor so a perfectly flat series does not split on rounding
    sigma_f = max(sigma * 1.25 / math.sqrt(m), 1e-3)
    pen = 2 * sigma_f**2 * math.log(max(nb, 2)) * binsize
    min_size = max(2, m // binsize)
    cuts = [min(n, b * binsize) for b in binary_segmentation(series, pen, min_size)]
    return [_refine(raw, c, binsize, m) for c in cuts]


def binary_segmentation(x: np.ndarray, pen: float, min_size: int) -> list[int]:
    """Change points of `x` by binary segmentation under the least-squares cost, as ruptures'
    Binseg(model="l2", jump=1).predict(pen=pen) finds them (without its scipy import, 0.6 s of a small
    run's start-up): while some segment's best split lowers the cost by more than `pen`, split the
    segment whose split gains most; a split leaves at least `min_size` points each side. Costs come from
    prefix sums of the centred series. Returns the sorted cuts (no end point)."""
    x = np.asarray(x, dtype=float)
    x = x - x.mean() if len(x) else x
    s1 = np.concatenate([[0.0], np.cumsum(x)])
    s2 = np.concatenate([[0.0], np.cumsum(x * x)])

    def cost(a: np.ndarray | int, b: np.ndarray | int) -> np.ndarray:
        total = s1[b] - s1[a]
        return (s2[b] - s2[a]) - total * total / (np.asarray(b) - np.asarray(a))

    def best(a: int, b: int) -> tuple[int | None, float]:
        cands = np.arange(a + min_size, b - min_size + 1)
        if not len(cands):
            return None, 0.0
        gains = cost(a, b) - cost(a, cands) - cost(cands, b)
        top = np.flatnonzero(gains == gains.max())[-1]  # ruptures: max((gain, bkp)) takes the last of ties
        return int(cands[top]), float(gains[top])

    bkps = [len(x)]
    while True:
        found = [best(a, b) for a, b in zip([0, *bkps[:-1]], bkps, strict=True)]
        cut, gain = max(found, key=lambda f: f[1])
        if cut is None or not gain > pen:
            return bkps[:-1]
        bkps = sorted([*bkps, cut])


def _refine(y: np.ndarray, cut: int, binsize: int, m: int) -> int:
    """Move a cut found on binned data to the best split of the raw rows near it (least squares on
    medians of the rows either side)."""
    lo, hi = max(1, cut - binsize - m // 2), min(len(y) - 1, cut + binsize + m // 2)
    best, best_cost = cut, math.inf
    for c in range(lo, hi + 1):
        left, right = y[max(0, c - m) : c], y[c : c + m]
        if len(left) == 0 or len(right) == 0:
            continue
        cost = float(np.abs(left - np.median(left)).sum() + np.abs(right - np.median(right)).sum())
        if cost < best_cost:
            best, best_cost = c, cost
    return best


def _merge(pieces: list[Piece], speed: np.ndarray, m: int) -> list[Piece]:
    """Join pieces until each lasts at least `m` rows and neighbours differ by more than SHIFT_MIN."""

    def join(i: int) -> None:
        a, b = pieces[i], pieces[i + 1]
        pieces[i : i + 2] = [Piece(a.start, b.end, float(np.median(speed[a.start : b.end])))]

    while len(pieces) > 1:
        short = [i for i, p in enumerate(pieces) if p.end - p.start < m]
        if short:
            i = min(short, key=lambda j: pieces[j].end - pieces[j].start)
            # a short piece joins the neighbour nearer its level
            if i == 0:
                join(0)
            elif i == len(pieces) - 1:
                join(i - 1)
            else:
                left = abs(math.log(pieces[i - 1].level / pieces[i].level))
                right = abs(math.log(pieces[i + 1].level / pieces[i].level))
                join(i - 1 if left <= right else i)
            continue
        gaps = [_change(pieces[i].level, pieces[i + 1].level) for i in range(len(pieces) - 1)]
        i = int(np.argmin(gaps))
        if gaps[i] > SHIFT_MIN:
            break
        join(i)
    return pieces


def _change(a: float, b: float) -> float:
    """Relative size of a change between two levels (the larger read as the base)."""
    return abs(a - b) / max(a, b)
