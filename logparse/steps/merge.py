"""One row per (segment, step): the rows several ranks (or one rank twice: DeepSpeed) printed for a step merge.

`merge_duplicates` is pandas' `groupby(["segment", "step"], sort=False)` with `first` (each column's first
non-null value, in the rows' order), the smallest line, the number of distinct ranks, the step time's spread
and its slowest rank. `merge_grouped` says so in pandas and is the reference; where the keys are integers
(always, after resolve has split the attempts) the same answer is computed with one stable sort and
`reduceat`, which for 8 ranks of a 1 GiB log (2.4 M rows) is 0.1 s against pandas' 0.7 s.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from ..core.schema import SCOPED_COLUMNS, STEP_COLUMNS
from ..patterns.infer import MAX_RANKS
from .stepframe import merge_flags

KEY = ["segment", "step"]

# what a line of another rank gives the step as it is: the row's structure, and the step's time, of which the
# slowest rank's is the step's (merge_duplicates)
SHARED = frozenset({"step", "progress_total", "epoch_index", "timestamp", "rank", "step_time_s"})


def ranks_apart(steps: pd.DataFrame) -> pd.DataFrame:
    """Step rows the inferred reading read from several ranks' lines (`rank 1: step 10/80 | loss ...`, or each
    line behind its launcher's `[rank1]:`), each with its own values: the lowest rank's are the run's, another
    rank's are kept beside them as x_<column>_rank<N> (as compose.py keeps another rank's prints), so that
    merging a step's rows cannot take one rank's loss for the run's by the order the lines arrived in. The
    parsed frame keeps each line's own values."""
    if "pattern" not in steps or "rank" not in steps or steps.empty:
        return steps
    inferred = steps["pattern"].astype(str).str.startswith("generic.")
    rank = pd.to_numeric(steps["rank"].where(inferred), errors="coerce")
    ranks = sorted(rank.dropna().unique())
    if not 2 <= len(ranks) <= MAX_RANKS:
        return steps
    other = rank.notna() & (rank != ranks[0])
    steps = steps.copy()
    for col in [c for c in steps.columns if _value_column(c)]:
        has = other & steps[col].notna()
        if not has.any():
            continue
        for r in rank[has].unique():
            mine = has & (rank == r)
            steps.loc[mine, f"x_{col}_rank{int(r)}"] = steps.loc[mine, col]
        steps.loc[has, col] = np.nan
    return steps


def _value_column(column: str) -> bool:
    """A column of a value a line prints (not the row's structure, nor a value every rank shares, nor the loss of
    an evaluation joined to the step's row: the evaluation's, whichever rank's row it joined)."""
    if column in SHARED or column == "eval_loss":
        return False
    return (
        column in STEP_COLUMNS
        or column.startswith(("x_", "reported_"))
        or column.split("_per_gpu")[0] in SCOPED_COLUMNS
    )


class StepGroups:
    """The rows of each (segment, step) pair, sorted (stably) by the pair and then by any further keys:
    `order` is that sort (None where the rows are already in it), `starts` the sorted positions where a pair
    begins, `appearance` the pairs in the order of their first row (pandas' `sort=False`)."""

    def __init__(self, keys: list[np.ndarray]):
        n = len(keys[0])
        if n < 2 or all(_nondecreasing(keys)):
            self.order = None  # already in order (one rank, or ranks printing each step in turn)
            sorted_keys = keys
        else:
            self.order = np.lexsort(keys[::-1])  # lexsort sorts by its last key first
            sorted_keys = [k[self.order] for k in keys]
        self.n = n
        self.changes = [np.r_[True, k[1:] != k[:-1]] for k in sorted_keys]  # where each key changes
        new = self.changes[0] | self.changes[1]
        self.starts = np.flatnonzero(new)
        self.first = self.reduce(np.minimum, self.rows())  # each pair's first row
        self.appearance = np.argsort(self.first, kind="stable")

    @classmethod
    def of(cls, steps: pd.DataFrame, *more: str) -> StepGroups | None:
        """The groups of `steps` by (segment, step), sorted further by `more` columns; None where a key is not
        an integer column (pandas then groups, dropping null keys)."""
        keys = [steps[c].to_numpy() for c in (*KEY, *more)]
        if not all(isinstance(k, np.ndarray) and k.dtype.kind in "iu" for k in keys):
            return None
        return cls(keys)

    @property
    def repeats(self) -> bool:
        return len(self.starts) < self.n

    def rows(self) -> np.ndarray:
        """Each sorted position's row in the frame."""
        return np.arange(self.n) if self.order is None else self.order

    def sort(self, values: np.ndarray) -> np.ndarray:
        return values if self.order is None else values[self.order]

    def reduce(self, ufunc: np.ufunc, sorted_values: np.ndarray) -> np.ndarray:
        """`ufunc.reduceat` over each pair's sorted values; pairs in key order."""
        if self.n == 0:
            return sorted_values[:0]
        return ufunc.reduceat(sorted_values, self.starts)

    def first_row(self, has: np.ndarray) -> np.ndarray:
        """Per pair (key order), its first row in the frame's order where `has`; -1 where there is none."""
        if has.all():
            return self.first
        first = self.reduce(np.minimum, np.where(self.sort(has), self.rows(), self.n))
        return np.where(first < self.n, first, -1)

    def distinct(self, key: int) -> np.ndarray:
        """Per pair (key order), how many values key number `key` takes (it must be one of the sort's)."""
        new = np.logical_or.reduce(self.changes[: key + 1])
        return self.reduce(np.add, new.astype(np.int64))

    def by_pair(self) -> np.ndarray:
        """Each sorted position's pair (key order)."""
        return np.cumsum(np.logical_or(self.changes[0], self.changes[1])) - 1


def _nondecreasing(keys: list[np.ndarray]):
    """Whether the rows are sorted by the keys, the first key first (one answer per key, all True when so)."""
    equal_so_far = np.ones(len(keys[0]) - 1, dtype=bool)
    for k in keys:
        d = np.diff(k)
        yield not (equal_so_far & (d < 0)).any()
        equal_so_far &= d == 0


def merge_duplicates(steps: pd.DataFrame, aggregates: dict[str, str]) -> pd.DataFrame:
    """One row per (segment, step): several ranks or several lines (DeepSpeed prints two) merge."""
    rank = "rank" in steps
    groups = StepGroups.of(steps, *(["rank"] if rank else []))
    if groups is None or (aggregates and groups.repeats):
        return merge_grouped(steps, aggregates)
    if not groups.repeats:
        return _one_row_each(steps)
    first = groups.appearance
    out: dict[str, object] = {}
    for col in KEY:
        out[col] = groups.sort(steps[col].to_numpy())[groups.starts][first]
    for col in steps.columns:
        if col in KEY:
            continue
        values = steps[col]
        if col == "line":
            out[col] = groups.reduce(np.minimum, groups.sort(values.to_numpy()))[first]
        elif col == "flags":
            out[col] = _flags(values, groups)[first]
        else:
            rows = groups.first_row(values.notna().to_numpy())[first]
            out[col] = pd.api.extensions.take(values.array, rows, allow_fill=True)
    if rank:
        out["ranks"] = groups.distinct(2)[first]
    if "step_time_s" in steps:
        t = groups.sort(steps["step_time_s"].to_numpy(dtype=np.float64))
        out["step_time_s_min"] = groups.reduce(np.fmin, t)[first]
        out["step_time_s_max"] = slowest = groups.reduce(np.fmax, t)[first]
        if rank and not np.isnan(t).all():
            # a synchronous step lasts as long as its slowest rank (its first row at that time)
            out["step_time_s"] = slowest
            at_max = t == np.repeat(groups.reduce(np.fmax, t), np.diff(np.r_[groups.starts, groups.n]))
            has = np.empty(groups.n, dtype=bool)
            has[groups.rows()] = at_max
            rows = groups.first_row(has)[first]
            out["slowest_rank"] = pd.api.extensions.take(steps["rank"].array, rows, allow_fill=True)
    return pd.DataFrame(out)


def _one_row_each(steps: pd.DataFrame) -> pd.DataFrame:
    steps = steps.copy(deep=False)  # copy-on-write: columns are copied when written
    if "rank" in steps and steps["rank"].notna().any():
        steps["ranks"] = steps["rank"].notna().astype(int)
    return steps


def _flags(flags: pd.Series, groups: StepGroups) -> np.ndarray:
    """Per pair (key order), its rows' flags merged (merge_flags); None where it has none."""
    out = np.full(len(groups.starts), None, dtype=object)
    has = flags.notna().to_numpy()
    if has.any():
        pair = np.empty(groups.n, dtype=np.int64)
        pair[groups.rows()] = groups.by_pair()
        for g, fs in flags[has].groupby(pair[has], sort=False):
            out[g] = merge_flags(fs)
    return out


def merge_grouped(steps: pd.DataFrame, aggregates: dict[str, str]) -> pd.DataFrame:
    """`merge_duplicates` in pandas: the reference, and the way where a key is not an integer column."""
    if not steps.duplicated(KEY).any():
        return _one_row_each(steps)
    grouped = steps.groupby(KEY, sort=False)
    merged = grouped.first()
    merged["line"] = grouped["line"].min()
    if "rank" in steps:
        merged["ranks"] = grouped["rank"].nunique()
    if "step_time_s" in steps:
        merged["step_time_s_min"] = grouped["step_time_s"].min()
        merged["step_time_s_max"] = grouped["step_time_s"].max()
        if "rank" in steps and steps["rank"].notna().any():
            # a synchronous step lasts as long as its slowest rank
            merged["step_time_s"] = merged["step_time_s_max"]
            timed = steps.dropna(subset=["step_time_s", "rank"])
            if len(timed):
                slowest = timed.loc[timed.groupby(KEY, sort=False)["step_time_s"].idxmax()]
                merged["slowest_rank"] = slowest.set_index(KEY)["rank"]
    for col, how in aggregates.items():
        if col in steps:
            merged[col] = getattr(grouped[col], how)()
    if "flags" in steps:
        merged["flags"] = grouped["flags"].agg(merge_flags)
    return merged.reset_index()
