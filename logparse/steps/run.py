"""Resolve: from the raw frame to one row per optimizer step, with every run fact's provenance.

This is where the silent errors are stopped: micro-batches are turned into optimizer steps with the
log's gradient accumulation, per-GPU and cluster throughput are both filled from whichever the log
gives, lines that several ranks printed become one step, restarted attempts are split into segments
(the latest attempt wins), and the step time is taken from the log, or from timestamps or progress
bars when the log has no timing field, saying which.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import numpy as np
import pandas as pd

from ..core.errors import LogparseError, flag
from ..core.facts import Fact, Options
from ..core.summary_types import RestartPart
from ..core.warnings import RunWarning
from ..frame.assemble import ParsedLog, RecordRows
from ..read.reader import describe
from .bars import postfix_steps, step_times_from_epoch_rate, steps_from_bar
from .epoch_steps import number_from_epochs
from .kinds import SegmentKind
from .merge import merge_duplicates, ranks_apart
from .runfacts import log_facts, run_facts, session_facts, settle_grad_accum
from .segments import (
    Segment,
    SegmentRows,
    boundaries,
    continue_epochs,
    fresh_start,
    new_run_reason,
    reference_rows,
    run_again,
)
from .sources import Choice, keep_apart, settle
from .stamps import drop_stray_stamps
from .stepframe import add_flag, flagged, log_cadence, unmark_windowed, windowed
from .timing import (
    StepTime,
    StepTimeFrom,
    Throughput,
    TimingInputs,
    fill_step_time,
    fill_throughput,
    only_windowed_throughput,
    per_step_clock,
    scope_of_unscoped_tokens,
    step_time_from_samples,
)
from .withrecord import FolderSteps, Plan, console_times, mapped_time, micro_accumulation, plan, record_steps


@dataclass
class Restart:
    at_step: int  # last step the interrupted attempt logged
    resumed_from: int | None  # step the new attempt continued from
    resumed_from_source: str
    line: int  # first line of the new attempt
    redone_steps: int  # steps the new attempt repeated
    lost_s: float | None  # wall time of repeated work plus the gap, when known
    cause: str | None = None  # the last error line before the new attempt (an NCCL timeout, an OOM, ...)
    cause_line: int | None = None

    def as_dict(self) -> RestartPart:
        return {
            "at_step": self.at_step,
            "resumed_from": self.resumed_from,
            "resumed_from_source": self.resumed_from_source,
            "line": self.line,
            "redone_steps": self.redone_steps,
            "lost_s": None if self.lost_s is None else round(self.lost_s, 3),
            "cause": self.cause,
            "cause_line": self.cause_line,
        }


@dataclass
class ResolvedSteps:
    steps: pd.DataFrame
    facts: dict[str, Fact]
    restarts: list[Restart]
    warnings: list[RunWarning] = field(default_factory=list)
    step_numbering: str = "log"
    step_time: StepTime | None = None
    segments: list[Segment] = field(default_factory=list)
    redone: pd.DataFrame | None = None  # rows a later attempt logged again (split_segments)
    folder_steps: FolderSteps | None = None  # a run folder's record and console: which gave steps, times


# ------------------------------------------------------------------------------------------------
# step numbering for logs whose step lines carry no counter (Hugging Face Trainer)


def number_steps(
    rows: pd.DataFrame, facts: dict[str, Fact], warnings: list[RunWarning]
) -> tuple[pd.Series, str]:
    """Optimizer step of each row without a counter: from the printed epoch against the steps per epoch
    (header, final dict, or logging_first_step's cadence; epoch_steps.py); else row ordinals (with a warning)."""
    by_epoch = number_from_epochs(rows, facts)
    if by_epoch is not None:
        if by_epoch.note:
            warnings.append(RunWarning(by_epoch.note, "steps_from_epoch"))
        return by_epoch.steps, by_epoch.how
    warnings.append(
        RunWarning(
            "the step lines carry no step number and no epoch with a known epoch length: rows are numbered "
            "1, 2, 3, ... (log records, not optimizer steps): only the step labels are ordinals, the times and "
            "throughput read on each row are the row's own",
            "steps_unnumbered",
        )
    )
    return pd.Series(np.arange(1, len(rows) + 1), index=rows.index), "row ordinal"


# ------------------------------------------------------------------------------------------------
# restarts and appended runs


def split_segments(
    steps: pd.DataFrame, parsed: ParsedLog, cadence: int | None, epochs: bool
) -> tuple[pd.DataFrame, list[Restart], list[Segment], pd.DataFrame]:
    """Assign `segment` (attempt) and `run` to every row, drop only the rows a later attempt logged
    again, describe each restart, and list every stretch of the counter (epochs included). The dropped
    rows are returned last: their work was lost, and the goodput ledger counts their time.

    Each attempt's rows are found once (SegmentRows) and each restart looks only at the rows it concerns: a log
    whose lines are out of order (ranks' lines shuffled, the counter going back thousands of times) took a
    masked copy of the whole frame for every attempt, 17 s for 100,000 lines."""
    cuts = boundaries(steps, parsed.events)
    steps = steps.copy(deep=False)  # copy-on-write: the caller's frame keeps its columns
    segment = np.searchsorted(np.array(cuts, dtype=float), steps["line"].to_numpy(), side="right")
    steps["segment"] = segment
    attempts = SegmentRows(segment)
    kinds, reasons = _segment_kinds(steps, attempts, parsed, cuts, cadence)
    run_of_segment = np.cumsum([0] + [k == SegmentKind.NEW_RUN for k in kinds])
    steps["run"] = run_of_segment[segment]

    restarts: list[Restart] = []
    keep = np.ones(len(steps), dtype=bool)
    if SegmentKind.RESTART in kinds:
        restarts = _restarts(steps, attempts, kinds, run_of_segment, keep, parsed.events, cuts, cadence)
    redone = steps[~keep]
    if not keep.all():
        steps = steps[keep]
    return steps, restarts, _describe(steps, cuts, kinds, reasons, epochs), redone


def _segment_kinds(
    steps: pd.DataFrame, attempts: SegmentRows, parsed: ParsedLog, cuts: list[int], cadence: int | None = None
) -> tuple[list[SegmentKind], list[str]]:
    """For each cut: a restart of the same run, or a new run (segments.new_run_reason, else
    segments.fresh_start: the counter starts again from the beginning with no checkpoint loaded), the reason
    kept."""
    kinds: list[SegmentKind] = []
    reasons: list[str] = []
    read = ("line", "step", "progress_total", "epoch_index")
    rows = steps[[c for c in read if c in steps]]
    loads = _load_lines(parsed.events)
    starts = _start_lines(parsed)
    for seg in range(1, len(cuts) + 1):
        old, new = rows.iloc[attempts.at(seg - 1)], rows.iloc[attempts.at(seg)]
        reason = new_run_reason(old, new, parsed.facts, cuts[seg - 1])
        if not reason and len(old) and len(new):
            lo, hi = float(old["line"].max()), float(new["line"].min())
            # the new attempt's own log interval, else the log's
            own = np.diff(np.unique(new["step"].to_numpy(dtype=float))[:2])
            every = int(own[0]) if len(own) else cadence
            resumed = bool(((loads > lo) & (loads < hi)).any())
            started = bool(((starts > lo) & (starts < hi)).any())
            reason = fresh_start(float(new["step"].min()), every, resumed, started) or (
                "" if resumed else run_again(old, new, every)
            )
        kinds.append(SegmentKind.NEW_RUN if reason else SegmentKind.RESTART)
        reasons.append(reason)
    return kinds, reasons


def _start_lines(parsed: ParsedLog) -> np.ndarray:
    """The lines that show a program starting: its start-up lines (the sets' `start` events: HF Trainer's
    header, Megatron's training start) and the facts its start-up states (a config dump, a world size)."""
    lines = [o.line for stated in parsed.facts.values() for o in stated if o.source == "log"]
    events = parsed.events
    if not events.empty and "event" in events:
        started = pd.to_numeric(events.loc[events["event"] == "start", "line"], errors="coerce")
        lines += started.dropna().tolist()
    return np.array(lines, dtype=float)


def _load_lines(events: pd.DataFrame) -> np.ndarray:
    """The lines of the log's checkpoint loads that resume training: a load at step 0 (GPT-NeoX's "Loading
    checkpoint and starting from iteration 0", which loads nothing) starts from scratch."""
    if events.empty or "event" not in events:
        return np.array([], dtype=float)
    loads = events[events["event"] == "checkpoint_load"]
    if "step" in loads:
        loads = loads[~(pd.to_numeric(loads["step"], errors="coerce") == 0)]
    return pd.to_numeric(loads["line"], errors="coerce").dropna().to_numpy(dtype=float)


def _restarts(
    steps: pd.DataFrame,
    attempts: SegmentRows,
    kinds: list[SegmentKind],
    run_of_segment: np.ndarray,
    keep: np.ndarray,
    events: pd.DataFrame,
    cuts: list[int],
    cadence: int | None,
) -> list[Restart]:
    """Each restart, in order: the rows of the same run's earlier attempts still kept whose step it logs again
    are redone (`keep` set False for them); the earlier attempts' last row, last stamp and first line say where
    the interrupted one stopped. A step's rows are found through the run's rows sorted by step, not by a look at
    every row; an attempt's rows all come after the earlier attempts' (by line), so the interrupted attempt's
    last row is the last of the attempt just before, which no restart can have touched yet."""
    step = pd.to_numeric(steps["step"], errors="coerce").to_numpy(dtype=float)
    line = steps["line"].to_numpy(dtype=float)
    segment = steps["segment"].to_numpy()
    stamp = (
        pd.to_numeric(steps["timestamp"], errors="coerce").to_numpy(dtype=float)
        if "timestamp" in steps and steps["timestamp"].notna().any()
        else None
    )
    marks = _Marks(events)
    # what _restart reads of the new and the redone rows (a take of every column, twice a restart, was most of
    # the time of a log with thousands of them)
    narrow = steps[[c for c in ("step", "line", "timestamp", "step_time_s") if c in steps]]
    restarts: list[Restart] = []
    by_step: tuple[np.ndarray, np.ndarray] | None = (
        None  # the current run's rows sorted by step, and their steps
    )
    first_alive = 0  # the run's earliest attempt that still has a kept row
    first_row = -1  # its kept row of the smallest line (kept: still so; else looked for again)
    for seg in range(1, len(kinds) + 1):
        if kinds[seg - 1] != SegmentKind.RESTART:
            by_step, first_alive, first_row = None, seg, -1
            continue
        new_at = attempts.at(seg)
        first_alive, first_row = _first_kept(attempts, keep, line, seg, first_alive, first_row)
        if not len(new_at) or first_alive == seg:
            continue
        if by_step is None:
            by_step = _run_by_step(attempts, run_of_segment, step, seg)
        candidates = _rows_of_steps(by_step, np.unique(step[new_at]))
        redone_at = np.sort(candidates[(segment[candidates] < seg) & keep[candidates]])

        at_step = int(_last_kept(attempts, keep, line, step, seg, first_alive))
        old_first = int(line[first_row])
        last_stamp = None if stamp is None else _last_kept(attempts, keep, line, stamp, seg, first_alive)
        rows = (narrow.iloc[new_at], narrow.iloc[redone_at])
        restarts.append(_restart(*rows, at_step, old_first, last_stamp, marks, cuts, seg, cadence))
        keep[redone_at] = False
    return restarts


def _first_kept(
    attempts: SegmentRows, keep: np.ndarray, line: np.ndarray, seg: int, first_alive: int, first_row: int
) -> tuple[int, int]:
    """The run's earliest attempt before `seg` that still has a kept row, and its kept row of the smallest line
    (the ones given, while that row is still kept)."""
    while first_alive < seg and (first_row < 0 or not keep[first_row]):
        at = attempts.at(first_alive)
        at = at[keep[at]]
        if len(at):
            first_row = int(at[np.argmin(line[at])])
        else:
            first_alive, first_row = first_alive + 1, -1
    return first_alive, first_row


def _run_by_step(
    attempts: SegmentRows, run_of_segment: np.ndarray, step: np.ndarray, seg: int
) -> tuple[np.ndarray, np.ndarray]:
    """The positions of the rows of `seg`'s run (every attempt of it), sorted by step, and their steps."""
    run = run_of_segment[seg]
    first, stop = np.searchsorted(run_of_segment, [run, run + 1], side="left")
    rows = attempts.spanning(int(first), int(stop))
    rows = rows[np.argsort(step[rows], kind="stable")]
    return rows, step[rows]


def _rows_of_steps(by_step: tuple[np.ndarray, np.ndarray], wanted: np.ndarray) -> np.ndarray:
    """The positions (of _run_by_step's rows) whose step is one of `wanted` (sorted, distinct)."""
    rows, their_steps = by_step
    lo = np.searchsorted(their_steps, wanted, side="left")
    hi = np.searchsorted(their_steps, wanted, side="right")
    counts = hi - lo
    picks = np.repeat(lo - np.r_[0, np.cumsum(counts)[:-1]], counts) + np.arange(int(counts.sum()))
    return rows[picks]


def _last_by_line(lines: np.ndarray) -> int:
    """The index of the row with the largest line, the last of them in frame order."""
    return len(lines) - 1 - int(np.argmax(lines[::-1]))


def _last_kept(
    attempts: SegmentRows, keep: np.ndarray, line: np.ndarray, values: np.ndarray, seg: int, first: int
) -> float | None:
    """The value (NaN ones left out) of the last kept row by line of attempts first..seg-1, None when none has
    one. The attempt just before `seg` is kept whole and almost always answers."""
    for earlier in range(seg - 1, first - 1, -1):
        at = attempts.at(earlier)
        at = at[keep[at] & ~np.isnan(values[at])]
        if len(at):
            return float(values[at[_last_by_line(line[at])]])
    return None


class _Marks:
    """The log's checkpoint loads and error lines, found once for every restart."""

    def __init__(self, events: pd.DataFrame) -> None:
        self.loads = events[events["event"] == "checkpoint_load"] if "event" in events else events
        self.errors = events.iloc[:0]
        if not events.empty and {"event", "line", "text"} <= set(events.columns):
            self.errors = events[events["event"] == "error"]


def _restart(
    new: pd.DataFrame,
    redone: pd.DataFrame,
    at_step: int,
    old_first: int,
    last_stamp: float | None,
    marks: _Marks,
    cuts: list[int],
    seg: int,
    cadence: int | None,
) -> Restart:
    """One restart: where the old attempt stopped (`at_step`: the step of its last row), where the new one
    resumed (a checkpoint load between them, else its first step minus the log cadence), how many steps it redid
    and the wall time lost."""
    first_new = int(new["step"].min())
    resumed_from, source = None, "unknown"
    loads = marks.loads
    if not loads.empty and "step" in loads:
        prev_line = cuts[seg - 2] if seg >= 2 else -1
        near = loads[(loads["line"] > prev_line) & (loads["line"] < cuts[seg - 1])]
        near = near.dropna(subset=["step"])
        if len(near):
            resumed_from, source = (
                int(near["step"].iloc[-1]),
                f"checkpoint load, line {int(near['line'].iloc[-1])}",
            )
    if resumed_from is None and cadence and first_new - cadence >= 0:
        # (a counter that starts again from its first count resumed nothing: no step before 0)
        resumed_from, source = (
            first_new - cadence,
            f"first step of the new attempt minus the log cadence ({cadence})",
        )
    redo_s = None
    if "step_time_s" in redone and len(redone):
        redo_s = float((redone["step_time_s"] * (cadence or 1)).sum())
    gap_s = _unlogged_redo_s(new, last_stamp, cadence)
    lost = None if redo_s is None and gap_s is None else (redo_s or 0.0) + (gap_s or 0.0)
    if resumed_from is not None:
        redone_steps = max(0, at_step - resumed_from)
    else:
        redone_steps = int(redone["step"].nunique())
    cause, cause_line = _restart_cause(marks.errors, old_first, int(new["line"].min()))
    return Restart(
        at_step, resumed_from, source, int(new["line"].min()), redone_steps, lost, cause, cause_line
    )


def _restart_cause(errors: pd.DataFrame, old_first: int, new_first: int) -> tuple[str | None, int | None]:
    """What ended the interrupted attempt, as far as the log says: the last error event line (the patterns'
    `error` events: NCCL timeouts, Xid, OOM, tracebacks) after the old attempt's first step line and before
    the new attempt's first; (None, None) when the log prints none. `errors`: the log's error events."""
    if errors.empty:
        return None, None
    lines = pd.to_numeric(errors["line"], errors="coerce")
    errors = errors[(lines > old_first) & (lines < new_first)]
    if errors.empty:
        return None, None
    last = errors.loc[pd.to_numeric(errors["line"], errors="coerce").idxmax()]
    return str(last["text"]).strip(), int(last["line"])


def _unlogged_redo_s(new: pd.DataFrame, last_stamp: float | None, cadence: int | None) -> float | None:
    """Redone work that was never logged: the time between the old attempt's last stamp (`last_stamp`, None
    without one) and the new one's first, less that first step's own time."""
    if last_stamp is None or "timestamp" not in new:
        return None
    first_ts = new["timestamp"].dropna()
    if not len(first_ts):
        return None
    first_row = new.loc[first_ts.index[0]]
    own = first_row.get("step_time_s")
    own_s = float(own) * (cadence or 1) if own is not None and not pd.isna(own) else 0.0
    return max(0.0, float(first_ts.iloc[0] - last_stamp) - own_s)


def _describe(
    steps: pd.DataFrame, cuts: list[int], kinds: list[SegmentKind], reasons: list[str], epochs: bool
) -> list[Segment]:
    """Every stretch of the counter in the order it ran: the start, each epoch, restart and new run.
    A stretch begins where a row's attempt (`segment`) or epoch differs from the row before it (rows in
    record order, so redraws sharing one physical line keep their order)."""
    ref = reference_rows(steps)
    seg = ref["segment"].to_numpy()
    epoch = ref["epoch_index"].to_numpy() if epochs and "epoch_index" in ref else None
    out: list[Segment] = []
    # where a stretch begins, found at once (a long run has a few hundred thousand rows and a few stretches)
    turns = seg[1:] != seg[:-1]
    if epoch is not None:
        e = pd.to_numeric(ref["epoch_index"], errors="coerce").to_numpy(dtype=float)
        turns |= ~((e[1:] == e[:-1]) | (np.isnan(e[1:]) & np.isnan(e[:-1])))
    ends = [*(np.flatnonzero(turns) + 1).tolist(), len(ref)] if len(ref) else []
    start = 0
    for i in ends:
        part = ref.iloc[start:i]
        first = part.iloc[0]
        s0 = int(first["segment"])
        if start == 0 and s0 == 0:
            kind, reason = SegmentKind.START, ""
        elif start == 0 or s0 != int(ref["segment"].iloc[start - 1]):
            # (at the rows' start too where every row of the attempts before it was logged again by a later one:
            # the rows begin with a restart)
            kind, reason = kinds[s0 - 1], reasons[s0 - 1]
            if start and int(first["run"]) != int(ref["run"].iloc[start - 1]) and kind != SegmentKind.NEW_RUN:
                # (the new run's first attempt was logged again whole by a restart: the run begins here, for
                # the reason its own first attempt gave)
                began = max(k for k in range(s0) if kinds[k] == SegmentKind.NEW_RUN)
                kind, reason = SegmentKind.NEW_RUN, reasons[began]
        else:
            kind, reason = SegmentKind.EPOCH, ""
        out.append(
            Segment(
                kind=kind,
                first_step=int(first["step"]),
                last_step=int(part["step"].iloc[-1]),
                line=int(first["line"]),
                segment=s0,
                run=int(first["run"]),
                epoch=None if epoch is None or pd.isna(first["epoch_index"]) else int(first["epoch_index"]),
                reason=reason,
            )
        )
        start = i
    return out


# ------------------------------------------------------------------------------------------------
# the whole stage


def resolve_steps(parsed: ParsedLog, opts: Options) -> ResolvedSteps:
    """Raw rows to one row per optimizer step: the log's facts; the step rows checked, counted from the run's
    start (epochs, micro-batches), numbered where the log prints no counter, split into attempts, merged
    across ranks, and timed."""
    warnings: list[RunWarning] = list(parsed.warnings)
    facts = log_facts(parsed, warnings)
    steps, progress = _step_rows(parsed, warnings)
    steps = ranks_apart(steps)
    steps, said = postfix_steps(steps, parsed.postfix_bars)
    warnings.extend(said)
    drop_stray_stamps(steps, warnings)
    ga = settle_grad_accum(opts, facts, steps, warnings)
    record, micro, use = parsed.record, None, None
    if record is not None:  # a run folder's step record beside the console (withrecord.py)
        micro = micro_accumulation(steps, record, ga, warnings)
        if ga is None and micro is not None and micro.fact is not None:
            ga = facts["grad_accum"] = micro.fact
    steps, epochs, numbering = _count_from_start(steps, facts, ga, warnings, parsed.counts_from)
    steps, numbering, step_time = _number_steps(parsed, steps, progress, facts, numbering, warnings)
    if record is not None:
        steps, use = plan(steps, parsed.rows, record, micro, facts, warnings)
    if "step_time_s" not in steps or steps["step_time_s"].isna().all():
        # row-local, so before restarts are split: the redone work's time is then known
        step_time = step_time_from_samples(steps, facts)

    cadence = log_cadence(steps, facts)  # once, for the restarts and each row's span
    steps, restarts, segments, redone = split_segments(steps, parsed, cadence, epochs)
    steps = merge_duplicates(keep_apart(steps), parsed.aggregates)
    # rows in the order they ran: attempt by attempt (a later attempt replaced only what it logged again)
    if not _sorted(steps):
        steps = steps.sort_values(["segment", "step"], kind="stable")
    steps = steps.reset_index(drop=True)
    steps["step_span"] = _step_span(steps, cadence)

    step_time = _time_from_epoch_rate(parsed, steps, warnings) or step_time
    _drop_bad_step_times(steps, warnings)
    _check_consumed(steps, warnings)
    folder_steps = None
    if record is not None and use is not None and use.use_record:
        given = (steps, step_time, progress, facts)
        steps, step_time, folder_steps = _onto_record(parsed, record, use, *given, warnings)
        numbering = use.numbering
        segments = _record_segments(steps, segments, epochs)
    elif step_time is None:
        inputs = TimingInputs(steps, progress, facts, bool(parsed.interval_patterns), warnings)
        step_time = fill_step_time(inputs)
    if record is not None and folder_steps is None:  # the console's rows, timed by it or the record's clock
        clocked = step_time is not None and step_time.kind == StepTimeFrom.TIMESTAMPS
        clocked = clocked and "timestamp" not in parsed.rows
        timed = record.source if clocked else _consoles(parsed) if step_time else None
        folder_steps = FolderSteps(None, timed)
    for pattern, note in parsed.redrawn.items():  # a display redrawn in place: say what the log kept
        n = int((steps["pattern"] == pattern).sum())
        if n:
            warnings.append(RunWarning(f"{n} step{'' if n == 1 else 's'} recoverable: {note}", "recoverable"))

    said = (numbering, step_time, segments, redone, folder_steps)
    return ResolvedSteps(steps, facts, restarts, warnings, *said)


def _record_segments(rows: pd.DataFrame, console: list[Segment], epochs: bool) -> list[Segment]:
    """The stretches of the record's rows: each attempt and run as the console's rows showed them (the rows
    carry the console's `segment` where its steps are the record's), each epoch where the rows carry it."""
    n = int(rows["segment"].max()) if len(rows) else 0
    kinds, reasons = [SegmentKind.RESTART] * n, [""] * n
    for seg in console:
        if 1 <= seg.segment <= n and seg.kind in (SegmentKind.RESTART, SegmentKind.NEW_RUN):
            kinds[seg.segment - 1], reasons[seg.segment - 1] = seg.kind, seg.reason
    return _describe(rows, [], kinds, reasons, epochs and "epoch_index" in rows)


def _consoles(parsed: ParsedLog) -> str:
    """The run folder's console file(s), as its `read:` line names them."""
    files = parsed.folder["files"] if parsed.folder is not None else []
    return ", ".join(f["file"] for f in files if f["read"] == "console") or describe(parsed.path)


def _onto_record(
    parsed: ParsedLog,
    record: RecordRows,
    use: Plan,
    console: pd.DataFrame,
    step_time: StepTime | None,
    progress: pd.DataFrame,
    facts: dict[str, Fact],
    warnings: list[RunWarning],
) -> tuple[pd.DataFrame, StepTime | None, FolderSteps]:
    """The record's rows as the steps (withrecord.record_steps), timed by the record's own step time, else the
    console's mapped over each row's span (unless the record's clock outranks it: STEP_TIME_SOURCES puts timestamps
    before a clock ticking coarsely and a bar's smoothed rate), else the record's clock (or the console's, joined);
    the console's warnings about counting its micro-batches as steps no longer hold."""
    warnings[:] = [w for w in warnings if w.code != "grad_accum_unknown"]
    rows = record_steps(console, record, use.mapped, use.offset)
    steps = rows["step"].to_numpy()
    gaps = np.diff(steps)
    rows["step_span"] = _step_span(rows, int(np.median(gaps)) if len(gaps) else None)
    own = "step_time_s" in rows and rows["step_time_s"].notna().any()
    clocked = "timestamp" in record.rows and record.rows["timestamp"].notna().sum() >= 2
    times_from = None
    if not own and use.mapped and not console.empty:
        heard: list[RunWarning] = []
        if step_time is None:
            inputs = TimingInputs(console, progress, facts, bool(parsed.interval_patterns), heard)
            step_time = fill_step_time(inputs)
        coarse = (StepTimeFrom.TIMESTAMPS, StepTimeFrom.CLOCK, StepTimeFrom.BAR_RATE)
        outranked = step_time is not None and step_time.kind in coarse and clocked
        times = console_times(rows, console, use.offset) if step_time is not None and not outranked else None
        if times is not None and times.notna().any():
            rows["step_time_s"] = times
            times_from = _consoles(parsed)
            step_time = mapped_time(step_time, record, times_from)
            warnings.extend(w for w in heard if w.code != "step_time_unknown")
        else:
            step_time = None
    elif not own:
        step_time = None
    if times_from is None:
        rows = rows.drop(columns=[c for c in ("step_time_s",) if c in rows and rows[c].isna().all()])
        step_time = fill_step_time(TimingInputs(rows, pd.DataFrame(), facts, False, warnings))
        times_from = None if step_time is None else record.source if own or clocked else _consoles(parsed)
    _drop_bad_step_times(rows, warnings)
    said = FolderSteps(record.source, times_from, record.mapped, record.notes)
    return rows, step_time, said


def _sorted(steps: pd.DataFrame) -> bool:
    """The rows are already in (segment, step) order (a sort would copy the frame for nothing)."""
    seg, step = steps["segment"].to_numpy(), steps["step"].to_numpy()
    if len(seg) < 2:
        return True
    same = seg[1:] == seg[:-1]
    return bool(np.all(seg[1:] >= seg[:-1]) and np.all(~same | (step[1:] >= step[:-1])))


def _read_as(parsed: ParsedLog) -> str:
    """How the log's set was chosen: forced by --format (choose_sets scores it 0 alone), or recognised."""
    forced = parsed.detection.scores == {parsed.detection.name: 0}
    return f"read as {parsed.format} (--format)" if forced else f"recognised as {parsed.format}"


def _step_rows(parsed: ParsedLog, warnings: list[RunWarning]) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The step rows (NaN, malformed and cut values flagged) and the progress-bar rows; a clear error when
    the log has no step line."""
    rows = parsed.rows
    if rows.empty or "kind" not in rows or not (rows["kind"] == "step").any():
        events = parsed.events
        evaluations = int((events["event"] == "eval").sum()) if "event" in events else 0
        if evaluations >= 3 and evaluations == parsed.lines["matched"]:
            # (a loop that prints its validation alone, no line of the training's own; one or two evaluations
            # alone are more likely a run cut before its first step, as the sentence below asks)
            raise LogparseError(
                f"{describe(parsed.path)}: {_read_as(parsed)}, but its {evaluations} matched lines are evaluations "
                "and none is a training step: the log gives no step of its own to time"
            )
        raise LogparseError(
            f"{describe(parsed.path)}: {_read_as(parsed)}, but it has no training step lines "
            f"({parsed.lines['matched']} lines matched other patterns); was the run cut before its first "
            "logged step, or are the step lines filtered out (Megatron prints them on the last rank only)?"
        )
    # pandas' copy-on-write (pandas 3): a selection shares the parsed rows' memory until a column is written, so a
    # large log's rows are not held twice (the step frame was copied five times on its way here); pandas
    # 2 copies here, as the explicit copy did
    is_step = rows["kind"] == "step"
    steps = (rows if is_step.all() else rows[is_step]).drop(columns=["kind"])
    progress = rows[rows["kind"] == "progress"]
    steps = steps.dropna(axis=1, how="all")

    _flag_nonfinite(steps, warnings)
    _flag_skipped_nan(steps)
    if parsed.lines.get("unattached"):
        warnings.append(
            RunWarning(
                f"{parsed.lines['unattached']} line(s) that belong to a neighbouring step record found none to join "
                "(a loss or memory line before the first step, or after the last); their values are not used",
                "unattached",
            )
        )
    return steps, progress


def _place_evaluations(parsed: ParsedLog, steps: pd.DataFrame) -> None:
    """An evaluation event that prints no training step (`Validation Results - Epoch: 1`, MMEngine's
    `Epoch(val) [1][4/4]`, an eval line of a bar) is at the step it follows: the last step row before its line,
    as the steps are numbered from the run's start (an epoch's position folded in)."""
    events = parsed.events
    if events.empty or "event" not in events or steps.empty or "line" not in steps:
        return
    placed = steps.dropna(subset=["step"]).sort_values("line", kind="stable")
    missing = (events["event"] == "eval") & (events["step"].isna() if "step" in events else True)
    if placed.empty or not missing.any():
        return
    lines = placed["line"].to_numpy()
    before = np.searchsorted(lines, events.loc[missing, "line"].to_numpy(), side="left") - 1
    found = before >= 0
    events = events.copy()
    if "step" not in events:
        events["step"] = np.nan
    at = events.index[missing][found]
    events.loc[at, "step"] = placed["step"].to_numpy()[before[found]]
    parsed.events = events


def _count_from_start(
    steps: pd.DataFrame,
    facts: dict[str, Fact],
    ga: Fact | None,
    warnings: list[RunWarning],
    counts_from: dict[str, int] | None = None,
) -> tuple[pd.DataFrame, bool, str]:
    """Counters that restart each epoch -> steps since the run began (micro-batch bars grouped into steps),
    then micro-batch counters -> optimizer steps. Returns the rows, whether epochs were found, the numbering.
    `counts_from`: the step patterns whose position within the epoch counts from 0 or 1 (ParsedLog)."""
    numbering = "log"
    samples_how = _keras_sample_counts(steps, facts, warnings)
    counter = "micro_step" if "micro_step" in steps and steps["micro_step"].notna().any() else "step"
    ga_n = None if ga is None else int(ga.value)
    steps, epochs, how = continue_epochs(steps, counter, ga_n, warnings, counts_from)
    if how or samples_how:
        numbering = "; ".join(h for h in (samples_how, how) if h)
    return steps, epochs, _micro_to_optimizer_steps(steps, ga, warnings) or numbering


def _micro_to_optimizer_steps(steps: pd.DataFrame, ga: Fact | None, warnings: list[RunWarning]) -> str | None:
    """Rows that count only micro-batches get their optimizer step (in place): micro-step / grad accumulation,
    or the micro-step itself when the accumulation is unknown (warned). Returns the numbering, None if none."""
    if "micro_step" not in steps:
        return None
    only_micro = steps["micro_step"].notna() & (steps["step"].isna() if "step" in steps else True)
    if not only_micro.any():
        return None
    if "step" not in steps:
        steps["step"] = np.nan
    if ga is not None:
        g = int(ga.value)
        micro = steps.loc[only_micro, "micro_step"]
        if (micro % g != 0).any():
            warnings.append(
                RunWarning(
                    f"some micro-step counters are not multiples of the grad accumulation {g}",
                    "micro_step_mismatch",
                )
            )
        steps.loc[only_micro, "step"] = micro // g
        return f"micro-step counter / grad accumulation {g} ({ga.source})"
    steps.loc[only_micro, "step"] = steps.loc[only_micro, "micro_step"]
    warnings.append(
        RunWarning(
            "the step lines count micro-batches and the log does not state the gradient accumulation: "
            "each micro-batch is treated as a step, so step time and throughput per step are per "
            "micro-batch",
            "grad_accum_unknown",
        )
    )
    return "micro-step counter (grad accumulation unknown)"


def _number_steps(
    parsed: ParsedLog,
    steps: pd.DataFrame,
    progress: pd.DataFrame,
    facts: dict[str, Fact],
    numbering: str,
    warnings: list[RunWarning],
) -> tuple[pd.DataFrame, str, StepTime | None]:
    """Lines without any counter (HF Trainer dicts): the progress bar's position (which may also time the
    steps), else the printed epoch, else row ordinals. Returns the rows (`step` an integer), the numbering
    and the bar's step time. A log of several training sessions (each `start` line after step rows, or the
    printed epoch going back: runs appended to one file) numbers each session from its own bar and the facts
    its own header states, so that its counter goes back where the next begins (split_segments sees it)."""
    no_counter = "step" not in steps or steps["step"].isna().all()
    cuts = _sessions(parsed, steps) if no_counter and len(steps) else []
    if not cuts:
        return _number_session(parsed, parsed.rows, steps, progress, facts, numbering, warnings)
    bounds = [-np.inf, *cuts, np.inf]
    parts, hows, step_time = [], [], None
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        inside = (steps["line"] >= lo) & (steps["line"] < hi)
        if not inside.any():
            continue
        rows = parsed.rows[(parsed.rows["line"] >= lo) & (parsed.rows["line"] < hi)]
        bar = progress[(progress["line"] >= lo) & (progress["line"] < hi)] if len(progress) else progress
        own = session_facts(parsed, facts, lo, hi)
        part, how, timed = _number_session(parsed, rows, steps[inside].copy(), bar, own, numbering, warnings)
        parts.append(part)
        hows.append(how)
        step_time = step_time or timed
    numbered = pd.concat(parts)
    kinds = list(dict.fromkeys(hows))
    how = kinds[0] if len(kinds) == 1 else "; ".join(kinds)
    return numbered, f"each of the log's {len(parts)} training sessions on its own: {how}", step_time


def _sessions(parsed: ParsedLog, steps: pd.DataFrame) -> list[int]:
    """Lines where another training session begins in a log whose step lines carry no counter: a `start`
    line (HF Trainer's "***** Running training *****") with step rows before and after it, or a step row whose
    printed epoch is below the one before it (beyond the printing's precision)."""
    lines = np.sort(steps["line"].to_numpy(dtype=float))
    found: set[int] = set()
    events = parsed.events
    if not events.empty and "event" in events:
        for line in events.loc[events["event"] == "start", "line"]:
            if lines[0] < line < lines[-1]:
                found.add(int(line))
    if "epoch" in steps and steps["epoch"].notna().sum() > 1:
        ordered = steps.dropna(subset=["epoch"]).sort_values("line", kind="stable")
        epoch = ordered["epoch"].to_numpy(dtype=float)
        back = np.flatnonzero(epoch[1:] < epoch[:-1] - 0.011) + 1  # round(e, 2) and .4g both within 0.005
        for i in back:
            line = int(ordered["line"].iloc[i])
            if not any(int(ordered["line"].iloc[i - 1]) < f <= line for f in found):
                found.add(line)
    return sorted(found)


def _number_session(
    parsed: ParsedLog,
    rows: pd.DataFrame,
    steps: pd.DataFrame,
    progress: pd.DataFrame,
    facts: dict[str, Fact],
    numbering: str,
    warnings: list[RunWarning],
) -> tuple[pd.DataFrame, str, StepTime | None]:
    """_number_steps on one training session: `rows` are the log's rows of it (step, progress and others)."""
    step_time = None
    no_counter = "step" not in steps or steps["step"].isna().all()
    if no_counter and not progress.empty and "micro_step" not in steps:
        iters = facts.get("train_iters")
        bar = parsed.windows.get("progress_s_per_it")
        alpha = bar["alpha"] if bar else None
        by_bar = steps_from_bar(rows, steps, progress, None if iters is None else int(iters.value), alpha)
        if by_bar is not None:
            steps, numbering = by_bar.steps, by_bar.numbering
            if by_bar.step_time_source is not None:
                step_time = StepTime(StepTimeFrom.BAR, by_bar.step_time_source)
            warnings.extend(by_bar.notes)
            if "segment" in steps:
                steps = steps.drop(columns="segment")
    if "step" not in steps or steps["step"].isna().any():
        if "step" not in steps:
            steps["step"] = np.nan
        missing = steps["step"].isna()
        numbered, numbering = number_steps(steps[missing], facts, warnings)
        steps.loc[missing, "step"] = numbered
    steps["step"] = steps["step"].astype("int64")
    return steps, numbering, step_time


def _time_from_epoch_rate(
    parsed: ParsedLog, steps: pd.DataFrame, warnings: list[RunWarning]
) -> StepTime | None:
    """No step time, and a progress bar whose rate is the epoch's average: each step's time from the
    redraws (in place). Returns the source, None when it gives none."""
    no_time = "step_time_s" not in steps or steps["step_time_s"].isna().all()
    bar = parsed.windows.get("progress_s_per_it")
    if not (no_time and bar and bar["window"] == "epoch"):
        return None
    counter = "micro_step" if "micro_step" in steps else "step"
    times = step_times_from_epoch_rate(steps, counter)
    if times is None:
        warnings.append(
            RunWarning(
                "the progress bar's rate is the epoch's average and is printed too coarsely here to recover each "
                "step's time (over 5% error): no step time, so no throughput or MFU rather than a wrong one",
                "step_time_unknown",
            )
        )
        return None
    if not times.notna().any():
        return None
    steps["step_time_s"] = times.where(times > 0)
    return StepTime(
        StepTimeFrom.EPOCH_RATE,
        "progress bar: its rate is the epoch's average so far, so position x seconds per item is the "
        "epoch's clock; a step lasts the difference between the redraws that end it and the step before",
    )


def _drop_bad_step_times(steps: pd.DataFrame, warnings: list[RunWarning]) -> None:
    """Zero or negative step times become unknown, their steps flagged bad_step_time (in place)."""
    if "step_time_s" not in steps:
        return
    bad = steps["step_time_s"] <= 0
    if bad.any():
        warnings.append(
            RunWarning(
                f"{int(bad.sum())} step(s) have a zero or negative step time (first at step "
                f"{int(steps.loc[bad, 'step'].iloc[0])}); their times are treated as unknown",
                "step_time_nonpositive",
                step=steps.loc[bad, "step"].iloc[0],
            )
        )
        steps.loc[bad, "step_time_s"] = np.nan
        add_flag(steps, bad, "bad_step_time")


def _keras_sample_counts(
    steps: pd.DataFrame, facts: dict[str, Fact], warnings: list[RunWarning]
) -> str | None:
    """Keras before 2.3 (and tf.keras 1.x) given arrays counts SAMPLES in its bar, after 'Train on N samples'
    (patterns/keras.toml cites keras 2.2.4's ProgbarLogger): a Keras bar whose total is that N has its positions
    turned, in place, into optimizer steps ceil(p / B), B the position of the first redraw of an epoch (drawn after
    its first batch); its per-unit time, per sample, becomes per step (x B). Returns how, or None."""
    n = facts.get("num_examples")
    if n is None or "progress_total" not in steps or "pattern" not in steps or "step" not in steps:
        return None
    counts = steps["pattern"].astype(str).str.startswith("keras.") & (steps["progress_total"] == int(n.value))
    if not counts.any():
        return None
    pos = steps.loc[counts, "step"].astype(float)
    total = steps.loc[counts, "progress_total"].astype(float)
    partial = pos[(pos < total) & (pos > 0)]
    if partial.empty:
        if "step_time_s" in steps:
            steps.loc[counts, "step_time_s"] = np.nan  # per sample
        warnings.append(
            RunWarning(
                f"Keras's bar counts samples (its total is the {int(n.value)} of 'Train on {int(n.value)} samples'), and "
                "only each epoch's final redraw is in the log: the batch size is unknown, so the step numbers are sample "
                "counts and the step time is not known",
                "keras_samples",
            )
        )
        return None
    b = int(partial.iloc[0])
    steps.loc[counts, "step"] = np.ceil(pos / b)
    steps.loc[counts, "progress_total"] = np.ceil(total / b)
    if "step_time_s" in steps:
        steps.loc[counts, "step_time_s"] = steps.loc[counts, "step_time_s"] * b
    facts.setdefault(
        "micro_batch_size", Fact(b, "derived", "the first position of Keras's sample-counting bar")
    )
    return (
        f"Keras's bar counts samples (its total is the {int(n.value)} of 'Train on {int(n.value)} samples'): "
        f"position p -> optimizer step ceil(p / {b}), {b} the batch size its first redraw shows"
    )


def _flag_skipped_nan(steps: pd.DataFrame) -> None:
    """Rows whose iterations the framework stepped over for a NaN or infinite loss or gradient: flagged
    `skipped_nan` (the run went on; phases.status does not call it diverged for them). Megatron-LM counts,
    per log interval, the iterations it skipped and those of them whose loss was NaN or inf, and prints the
    line without their loss (megatron/training/training.py training_log: `number of skipped iterations`,
    `number of nan iterations`); a skip whose loss was finite (an fp16 overflow) is not a NaN. Since 2026-03
    (b09ee64, `if avg >= 0.0`) an interval whose iterations were all skipped prints its empty average as
    `lm loss: 0.000000E+00`: a skipped row's loss of exactly 0 is no loss, and becomes NaN."""
    if "skipped_iters" not in steps:
        return
    skipped = pd.to_numeric(steps["skipped_iters"], errors="coerce").fillna(0).to_numpy() > 0
    if "loss" in steps and pd.api.types.is_numeric_dtype(steps["loss"]):
        steps.loc[skipped & (steps["loss"] == 0).to_numpy(), "loss"] = np.nan
    nan = np.zeros(len(steps), dtype=bool)
    if "nan_iters" in steps:
        nan = pd.to_numeric(steps["nan_iters"], errors="coerce").fillna(0).to_numpy() > 0
    nan |= flagged(steps, "nonfinite_loss", "nonfinite_grad_norm")
    add_flag(steps, pd.Series(skipped & nan, index=steps.index), "skipped_nan")


def _flag_nonfinite(steps: pd.DataFrame, warnings: list[RunWarning]) -> None:
    """NaN or infinite logged values: the step stays, the value becomes NaN, the step is flagged.
    Values that did not convert at all (malformed) are flagged the same way."""
    marks: dict[str, pd.Series] = {}
    if "nonfinite" in steps:
        # in the order they first appear (a set's order changes with the process's hash seed: the warnings
        # and flags came out in another order from run to run)
        for col in dict.fromkeys(c for v in steps["nonfinite"].dropna() for c in v.split(",")):
            marks[col] = steps["nonfinite"].fillna("").str.split(",").apply(lambda cs, c=col: c in cs)
    for col, bad in marks.items():
        if col in steps and pd.api.types.is_numeric_dtype(steps[col]):
            steps.loc[bad, col] = np.nan
        add_flag(steps, bad, f"nonfinite_{col}")
        first = int(steps.loc[bad, "line"].iloc[0])
        warnings.append(
            RunWarning(
                f"{int(bad.sum())} step line(s) log a NaN or infinite {col} (first on line {first}); "
                "kept as steps, the value is NaN and the step is flagged",
                "nonfinite",
                line=first,
            )
        )
    if "malformed" in steps and steps["malformed"].eq(True).any():
        bad = steps["malformed"].eq(True)
        add_flag(steps, bad, "malformed")
        warnings.append(
            RunWarning(
                f"{int(bad.sum())} step line(s) have a value that does not read as a number "
                f"(first on line {int(steps.loc[bad, 'line'].iloc[0])}); it is NaN and the step is flagged",
                "malformed",
                line=steps.loc[bad, "line"].iloc[0],
            )
        )
    cut = flagged(steps, "cut")  # frame._cut_last_line: the log's last line has no newline
    if cut.any():
        warnings.append(
            RunWarning(
                f"the log ends inside a step line (line {int(steps.loc[cut, 'line'].iloc[-1])}, no newline after it): "
                "it may have been cut; a value it ends in is NaN and the step is flagged 'cut'",
                "cut",
                line=steps.loc[cut, "line"].iloc[-1],
            )
        )


def _check_consumed(steps: pd.DataFrame, warnings: list[RunWarning]) -> None:
    """`consumed samples` should grow by global batch x steps; a jump means skipped or replayed data."""
    if not {"consumed_samples", "global_batch_size"} <= set(steps) or steps["consumed_samples"].isna().all():
        return
    d_consumed = steps.groupby("segment")["consumed_samples"].diff()
    d_step = steps.groupby("segment")["step"].diff()
    expected = d_step * steps["global_batch_size"]
    jump = (d_consumed - expected).abs() > 0.01 * expected.abs() + 1
    jump &= d_consumed.notna() & expected.notna()
    if jump.any():
        add_flag(steps, jump, "consumed_jump")
        where = ", ".join(str(int(s)) for s in steps.loc[jump, "step"].head(5))
        warnings.append(
            RunWarning(
                f"consumed samples jump at {int(jump.sum())} step(s) (first at {where}): more or fewer samples than "
                "global batch x steps (a batch-size ramp between log lines, data skipped on resume, or a changed batch)",
                "consumed_jump",
                step=steps.loc[jump, "step"].iloc[0],
            )
        )


def _step_span(steps: pd.DataFrame, cadence: int | None) -> pd.Series:
    """How many optimizer steps each row stands for (its log interval): the step less the one before it in its
    segment; a segment's first row, its step (from the run's start) or the log's cadence."""
    cadence = cadence or 1
    seg, step = steps["segment"].to_numpy(), steps["step"].to_numpy(dtype=np.float64)
    if len(seg) and (np.diff(seg) >= 0).all():  # each segment's rows together (resolve's order): at once
        span = pd.Series(np.r_[np.nan, np.diff(step)], index=steps.index)
        first = np.flatnonzero(np.r_[True, seg[1:] != seg[:-1]])
    else:
        span = steps.groupby("segment")["step"].diff()
        first = steps.index.get_indexer(steps.groupby("segment").head(1).index)
    for i in first.tolist():
        s = int(step[i])
        span.iat[i] = s if (seg[i] == 0 and s <= cadence) else cadence
    return span.fillna(1).clip(lower=1).astype(int)


# ------------------------------------------------------------------------------------------------
# run facts and throughput


@dataclass(repr=False)
class Run:
    """A resolved run: one row per optimizer step and every fact with its provenance."""

    name: str
    source: str | list[str]
    parsed: ParsedLog
    steps: pd.DataFrame
    facts: dict[str, Fact]
    restarts: list[Restart]
    warnings: list[RunWarning]
    step_numbering: str
    step_time: StepTime | None  # where its step times came from
    throughput: Throughput | None = None  # where its tokens/s came from
    segments: list[Segment] = field(default_factory=list)
    all_steps: pd.DataFrame | None = None  # every row of the file; `steps` is the part analyzed
    analyzed: str = "the whole log"
    rate_choices: list[Choice] = field(
        default_factory=list
    )  # rates two lines gave, and which was believed (summary "sources")
    redone: pd.DataFrame | None = (
        None  # the file's rows that a later attempt logged again (their work was lost)
    )
    folder_steps: FolderSteps | None = None  # a run folder's record and console: which gave steps, times

    def value(self, name: str) -> Any:
        f = self.facts.get(name)
        return None if f is None else f.value

    def counted(self) -> str:
        """Its rows as the text summary counts them: `500 steps`, or `10 logged lines, 40 steps` where a logged
        line stands for several steps (step_span)."""
        rows = len(self.steps)
        spanned = int(self.steps["step_span"].sum()) if "step_span" in self.steps else rows
        steps = f"{spanned} step" + ("" if spanned == 1 else "s")
        if spanned == rows:
            return steps
        return f"{rows} logged line{'' if rows == 1 else 's'}, {steps}"

    def __repr__(self) -> str:
        formats = "+".join(self.parsed.formats[:1]) or "unrecognised"
        return f"<Run {self.name}: {formats} log, {self.counted()}>"

    @property
    def step_time_source(self) -> str | None:
        """The summary's sentence for where the step times came from."""
        return None if self.step_time is None else self.step_time.sentence

    @property
    def throughput_source(self) -> str | None:
        """The summary's sentence for where the tokens/s came from."""
        return None if self.throughput is None else self.throughput.sentence

    @cached_property
    def cadence(self) -> int | None:
        """How many steps apart the log prints the analyzed rows (stepframe.log_cadence), once for every
        reader (the status, the window). resolve_steps computes the whole file's for the step spans."""
        return log_cadence(self.steps, self.facts)


def resolve_run(parsed: ParsedLog, opts: Options, name: str) -> Run:
    """The resolved run: its steps (resolve_steps), the facts throughput needs (GPUs, sequence length,
    global batch, each the option's or the log's), tokens per step, a per-step clock where the logged speed
    is windowed, which of two lines to believe (sources.settle), the throughput, and the part analyzed."""
    rs = resolve_steps(parsed, opts)
    facts, warnings, steps = rs.facts, rs.warnings, rs.steps
    gpus, seq, gbs = run_facts(parsed, opts, facts, steps, warnings)
    seq_len = float(seq.value) if seq is not None else np.nan
    _fill_tokens_per_step(steps, facts, gbs, seq_len, opts, warnings)
    n_gpus = float(gpus.value) if gpus is not None else np.nan
    clock, step_time = _clock_for_windowed_time(steps, rs.step_time)
    choices = settle(steps, n_gpus, clock, parsed.formats[0], warnings)
    scope_of_unscoped_tokens(steps, parsed.keymap, facts, n_gpus, seq_len, step_time, warnings)
    throughput = fill_throughput(steps, seq_len, n_gpus, warnings)
    analyzed_steps, analyzed = _select(steps, rs.segments, opts.segment, warnings)
    _warn_unknowns(steps, gpus, seq, opts, warnings)
    _place_evaluations(parsed, steps)
    return Run(
        name,
        parsed.path,
        parsed,
        analyzed_steps,
        facts,
        [r for r in rs.restarts if analyzed_steps["line"].min() <= r.line <= analyzed_steps["line"].max()],
        warnings,
        rs.step_numbering,
        step_time,
        throughput,
        rs.segments,
        steps,
        analyzed,
        choices,
        rs.redone,
        rs.folder_steps,
    )


def _fill_tokens_per_step(
    steps: pd.DataFrame,
    facts: dict[str, Fact],
    gbs: Fact | None,
    seq_len: float,
    opts: Options,
    warnings: list[RunWarning],
) -> None:
    """Each step's global batch (the line's own value under a batch ramp-up, or the run's) and tokens per
    step: the log's count, else global batch x sequence length, else the stated tokens per step, else the
    differences of a running token count (in place)."""
    if "global_batch_size" not in steps or steps["global_batch_size"].isna().all():
        steps["global_batch_size"] = float(gbs.value) if gbs is not None else np.nan
    elif opts.global_batch is not None:
        steps["global_batch_size"] = steps["global_batch_size"].fillna(float(opts.global_batch))
    from_batch = steps["global_batch_size"] * seq_len
    if "tokens_per_step" in steps and steps["tokens_per_step"].notna().any():
        steps["tokens_per_step"] = steps["tokens_per_step"].fillna(from_batch)  # the log counts them itself
    else:
        steps["tokens_per_step"] = from_batch
    stated = facts.get("tokens_per_step")
    if stated is not None and steps["tokens_per_step"].isna().all():
        # nanoGPT / torchtitan state tokens per step directly
        steps["tokens_per_step"] = float(stated.value)
        if np.isfinite(seq_len) and seq_len:
            steps["global_batch_size"] = float(stated.value) / seq_len
    elif stated is not None:
        mine = float(steps["tokens_per_step"].median())
        if abs(mine - stated.value) / stated.value > 0.01:
            warnings.append(
                RunWarning(
                    f"tokens per step: the log states {stated.value:,} ({stated.detail}) but global batch x sequence "
                    f"length gives {mine:,.0f}; check {flag('seq_len')} and {flag('global_batch')}",
                    "tokens_differs",
                )
            )
    if steps["tokens_per_step"].isna().all() and "consumed_tokens" in steps:
        # a running token count (OLMo's total_tokens, Composer's time/token) gives tokens per step
        per = steps.groupby("segment")["consumed_tokens"].diff() / steps["step_span"]
        steps["tokens_per_step"] = per.where(per > 0).bfill()


def _clock_for_windowed_time(
    steps: pd.DataFrame, step_time: StepTime | None
) -> tuple[tuple[pd.Series, str] | None, str | None]:
    """The log's per-step clock (timing.per_step_clock), and the step time's source: a logged speed that is
    an average over a window gives way to the clock (in place, the logged time kept as step_time_s_logged)."""
    clock = per_step_clock(steps)
    if clock is not None and (windowed(steps, "step_time_s") or only_windowed_throughput(steps)):
        times, how = clock
        if "step_time_s" in steps:
            steps["step_time_s_logged"] = steps["step_time_s"]
        steps["step_time_s"] = times
        step_time = StepTime(StepTimeFrom.CLOCK, f"{how} (the logged speed is an average over a window)")
        unmark_windowed(steps, "step_time_s")
    return clock, step_time


def _warn_unknowns(
    steps: pd.DataFrame, gpus: Fact | None, seq: Fact | None, opts: Options, warnings: list[RunWarning]
) -> None:
    """Say what an unknown GPU count, sequence length or global batch costs, and what to pass: every input
    tokens/s lacks in one sentence (not one run after another), none that nothing needs."""
    if gpus is None:
        if steps["tokens_per_s_per_gpu"].notna().any():
            warnings.append(
                RunWarning(
                    "the number of GPUs is unknown: per-GPU throughput and MFU come from the log's per-GPU "
                    + (
                        "figures, and cluster-wide tokens/s from its own cluster figure; "
                        f"pass {flag('gpus')} to state it"
                        if steps["tokens_per_s"].notna().any()  # logged (per-GPU x unknown GPUs is NaN)
                        else f"figures, but cluster-wide tokens/s cannot be given; pass {flag('gpus')}"
                    ),
                    "gpus_unknown",
                )
            )
        else:
            warnings.append(
                RunWarning(
                    f"the number of GPUs is unknown: pass {flag('gpus')} to get per-GPU throughput and MFU",
                    "gpus_unknown",
                )
            )
    logged_tokens = any(
        c in steps and steps[c].notna().any() for c in ("tokens_per_s", "tokens_per_s_per_gpu")
    )
    if logged_tokens or steps["tokens_per_s"].notna().any():
        # the log counts tokens itself (Composer's throughput/tokens_per_sec, torchtitan's tps per device), or
        # its tokens per step make them: only FLOPs need the length, and not FLOPs given per token
        if seq is None and opts.flops_per_token is None:
            warnings.append(
                RunWarning(
                    f"the sequence length is unknown: tokens/s is the log's own count; pass {flag('seq_len')} for FLOPs/token and MFU",
                    "seq_len_unknown",
                )
            )
        return
    _warn_no_tokens(steps, seq, opts, warnings)


def _warn_no_tokens(steps: pd.DataFrame, seq: Fact | None, opts: Options, warnings: list[RunWarning]) -> None:
    """What tokens/s lacks, where the log counts none: every input in one sentence."""
    # tokens/s = samples per step x sequence length / step time (or a logged samples/s x sequence length)
    samples = "samples_per_s" in steps and steps["samples_per_s"].notna().any()
    if samples and opts.flops_per_sample is not None:
        return  # the MFU counts samples (utilization.mfu): tokens are not needed
    no_batch = not samples and steps["global_batch_size"].isna().all()
    if seq is None and no_batch:
        warnings.append(
            RunWarning(
                f"the sequence length and the global batch are unknown: pass {flag('seq_len')} and "
                f"{flag('global_batch')} to get tokens/s and MFU",
                "seq_len_unknown",
            )
        )
    elif seq is None:
        warnings.append(
            RunWarning(
                f"the sequence length is unknown: pass {flag('seq_len')} to get tokens/s and MFU",
                "seq_len_unknown",
            )
        )
    elif no_batch and steps["tokens_per_step"].isna().all():
        warnings.append(
            RunWarning(
                f"the global batch is unknown: pass {flag('global_batch')} to get tokens/s and MFU",
                "global_batch_unknown",
            )
        )


def _select(
    steps: pd.DataFrame, segments: list[Segment], wanted: int | None, warnings: list[RunWarning]
) -> tuple[pd.DataFrame, str]:
    """The rows the analysis covers: the last run of the file, or the segment asked for."""
    runs = sorted(steps["run"].unique()) if "run" in steps else [0]
    if wanted is not None:
        known = sorted(steps["segment"].unique())
        if wanted not in known:
            raise LogparseError(
                f"{flag('segment', wanted)}: the log has segment(s) {', '.join(map(str, known))} (see `segments` in "
                "summary.json)"
            )
        chosen = steps[steps["segment"] == wanted].reset_index(drop=True)
        return chosen, f"segment {wanted} ({flag('segment')})"
    if len(runs) < 2:
        return steps, "the whole log"
    last = runs[-1]
    begins = next(s for s in segments if s.kind == SegmentKind.NEW_RUN and s.run == last)
    others = ", ".join(
        f"run {r}: steps {int(part['step'].iloc[0])}..{int(part['step'].iloc[-1])} (segment "
        f"{int(part['segment'].iloc[0])})"
        for r, part in steps[steps["run"] != last].groupby("run")
    )
    warnings.append(
        RunWarning(
            f"the file holds {len(runs)} runs: at line {begins.line} the step counter goes back and "
            f"{begins.reason}; the analysis covers the last run, the others ({others}) stay rows of "
            f"`logparse parse` and can be analyzed with {flag('segment')}",
            "several_runs",
            line=begins.line,
        )
    )
    chosen = steps[steps["run"] == last].reset_index(drop=True)
    return chosen, f"run {last} of {len(runs)} (the last)"
