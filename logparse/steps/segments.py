"""Segments: what a step counter going back means, and a numbering that loses no step.

Part of the resolve stage. A counter goes back for three reasons, and each is handled differently:

- ``epoch``: the counter counts batches within an epoch (Lightning's and NeMo's bars, Composer's
  ``[epoch=N][batch=M/T]``, NeMo 2.0's printer). Steps continue: from the printed global step where the
  line has one, else from epoch x steps per epoch.
- ``restart``: the job was resumed (from a checkpoint, or from scratch) with the same configuration.
  The later attempt wins the steps it logs again; earlier steps it never repeats stay as rows.
- ``new_run``: another run was appended to the same file (its counter's total or its configuration
  differs). Nothing is dropped; the analysis covers the last run unless told otherwise.

A counter that only seems to go back is none of these: a file that gets two streams of one process, stdout
block-buffered (4-8 KiB at a time when it is a file or a pipe) and stderr unbuffered, holds stdout's step lines
in blocks behind the live lines of stderr (torchtune's `Step N | ...` lines behind its tqdm bar; a loop's print()
behind its bar). The counter is therefore judged per kind of line (its pattern): a restart is a kind's own
counter going back, or a kind repeating steps with other values than another kind gave them where the two
agreed before (`Streams`).
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
from .bars import decimals
from .kinds import SegmentKind

# Facts that identify a run: when one of them changes across a counter going back, it is another run.
RUN_IDENTITY = (
    "repeat_index",  # a cross-validation's fold, a trial: each a training of its own
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
    steps: pd.DataFrame,
    counter: str,
    grad_accum: int | None,
    warnings: list[RunWarning],
    counts_from: dict[str, int] | None = None,
) -> tuple[pd.DataFrame, bool, str | None]:
    """Number rows whose counter restarts each epoch as steps since the run began.

    `counter` is "step" (it counts optimizer steps) or "micro_step" (micro-batches: rows are grouped
    into optimizer steps and each step keeps the row that completes it). `counts_from`: the patterns whose
    position counts from 0 (a batch index: the step it completes is one more) or 1 (the batches done); a
    pattern not named there is taken as it prints. Returns the rows, whether an epoch boundary was crossed,
    and how the steps were numbered (None when nothing was done)."""
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
        within = _batches_done(steps, pos, counts_from, how)
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


def _batches_done(
    steps: pd.DataFrame, pos: pd.Series, counts_from: dict[str, int] | None, how: list[str]
) -> pd.Series:
    """The batches each row's position says are done in its epoch: the position as printed, one more where its
    pattern counts positions from 0 (the batch index i completes step i + 1 of its epoch)."""
    from_zero = [p for p, base in (counts_from or {}).items() if base == 0]
    if not from_zero or "pattern" not in steps:
        return pos
    index = steps["pattern"].isin(from_zero)
    if index.any():
        how.append("a position counted from 0 (the batch index) completes the step one past it")
    return pos + index.astype(float)


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
    most) where the kind of line it goes back on goes back itself (`Streams`), or a start / checkpoint-load
    line appears after steps were logged. A counter going back inside the first line (a bar redrawn on it)
    cuts nothing: no row would be left before the cut."""
    if steps.empty:
        return []
    ref = reference_rows(steps)
    s = ref["step"].to_numpy()
    lines = ref["line"].to_numpy()
    back = np.flatnonzero(s[1:] < s[:-1]) + 1
    found = {int(lines[i]) for i in Streams(ref).restarts(back) if lines[i] > lines[0]}
    found.update(int(lines[i]) for i in _total_changes(ref))
    if not events.empty and "event" in events:
        first_line = int(steps["line"].min())
        for line in events.loc[events["event"].isin(["start", "checkpoint_load"]), "line"]:
            if line > first_line:
                # (ref is in line order) the first step line after the marker, when steps came before it too
                after = int(np.searchsorted(lines, line, side="right"))
                if after < len(lines) and np.searchsorted(lines, line, side="left") > 0:
                    found.add(int(lines[after]))
    return sorted(found)


def _total_changes(ref: pd.DataFrame) -> np.ndarray:
    """Rows where a kind of line states the same step again under another total (`epoch 1/1`, then `epoch 1/3`):
    one run states one total, so another run begins there although its counter did not go back."""
    if "progress_total" not in ref or len(ref) < 2:
        return np.array([], dtype=int)
    total = pd.to_numeric(ref["progress_total"], errors="coerce").to_numpy(dtype=float)
    step = pd.to_numeric(ref["step"], errors="coerce").to_numpy(dtype=float)
    kind = ref["pattern"].astype(str).to_numpy() if "pattern" in ref else np.zeros(len(ref))
    at = (
        (step[1:] == step[:-1])
        & (kind[1:] == kind[:-1])
        & ~np.isnan(total[1:])
        & ~np.isnan(total[:-1])
        & (total[1:] != total[:-1])
    )
    return np.flatnonzero(at) + 1


# the values a step's line states the same way whichever stream prints it (a bar's rate, a line's own time or
# stamp are other measurements of the step); a real resume redoes the step and prints other values
STREAM_VALUES = ("loss", "grad_norm", "lr")
# rows compared of a block, and of its kind's rows before it: enough for a majority that one value meeting
# another by chance (to the 3 digits a bar prints) does not decide, few enough for a log of many blocks
STREAM_LOOKBACK = 10


class Streams:
    """The kinds of line (the `pattern` column) of rows in line order, each its own counter.

    A file that gets stdout and stderr holds stdout's lines in blocks (a block-buffered stream flushes 4-8 KiB
    at a time, and tqdm flushes stdout when it opens a bar) and stderr's as they happen; every block then sends
    the file's counter back to the first step it holds. That is no restart. Where the counter goes back, it is
    one only when:
    - the kind of line it goes back on went back itself since the attempt began (the line of that kind before
      it, in the same attempt, has a later step); a kind that continues its own sequence, or appears for the
      first time in the attempt, starts where its own counter is, whatever the other kind's counter says; or
    - the steps it repeats carry other values (STREAM_VALUES, to the precision printed) than another kind gave
      the same steps, where the two kinds agreed on the steps they both gave before: the first pass and a redone
      one differ, an echo of the same step does not.
    One kind of line (or none named) is the counter itself, as before."""

    def __init__(self, ref: pd.DataFrame) -> None:
        self.ref = ref
        self.step = ref["step"].to_numpy()

    def restarts(self, back: np.ndarray) -> list[int]:
        """Of the rows `back` where the file's counter goes back (in order), those where an attempt begins."""
        if not len(back) or "pattern" not in self.ref or not self._kinds():
            return [int(i) for i in back]
        out: list[int] = []
        start = 0  # the current attempt's first row
        for i in back.tolist():
            j = int(self.prev[i])
            if (j >= start and self.step[j] > self.step[i]) or self._redone(i, start):
                out.append(i)
                start = i
        return out

    def _kinds(self) -> bool:
        """Find each row's kind, its kind's previous row and the rows by step; False when there is one kind (a
        log whose counter goes back thousands of times in one kind of line pays for none of it)."""
        kind = self.ref["pattern"].astype(str)
        # rows of one pattern that carry other values are other kinds of line (a metric in long form: the loss
        # rows of steps 1..n, then the lr rows of the same steps)
        for c in STREAM_VALUES:
            if c in self.ref:
                kind = kind + np.where(self.ref[c].notna().to_numpy(), "+", "-")
        self.kind, uniques = pd.factorize(kind, use_na_sentinel=False)
        if len(uniques) < 2:
            return False
        order = np.argsort(self.kind, kind="stable")
        same = np.r_[False, self.kind[order][1:] == self.kind[order][:-1]]
        self.prev = np.full(len(self.step), -1)  # -1: the first row of its kind
        self.prev[order[same]] = order[np.flatnonzero(same) - 1]
        self.by_step = np.argsort(self.step, kind="stable")  # a step's rows, in row order, by binary search
        self.sorted_steps = self.step[self.by_step]
        self.values = [
            pd.to_numeric(self.ref[c], errors="coerce").to_numpy(dtype=float)
            for c in STREAM_VALUES
            if c in self.ref
        ]
        return True

    def _redone(self, i: int, start: int) -> bool:
        """Whether the block of row i's kind that begins at i gives the steps it repeats other values than the
        other kinds gave them in this attempt (most of its first STREAM_LOOKBACK rows: a redone value may meet the
        first pass's to the 3 digits a bar prints), where its earlier rows agreed with theirs (most of the last
        STREAM_LOOKBACK compared). An echo is decided once half its rows agree."""
        if not self.values:
            return False
        kind, top = self.kind[i], self.step[i - 1]
        same = differ = 0
        # the block: the rows of i's kind from i on, one after another (a flush is written at once), up to the
        # steps the other kinds had reached
        stop = min(len(self.step), i + STREAM_LOOKBACK)
        r = i
        while (
            r < stop
            and self.kind[r] == kind
            and self.step[r] <= top
            and (r == i or self.step[r] > self.step[r - 1])
        ):
            verdict = self._agrees(r, start, i)
            same += verdict is True
            differ += verdict is False
            if same * 2 >= STREAM_LOOKBACK:  # an echo: decided
                return False
            r += 1
        if differ <= same:
            return False
        before: list[bool] = []
        r, walked = int(self.prev[i]), 0
        while r >= start and len(before) < STREAM_LOOKBACK and walked < 4 * STREAM_LOOKBACK:
            v = self._agrees(r, start, i)
            if v is not None:
                before.append(v)
            r, walked = int(self.prev[r]), walked + 1
        return bool(before) and sum(before) * 2 > len(before)

    def _agrees(self, r: int, start: int, stop: int) -> bool | None:
        """Whether row r's values match a row of another kind for the same step among rows start..stop-1 (to
        the precision the coarser of the two prints); None when no such row states a value r states too."""
        a, b = np.searchsorted(self.sorted_steps, [self.step[r], self.step[r] + 1], side="left")
        verdict = None
        for o in self.by_step[a:b].tolist():
            if not (start <= o < stop) or self.kind[o] == self.kind[r]:
                continue
            pairs = [(v[r], v[o]) for v in self.values if not (np.isnan(v[r]) or np.isnan(v[o]))]
            if not pairs:
                continue
            if all(_same_printed(x, y) for x, y in pairs):
                return True
            verdict = False
        return verdict


def _same_printed(x: float, y: float) -> bool:
    """x and y are one value printed to different precisions: they differ by at most half a unit of the
    coarser one's last printed digit."""
    digits = min(decimals(x), decimals(y))
    return abs(x - y) <= 0.5 * 10.0**-digits + 1e-12 * max(abs(x), abs(y))


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


def fresh_start(new_first: float, every: int | None, resumed: bool, started: bool) -> str:
    """Why an attempt whose counter starts again from the beginning is another run, or "": its first step is
    the first it could print (within its own log interval `every` of 0), the program started again before it
    (`started`: a start-up line, or a fact the start-up states, between the two attempts' step lines) and no
    checkpoint was loaded (`resumed`). Nothing of the earlier rows carries over: the same script run again, or
    a job started over from scratch, which the file holds as two runs rather than one run's steps done twice.
    (A counter that goes back to 1 with no start-up between is no run of its own: lines out of order.)"""
    if resumed or not started or not _from_the_start(new_first, every):
        return ""
    first = int(new_first)
    return f"the step counter starts again from {first} after a new start-up, and no checkpoint is loaded"


def run_again(old: pd.DataFrame, new: pd.DataFrame, every: int | None) -> str:
    """Why an attempt is another run although no start-up line came between: the earlier one reached the total
    its counter states (`epoch 3/3`), or, where none is printed, the step the later one runs to, and the counter
    starts again from the first step it could print. A run that finished is not resumed: the same script was run
    again (a cross-validation's next fold, Surprise's cross_validate) and its output appended."""
    if old.empty or new.empty:
        return ""
    last, first = float(old["step"].max()), float(new["step"].min())
    if not _from_the_start(first, every):
        return ""
    totals = old["progress_total"].dropna() if "progress_total" in old else old["step"].iloc[:0]
    if len(totals):
        total = float(_commonest(totals))
        if last < total:
            return ""
        return f"the counter reached its total ({int(total):,}) and starts again from {int(first)}"
    # (no total printed: both attempts ran from the start to the same last step, each a whole run of one plan,
    # as a cross-validation's folds are; a job restarted from scratch after a failure ends later than it failed)
    done = float(new["step"].max())
    began = float(old["step"].min())
    if len(old) >= 3 and len(new) >= 3 and _from_the_start(began, every) and last == done:
        return f"the counter ran to {int(last):,} and runs again from {int(first)} to the same step"
    return ""


def _from_the_start(step: float, every: int | None) -> bool:
    """Whether `step` is the first a counter could print, logging every `every` steps: within one interval of 0."""
    return math.isfinite(step) and step <= max(every or 1, 1)


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
