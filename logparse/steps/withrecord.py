"""A run folder's step record beside its console: which numbers the steps, and what each adds.

Part of the resolve stage. A library's record (Lightning's metrics.csv, trainer_state.json's log_history,
TensorBoard scalars, W&B history; frame/folder.py) holds a row per logged optimizer step, numbered as the library
counts them. A console may count something else: Lightning's progress bar counts micro-batches and never prints
`accumulate_grad_batches`, and so does a custom loop that prints at every batch. The rule:

- **They agree**: every step the record logs is one the console shows, and the console does not run on past the
  record's last step (or, where it does, their losses agree at the steps both have: a record whose tail was not
  written). The console's rows are the steps; the record adds its clock where the console has none.
- **The console counts micro-batches**: its count makes the record's optimizer steps under exactly one gradient
  accumulation g. Lightning steps after every g micro-batches and at an epoch's last batch
  (lightning/pytorch/loops/training_epoch_loop.py `_should_accumulate`: "Lightning steps on the final batch"),
  so an epoch of B micro-batches makes ceil(B / g) steps; the console's epochs must add up to the record's last
  step (within one of its logging intervals) and, where the record states each step's epoch, put every step in
  that epoch. g is then a derived fact, and the console's rows are folded into optimizer steps.
- **Otherwise the record numbers the steps**: its rows are the steps and carry its values; the console adds what
  the record lacks at the same step: its step times (over each record row's span), its clock, its other columns.
  A console whose numbers fit the record under no accumulation gives nothing from its step lines, and a warning
  says so.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from ..core.errors import flag
from ..core.facts import Fact
from ..core.warnings import RunWarning
from ..frame.assemble import RecordRows
from .bars import decimals
from .timing import StepTime

# console columns that describe the console's line, not the step, and are not carried onto a record's row
_LINE_COLUMNS = frozenset(
    {"kind", "pattern", "line", "rank", "host", "windowed", "step_span", "segment", "run"}
)
_TIMING = ("timestamp", "step_time_s", "progress_s_per_it", "progress_elapsed_s", "train_elapsed_s")


@dataclass(frozen=True)
class Accumulation:
    """What a micro-batch console and the record say of the gradient accumulation: the fact (the stated one when
    it fits, else the derived one; None when none fits) and the sentence of how the console was matched."""

    fact: Fact | None
    how: str


@dataclass
class Plan:
    """What resolve does with the record: `use_record` its rows as the steps (else the console's); `mapped` the
    console's steps are numbered as the record's (console step = record step + `offset`), so its columns may
    join the record's rows; `numbering` the summary's sentence."""

    use_record: bool
    mapped: bool
    numbering: str
    offset: int = 0


@dataclass(frozen=True)
class FolderSteps:
    """How a run folder's record and console were combined, for the summary's folder block: the file the step
    rows came from (None: the console), the file the step times came from, the record's keys and notes when its
    rows are used."""

    steps_from: str | None
    times_from: str | None
    mapped: dict[str, str] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class _Span:
    """The record's logged steps: their numbers, the count they stand for (last + 1 when the record counts
    from 0), and its logging interval."""

    steps: np.ndarray
    last: int
    every: int
    base: int


def _span(record: RecordRows) -> _Span:
    s = np.unique(record.rows["step"].to_numpy(dtype=np.int64))
    base = 1 if len(s) and s[0] == 0 else 0
    d = np.diff(s)
    every = int(np.median(d)) if len(d) else 1
    return _Span(s, int(s[-1]) + base if len(s) else 0, max(every, 1), base)


# ------------------------------------------------------------------------------------------------
# a console that counts micro-batches (Lightning's bar): the accumulation, before the rows are grouped


def micro_accumulation(
    steps: pd.DataFrame, record: RecordRows, stated: Fact | None, warnings: list[RunWarning]
) -> Accumulation | None:
    """For console rows that count micro-batches (`micro_step`: a bar's position within its epoch), the
    accumulation under which they make the record's optimizer steps. None when the rows count no micro-batches;
    an Accumulation without a fact (and a warning, when the console shows the run from its start) when no single
    accumulation fits."""
    if "micro_step" not in steps or steps["micro_step"].isna().all():
        return None
    span = _span(record)
    epochs = _console_epochs(steps)
    partial = Accumulation(
        None, f"{record.source}'s step numbers (the console's bar shows only part of the run)"
    )
    if epochs is not None and record.epochs and epochs[0][0] != min(record.epochs.values()):
        epochs = None
    if epochs is None or not len(span.steps):
        # a bar whose redraws the file kept only the last of, a counter printed every few micro-batches: grouped
        # by an accumulation the log states, its rows are steps like any console's (plan); else the record's alone
        return None if stated is not None else partial
    labels, lengths = epochs
    fits = [g for g in _counts_fit(np.array(lengths), span) if _fits(g, labels, lengths, span, record)]
    bar = f"the console's progress bar counts {sum(lengths)} micro-batches ({_epochs_said(lengths)})"
    if stated is not None and _fits(int(stated.value), labels, lengths, span, record):
        return Accumulation(stated, _how(int(stated.value), lengths, record, stated))
    if stated is not None or len(fits) != 1:
        if stated is not None:
            g = int(stated.value)
            why = (
                f"under the gradient accumulation {g} ({stated.source}) they make {_steps(g, lengths)} steps"
            )
        elif fits:
            why = f"the gradient accumulation may be any of {', '.join(map(str, fits))}"
        else:
            why = "no gradient accumulation makes the one the other"
        warnings.append(
            RunWarning(
                f"{bar} and {record.source} logs {len(span.steps)} optimizer steps to step {span.last}: {why}; steps "
                f"and values from {record.source}, nothing from the console's step lines"
                + ("" if stated is not None else f" (pass {flag('grad_accum')} if you know it)"),
                "console_differs",
            )
        )
        return Accumulation(None, f"{record.source}'s step numbers (the console's bar does not fit them)")
    g = fits[0]
    fact = Fact(g, "derived", f"{bar} and {record.source} logs {span.last} optimizer steps")
    if g > 1:
        warnings.append(
            RunWarning(
                f"{bar}: they make {record.source}'s {span.last} optimizer steps at a gradient accumulation of {g} "
                f"(derived; the log does not print it), an epoch's last step taking what is left; steps and values "
                f"from {record.source}",
                "grad_accum_derived",
            )
        )
    return Accumulation(fact, _how(g, lengths, record, fact))


def _console_epochs(steps: pd.DataFrame) -> tuple[list[int], list[int]] | None:
    """The console's epochs in order (their printed index) and the micro-batches of each: an epoch a later one
    follows ran to its end (its bar's total, where printed); the last, as far as its bar got. None when the bar
    does not show the run from its first epoch on (epochs missing: a bar whose redraws the file kept only the
    last of)."""
    rows = steps[steps["micro_step"].notna()]
    epoch = rows["epoch_index"] if "epoch_index" in rows else pd.Series(0, index=rows.index)
    if epoch.isna().any():
        return None
    pos = rows["micro_step"].astype(float)
    total = rows["progress_total"] if "progress_total" in rows else pd.Series(np.nan, index=rows.index)
    labels = list(dict.fromkeys(int(e) for e in epoch))
    if labels != list(range(labels[0], labels[0] + len(labels))):
        return None
    lengths = []
    for i, e in enumerate(labels):
        mine = epoch == e
        reached = int(pos[mine].max())
        tot = total[mine].dropna()
        if i < len(labels) - 1 and len(tot) and tot.nunique() == 1:
            reached = max(reached, int(tot.iloc[0]))
        lengths.append(reached)
    first = pos[epoch == labels[0]]
    if not len(first[first > 0]) or int(first[first > 0].min()) != 1 or min(lengths) < 1:
        return None
    return labels, lengths


def _counts_fit(lengths: np.ndarray, span: _Span) -> list[int]:
    """The accumulations g under which epochs of these many micro-batches make as many optimizer steps as the
    record logs (up to one logging interval more), sum(ceil(B / g)), all at once."""
    g = np.arange(1, int(lengths.max()) + 2)
    made = np.ceil(lengths[None, :] / g[:, None]).sum(axis=1)
    return [int(x) for x in g[(made >= span.last) & (made < span.last + span.every)]]


def _steps(g: int, lengths: list[int]) -> int:
    return sum(math.ceil(n / g) for n in lengths)


def _fits(g: int, labels: list[int], lengths: list[int], span: _Span, record: RecordRows) -> bool:
    """The epochs make the record's steps at accumulation g: as many (within one logging interval past its last)
    and, where the record states each step's epoch, every one in that epoch."""
    made = _steps(g, lengths)
    if not span.last <= made < span.last + span.every:
        return False
    if record.epochs:
        ends = np.cumsum([math.ceil(n / g) for n in lengths])
        for step, epoch in record.epochs.items():
            k = step + span.base  # the optimizer step, counted from 1
            at = int(np.searchsorted(ends, k, side="left"))
            if at >= len(labels) or labels[at] != epoch:
                return False
    return True


def _epochs_said(lengths: list[int]) -> str:
    if len(set(lengths[:-1] or lengths)) == 1 and len(lengths) > 1 and lengths[-1] == lengths[0]:
        return f"{len(lengths)} epochs of {lengths[0]}"
    if len(lengths) == 1:
        return f"one epoch of {lengths[0]}"
    return f"{len(lengths)} epochs of {', '.join(map(str, lengths))}"


def _how(g: int, lengths: list[int], record: RecordRows, fact: Fact) -> str:
    per = "" if g == 1 else f"; an epoch of B micro-batches makes ceil(B / {g}) steps"
    return (
        f"{record.source}'s step numbers; the console's progress bar counts micro-batches ({sum(lengths)}: "
        f"{_epochs_said(lengths)}), {g} a step ({fact.source}){per}"
    )


# ------------------------------------------------------------------------------------------------
# once the console's rows are numbered: agree, fold a printed counter of micro-batches, or the record numbers


def plan(
    steps: pd.DataFrame,
    raw: pd.DataFrame,
    record: RecordRows,
    micro: Accumulation | None,
    facts: dict[str, Fact],
    warnings: list[RunWarning],
) -> tuple[pd.DataFrame, Plan]:
    """What the record and the console's numbered rows make the steps (steps may come back folded, or with the
    record's clock). `raw` is the console's rows as read (what timing they carry)."""
    span = _span(record)
    if micro is not None and (micro.fact is None or int(micro.fact.value) > 1):
        # a bar of micro-batches: folded by the accumulation that fits the record, or matched to nothing
        return steps, Plan(True, micro.fact is not None, micro.how, span.base)
    console = np.unique(steps["step"].to_numpy(dtype=np.int64))
    shared = np.intersect1d(console, span.steps)
    if len(shared) == len(span.steps) and (
        console[-1] < span.steps[-1] + span.every or _losses_agree(steps, record, shared)
    ):
        return _with_clock(_exact(steps, record, shared), raw, record), Plan(False, False, "")
    if len(shared) == len(console):
        return steps, Plan(
            True, True, f"{record.source}'s step numbers (the console shows {len(console)} of them)"
        )
    folded = _fold_counter(steps, console, span, record, facts, warnings)
    if folded is not None:
        return folded
    warnings.append(
        RunWarning(
            f"the console's {len(console)} step lines (steps {console[0]}..{console[-1]}) do not fit {record.source}'s "
            f"{len(span.steps)} logged steps ({span.steps[0]}..{span.steps[-1]}) under any gradient accumulation: steps "
            f"and values from {record.source}, nothing from the console's step lines",
            "console_differs",
        )
    )
    return steps, Plan(
        True, False, f"{record.source}'s step numbers (the console's fit them under no accumulation)"
    )


def _losses_agree(steps: pd.DataFrame, record: RecordRows, shared: np.ndarray) -> bool:
    """The console's loss and the record's are the same at every step both log (to the console's printed
    digits): the console counts the record's steps, and runs on past where the record stopped writing."""
    if "loss" not in steps or "loss" not in record.rows:
        return False
    mine = steps.drop_duplicates("step", keep="last").set_index("step")["loss"].reindex(shared)
    theirs = record.rows.drop_duplicates("step", keep="last").set_index("step")["loss"].reindex(shared)
    ok = mine.notna() & theirs.notna()
    return bool(ok.any()) and _within_printed(mine[ok], theirs[ok].astype(float))


def _exact(steps: pd.DataFrame, record: RecordRows, shared: np.ndarray) -> pd.DataFrame:
    """At the steps both log, the record's figure in place of the console's where the console prints the same
    value rounded (every shared step agreeing to its printed digits): the record keeps full precision."""
    theirs = record.rows.drop_duplicates("step", keep="last").set_index("step")
    at = steps["step"].isin(shared)
    out = steps
    for col in steps.columns:
        if col in _LINE_COLUMNS or col in ("step", "timestamp") or col not in theirs:
            continue
        mine = pd.to_numeric(steps.loc[at, col], errors="coerce")
        exact = steps.loc[at, "step"].map(theirs[col]).astype(float)
        ok = mine.notna() & exact.notna()
        if not ok.any() or not _within_printed(mine[ok], exact[ok]):
            continue
        if out is steps:
            out = steps.copy()
        out.loc[ok[ok].index, col] = exact[ok]
    return out


def _within_printed(mine: pd.Series, exact: pd.Series) -> bool:
    """Each of the console's values is the exact one rounded to the digits it prints (a relative hair for
    values printed in full)."""
    tol = np.array([0.5 * 10.0 ** -decimals(float(v)) for v in mine]) + 1e-6 * np.abs(exact.to_numpy())
    return bool((np.abs(mine.to_numpy(dtype=float) - exact.to_numpy()) <= tol).all())


def _with_clock(steps: pd.DataFrame, raw: pd.DataFrame, record: RecordRows) -> pd.DataFrame:
    """The record's wall times on the console's rows, by step, when the console has no clock and no step time
    of its own (a W&B run's output.log: the script's prints, without stamps; wandb stamped each logged step)."""
    own = record.rows
    if steps.empty or set(_TIMING) & set(raw.columns) or "timestamp" not in own:
        return steps
    stamps = own.drop_duplicates("step", keep="last").set_index("step")["timestamp"]
    return steps.assign(timestamp=steps["step"].map(stamps).astype("float64"))


def _fold_counter(
    steps: pd.DataFrame,
    console: np.ndarray,
    span: _Span,
    record: RecordRows,
    facts: dict[str, Fact],
    warnings: list[RunWarning],
) -> tuple[pd.DataFrame, Plan] | None:
    """A printed counter that counts micro-batches from the run's start (a custom loop printing every batch):
    the one accumulation g under which its last count makes the record's steps; each optimizer step k then keeps
    the line of its last micro-batch (count k x g, or the run's last), its step time g x the mean of its
    micro-batches' times. None when no single g fits (or the counter does not start at the run's start)."""
    if len(console) < 2:
        return None
    first = int(console[0] == 0)  # a counter from 0 (enumerate's): count = counter + 1
    top = int(console[-1]) + first
    fits = _counts_fit(np.array([top]), span)
    stated = facts.get("grad_accum")
    if stated is not None:
        fits = [g for g in fits if g == int(stated.value)]
    if len(fits) != 1 or console[0] + first > fits[0]:
        return None
    g = fits[0]
    if g == 1:  # the console counts the record's steps, from another first number
        said = f"{record.source}'s step numbers (the console counts them from {1 - first}, the record from {1 - span.base})"
        return steps, Plan(True, True, said, span.base - first)
    rows = steps.sort_values(["step", "line"], kind="stable")
    count = rows["step"].to_numpy(dtype=np.int64) + first
    k = -(-count // g)  # ceil
    keep = (count % g == 0) | (count == top)
    folded = rows[keep].copy()
    folded["micro_step"] = count[keep]
    folded["step"] = k[keep]
    if "step_time_s" in rows:
        per = pd.Series(rows["step_time_s"].to_numpy(dtype=float), index=k).groupby(level=0).mean() * g
        folded["step_time_s"] = folded["step"].map(per).to_numpy()
    if stated is None:
        fact = Fact(
            g,
            "derived",
            f"the console's counter reaches {top}, {record.source} logs {span.last} optimizer steps",
        )
        facts["grad_accum"] = fact
        warnings.append(
            RunWarning(
                f"the console's step counter counts micro-batches: its {top} make {record.source}'s {span.last} "
                f"optimizer steps at a gradient accumulation of {g} (derived; the log does not print it); steps and "
                f"values from {record.source}, each step's time g x its micro-batches' mean",
                "grad_accum_derived",
            )
        )
    else:
        fact = stated
    how = (
        f"{record.source}'s step numbers; the console's counter counts micro-batches ({top}), {g} a step "
        f"({fact.source}): optimizer step ceil(count / {g})"
    )
    return folded.reset_index(drop=True), Plan(True, True, how, span.base)


# ------------------------------------------------------------------------------------------------
# the record's rows as the steps, with what the console adds


def record_steps(console: pd.DataFrame, record: RecordRows, mapped: bool, offset: int) -> pd.DataFrame:
    """The record's rows as the steps; with `mapped`, each takes the console's columns the record lacks at its
    step (console step = record step + offset), the console's line (where every step has one: events keep their
    place among the steps), attempt and run. Step times are mapped apart (console_times), over each row's span."""
    rows = record.rows.drop(columns=[c for c in ("kind",) if c in record.rows]).copy()
    rows["step"] = rows["step"].astype("int64")
    rows = rows.sort_values(["step", "line"], kind="stable").drop_duplicates("step", keep="last")
    rows = rows.dropna(axis=1, how="all").reset_index(drop=True)
    rows["segment"], rows["run"] = 0, 0
    if not mapped or console.empty:
        return rows
    mine = console.drop_duplicates("step", keep="last").set_index("step")
    at = rows["step"] + offset
    for col in mine.columns:
        values = at.map(mine[col])
        if col == "line":
            if values.notna().all():
                rows["line"] = values.astype("int64")
        elif col in ("segment", "run"):
            rows[col] = values.ffill().bfill().fillna(0).astype("int64")
        elif col in _LINE_COLUMNS or col == "step_time_s" or (col in rows and rows[col].notna().any()):
            continue  # the console line's own, a time mapped over spans apart, or a value the record has
        elif values.notna().any():
            rows[col] = values
    return rows


def console_times(rows: pd.DataFrame, console: pd.DataFrame, offset: int) -> pd.Series:
    """Each record row's step time from the console's: the console's time over exactly the row's span of steps
    (its rows' step times x their spans, summed) / the span; unknown where the console does not cover the span."""
    if "step_time_s" not in console or console["step_time_s"].isna().all():
        return pd.Series(np.nan, index=rows.index)
    mine = console.drop_duplicates("step", keep="last").sort_values("step")
    step = mine["step"].to_numpy(dtype=np.int64) - offset
    span = mine["step_span"].to_numpy(dtype=np.int64) if "step_span" in mine else np.ones(len(mine), np.int64)
    secs = mine["step_time_s"].to_numpy(dtype=float) * span
    # prefix sums: a row's span covered exactly, by console rows that all have a time, ending at its own step
    steps_done = np.r_[0, np.cumsum(span)]
    unknown = np.r_[0, np.cumsum(~np.isfinite(secs))]
    spent = np.r_[0.0, np.cumsum(np.where(np.isfinite(secs), secs, 0.0))]
    s = rows["step"].to_numpy(dtype=np.int64)
    d = rows["step_span"].to_numpy(dtype=np.int64)
    lo, hi = np.searchsorted(step, s - d, side="right"), np.searchsorted(step, s, side="right")
    ends_there = (hi > lo) & (step[np.maximum(hi - 1, 0)] == s)
    ok = ends_there & (steps_done[hi] - steps_done[lo] == d) & (unknown[hi] == unknown[lo])
    return pd.Series(np.where(ok, (spent[hi] - spent[lo]) / np.maximum(d, 1), np.nan), index=rows.index)


def mapped_time(console_time: StepTime, record: RecordRows, console_files: str) -> StepTime:
    """The console's step-time source, said as mapped onto the record's steps."""
    return StepTime(
        console_time.kind,
        f"{console_time.sentence} (the console, {console_files}, over {record.source}'s steps)",
    )
