"""The goodput ledger: where a job's wall time went, from the console log alone.

Every second of the job, first attempt's start to the last line's time, is given to one category: the
productive time of the steps that count, or a kind of badput (start-up, checkpoints, eval, warm-up, slow
steps, steps a later attempt redid, a hang, the gap before a restart, and what remains). The ledger stands
on the log's timestamps when its step lines carry them (clock "timestamps": the parts add up to the wall
time), else on the step times and the durations the log prints (clock "step_times": what cannot be seen
is None, never 0).

The timeline is laid out of anchors, each a time on the log's clock:
- a step row's end is its timestamp and its start that less its own time (step time x the steps the row
  stands for); what lies between one row's end and the next row's start is a gap;
- each attempt starts at its first time the log shows (a stamped line before its first step, or a
  printed start-up duration counted back from its line: Megatron-LM's `time to initialize megatron`);
- an attempt that failed ends at its failure line's time (an NCCL watchdog timeout, a traceback), or at
  its last time plus the hang the watchdog printed (`ran for N milliseconds`).
A gap goes to the events whose lines fall in it: their printed durations first (a `save-checkpoint`
timer), the rest to the one kind of event without a printed duration, else to `other`. A step's time
above its regime's reference (the phases stage's) is counted once: warm-up for an attempt's first rows,
the event whose lines fall inside a slow step's time (a checkpoint save inside a step is checkpoint time),
else slow steps. Stable steps' noise is productive.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import cached_property

import numpy as np
import pandas as pd
import regex

from ..core.summary_types import CATEGORIES, LABELS, GoodputPart, LedgerEventPart, PeriodicDipPart
from ..core.warnings import RunWarning
from ..steps.run import Run
from ..steps.segments import SegmentRows
from ..steps.stamps import stamp_lines, stamp_text, stray_stamps
from ..steps.stepframe import flagged
from ..utilization.mfu import Utilization
from .phases import Phase, Phases

_EVENT_CATEGORY = {"checkpoint_save": "checkpoint", "checkpoint_load": "checkpoint", "eval": "eval"}

# a stamp inside an event line's text: ISO date and time, or a glog/absl/c10 prefix without a year
# ("E0301 11:37:01.288027", torch's "[E1120 11:37:01.288027000 ProcessGroupNCCL.cpp:616]")
_ISO = regex.compile(r"(?<!\d)(\d{4})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:[.,](\d+))?(?!\d)")
# glog prints the month and day as MMDD ("E0301"), c10's own logger as month*100+day ("E301", "E1206")
_TIME_OF_DAY = regex.compile(r"[0-9]{2}:[0-9]{2}:[0-9]{2}")
_GLOG = regex.compile(r"^\[?[IWEF](\d{3,4}) (\d\d):(\d\d):(\d\d)(?:\.(\d+))?\b")


@dataclass
class LedgerEvent:
    category: str
    seconds: float
    first_line: int
    last_line: int
    step: int | None
    detail: str

    def as_dict(self) -> LedgerEventPart:
        return {
            "category": self.category,
            "seconds": round(self.seconds, 3),
            "first_line": self.first_line,
            "last_line": self.last_line,
            "step": self.step,
            "detail": self.detail,
        }


@dataclass
class Attempt:
    """One attempt's own figures: throughput from its own steps and their own times, never from a counter
    that runs across a resume."""

    attempt: int
    first_step: int
    last_step: int
    steps: int
    step_seconds: float | None
    tokens_per_s: float | None
    mfu: float | None = None  # from this attempt's own tokens/s, under the run's formula and peak


@dataclass
class PeriodicDips:
    every: int  # steps between the dips' starts
    count: int
    depth: float  # median depth (1 - speed / reference)
    lost_s: float | None
    cause: str

    def as_dict(self) -> PeriodicDipPart:
        return {
            "every_steps": self.every,
            "count": self.count,
            "depth": round(self.depth, 4),
            "lost_s": None if self.lost_s is None else round(self.lost_s, 3),
            "cause": self.cause,
        }


@dataclass
class Ledger:
    clock: str  # "timestamps" | "step_times"
    wall_s: float | None
    productive_s: float | None
    badput: dict[str, float | None]
    events: list[LedgerEvent] = field(default_factory=list)
    attempts: list[Attempt] = field(default_factory=list)
    periodic: list[PeriodicDips] = field(default_factory=list)
    missing: dict[str, str] = field(default_factory=dict)  # category -> why it is unknown

    @property
    def goodput(self) -> float | None:
        if self.wall_s is None or self.productive_s is None or self.wall_s <= 0:
            return None
        return self.productive_s / self.wall_s

    def as_dict(self) -> GoodputPart:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 3)

        return {
            "clock": self.clock,
            "wall_s": r(self.wall_s),
            "productive_s": r(self.productive_s),
            "goodput": None if self.goodput is None else round(self.goodput, 4),
            "badput": {k: r(self.badput.get(k)) for k in CATEGORIES},
            "events": [e.as_dict() for e in self.events],
            "attempts": [
                {
                    "attempt": a.attempt,
                    "first_step": a.first_step,
                    "last_step": a.last_step,
                    "steps": a.steps,
                    "step_seconds": r(a.step_seconds),
                    "tokens_per_s": None if a.tokens_per_s is None else round(a.tokens_per_s, 1),
                    "mfu": None if a.mfu is None else round(a.mfu, 4),
                }
                for a in self.attempts
            ],
            "periodic_dips": [p.as_dict() for p in self.periodic],
            "unknown": dict(self.missing),
        }


# ------------------------------------------------------------------------------------------------
# the log's clock


def _year_of(stamps: np.ndarray) -> int | None:
    known = stamps[np.isfinite(stamps)]
    if not len(known):
        return None
    return datetime.fromtimestamp(float(np.median(known)), tz=timezone.utc).year


def text_stamp(text: str, year: int | None) -> float | None:
    """The time a line's own text states: an ISO date and time, or a year-less glog prefix in `year`."""
    m = _GLOG.match(text)
    if m is not None and year is not None:
        md, hh, mm, ss, frac = m.groups()
        month, day = divmod(int(md), 100)
        try:
            t = datetime(year, month, day, int(hh), int(mm), int(ss), tzinfo=timezone.utc)
        except ValueError:
            return None
        # glog's fraction is microseconds of the wall clock; c10's nine digits are not (torch's
        # Logging.cpp takes them from another clock), so only the whole second is kept of those
        return t.timestamp() + (float(f"0.{frac}") if frac and len(frac) <= 6 else 0.0)
    m = _ISO.search(text[:80])
    if m is not None:
        y, mo, d, hh, mm, ss, frac = m.groups()
        try:
            t = datetime(int(y), int(mo), int(d), int(hh), int(mm), int(ss), tzinfo=timezone.utc)
        except ValueError:
            return None
        return t.timestamp() + (float(f"0.{frac}") if frac else 0.0)
    return None


def _event_frame(run: Run, year: int | None) -> pd.DataFrame:
    """The log's events with their time (`t`: the captured timestamp, else a stamp in the text) and
    printed duration (`dur`), in line order."""
    ev = run.parsed.events
    if ev.empty or "event" not in ev:
        return pd.DataFrame({"event": [], "line": [], "text": [], "t": [], "dur": [], "step": []})
    text = ev["text"].astype(str) if "text" in ev else pd.Series("", index=ev.index, dtype=str)
    out = pd.DataFrame(
        {
            # (categorical: each `== "error"` and `isin` looks at a handful of names, not every row's text)
            "event": pd.Categorical(ev["event"].astype(str)),
            "line": pd.to_numeric(ev["line"], errors="coerce"),
            # the texts as Python str (the ledger takes rows of this frame a dozen times: an Arrow column's take
            # cost a quarter of a second on 600,000 checkpoint lines, and its texts are read as str anyway)
            "text": text.astype(object),
            "step": pd.to_numeric(ev["step"], errors="coerce") if "step" in ev else np.nan,
            "dur": pd.to_numeric(ev["duration_s"], errors="coerce") if "duration_s" in ev else np.nan,
        }
    )
    t = (
        pd.to_numeric(ev["timestamp"], errors="coerce")
        if "timestamp" in ev
        else pd.Series(np.nan, index=ev.index)
    )
    t = t.astype(float).to_numpy().copy()
    # only a text with a time of day in it can hold a stamp (most event lines have none): looked for in the lines
    # with no captured timestamp and a colon
    colon = text.str.contains(":", regex=False).to_numpy(dtype=bool)
    texts = out["text"].to_numpy()
    for i in np.flatnonzero(np.isnan(t) & colon).tolist():
        if _TIME_OF_DAY.search(texts[i]):
            found = text_stamp(texts[i], year)
            t[i] = np.nan if found is None else found
    out["t"] = t
    lines = out["line"].to_numpy(dtype=float)
    if np.isnan(lines).any():
        out = out.dropna(subset=["line"])
    if not out["line"].is_monotonic_increasing:
        out = out.sort_values("line", kind="stable")
    return out.reset_index(drop=True)


def _stamps_in_line(run: Run, rows: pd.DataFrame, events: pd.DataFrame) -> pd.DataFrame:
    """The events with the stamps that are stray among the log's stamps (the step rows' and theirs, in line
    order: steps.stamps) left out of the clock, and said in the run's warnings (the step rows' own were, by
    resolve)."""
    t = events["t"].to_numpy(dtype=float)
    if not np.isfinite(t).any():
        return events
    row_line, ev_line = rows["line"].to_numpy(dtype=float), events["line"].to_numpy(dtype=float)
    # each event's place among the rows, in line order (a row before an event of its line): both come sorted
    at = np.searchsorted(row_line, ev_line, side="right") + np.arange(len(ev_line))
    stamps = np.empty(len(row_line) + len(ev_line))
    is_event = np.zeros(len(stamps), dtype=bool)
    is_event[at] = True
    stamps[at], stamps[~is_event] = t, rows["timestamp"].to_numpy(dtype=float)
    mine = stray_stamps(stamps)[at]
    if not mine.any():
        return events
    first = int(np.flatnonzero(mine)[0])
    at = int(events["line"].iat[first])
    run.warnings.append(
        RunWarning(
            f"{stamp_lines(int(mine.sum()))} out of line with the stamps around them or at an impossible time "
            f"(first on event line {at}: {stamp_text(t[first])}): left out of the wall time and the ledger",
            "stray_stamp",
            line=at,
        )
    )
    events = events.copy()
    events.loc[mine, "t"] = np.nan
    return events


# ------------------------------------------------------------------------------------------------
# the rows


def _rows(run: Run, phases: Phases) -> pd.DataFrame:
    """Every step row of the analyzed part, the redone ones too (kept = False), in line order, with the
    steps it stands for (`span`), its own time (`busy`), its end (`end`) and its regime's reference time."""
    cols = [
        "line",
        "step",
        "segment",
        "step_time_s",
        "timestamp",
        "step_span",
        "phase",
        "regime",
        "tokens_per_step",
        "flags",
    ]
    kept = run.steps[[c for c in cols if c in run.steps]]  # (copy-on-write: a selection is its own frame)
    kept["kept"] = True
    frames = [kept]
    redone = run.redone
    if redone is not None and len(redone) and len(kept):
        lo, hi = kept["line"].min(), kept["line"].max()
        redone = redone[(redone["line"] >= lo) & (redone["line"] <= hi)]
        redone = redone.drop_duplicates(["segment", "step"], keep="last")
        part = redone[[c for c in cols if c in redone]]
        part["kept"] = False
        frames.append(part)
    rows = pd.concat(frames, ignore_index=True) if len(frames) > 1 else kept
    for col in ("step_time_s", "timestamp", "tokens_per_step"):
        rows[col] = pd.to_numeric(rows[col], errors="coerce") if col in rows else np.nan
    if not rows["line"].is_monotonic_increasing:
        rows = rows.sort_values("line", kind="stable")
    rows = rows.reset_index(drop=True)

    # the steps a row stands for: the kept rows know theirs; a redone row, from its attempt's rows
    cadence = run.cadence or 1
    diff = rows.groupby("segment")["step"].diff()
    span = rows["step_span"] if "step_span" in rows else pd.Series(np.nan, index=rows.index)
    rows["span"] = span.where(span.notna(), diff.where(diff > 0)).fillna(cadence).astype(float)

    busy = rows["step_time_s"] * rows["span"]
    busy = busy.where(np.isfinite(busy) & (busy > 0))
    by_clock = rows.groupby("segment")["timestamp"].diff()
    rows["busy"] = busy.fillna(by_clock.where(by_clock > 0))
    # a row without its own stamp ends where the one before it did plus its own time
    end = rows["timestamp"].copy()
    for i in np.flatnonzero(end.isna().to_numpy()):
        if i > 0 and np.isfinite(end.iat[i - 1]) and rows.at[i, "segment"] == rows.at[i - 1, "segment"]:
            end.iat[i] = end.iat[i - 1] + (rows["busy"].iat[i] if np.isfinite(rows["busy"].iat[i]) else 0.0)
    # a row whose stray stamp was left out (steps.stamps) before the first stamped row of its attempt ends where
    # the row after it starts
    for i in np.flatnonzero(flagged(rows, "stray_stamp") & end.isna().to_numpy())[::-1]:
        same_attempt = i + 1 < len(rows) and rows.at[i, "segment"] == rows.at[i + 1, "segment"]
        if same_attempt and np.isfinite(end.iat[i + 1]):
            after = rows["busy"].iat[i + 1]
            end.iat[i] = end.iat[i + 1] - (after if np.isfinite(after) else 0.0)
    rows["end"] = end
    rows["start"] = rows["end"] - rows["busy"].fillna(0.0)
    rows["ref"] = _reference_times(rows, phases)
    return rows


def _reference_times(rows: pd.DataFrame, phases: Phases) -> pd.Series:
    """Each kept row's reference step time: the median of its regime's stable rows (all its rows when none
    is stable), the time one step takes when nothing goes wrong."""
    ref = pd.Series(np.nan, index=rows.index)
    if "regime" not in rows or "phase" not in rows or not phases.regimes:
        return ref
    per_step = (rows["busy"] / rows["span"])[rows["kept"]]
    regime = rows.loc[rows["kept"], "regime"]
    stable = rows.loc[rows["kept"], "phase"] == Phase.STABLE
    known = per_step.notna()
    every = per_step[known].groupby(regime[known]).median()
    level = per_step[known & stable].groupby(regime[known & stable]).median().reindex(every.index)
    # each row's regime's level (Series.map goes value by value on a nullable column); -1, no regime: the NaN
    mapped = np.append(level.fillna(every).to_numpy(dtype=float), np.nan)[level.index.get_indexer(regime)]
    ref.loc[regime.index] = np.where(np.isfinite(mapped), mapped, np.nan)
    return ref


# ------------------------------------------------------------------------------------------------
# the ledger


class _Book:
    """Seconds by category, each piece with the lines it came from."""

    def __init__(self) -> None:
        self.totals: dict[str, float] = dict.fromkeys(CATEGORIES, 0.0)
        self.unknown: dict[str, str] = {}
        self.events: list[LedgerEvent] = []
        self.blocks: list[tuple[int, _Block]] = []  # (how many `events` came before it, the block)
        self.explained: set[int] = set()  # lines of events whose time a slow step already counted
        self.consumed: dict[
            int, float
        ] = {}  # event line -> seconds of its printed duration a step's time held
        self.uneven = False  # the parts came to more than the wall time: none of them is known (_badput)

    def add(
        self, category: str, seconds: float, first: int, last: int, step: int | None, detail: str
    ) -> None:
        if not math.isfinite(seconds) or seconds <= 0:
            return
        self.totals[category] += seconds
        self.events.append(LedgerEvent(category, seconds, int(first), int(last), step, detail))

    def add_block(self, block: _Block) -> None:
        """Many pieces at once, as `add` would enter them one by one (the totals summed in the same order)."""
        keep = np.isfinite(block.seconds) & (block.seconds > 0)
        block = block.where(keep)
        for category in dict.fromkeys(block.category):
            mine = block.seconds[np.asarray(block.category, dtype=object) == category]
            self.totals[category] = float(np.cumsum(np.concatenate([[self.totals[category]], mine]))[-1])
        if len(block.seconds):
            self.blocks.append((len(self.events), block))

    def mark_unknown(self, category: str, why: str) -> None:
        self.unknown.setdefault(category, why)


@dataclass
class _Block:
    """Ledger pieces as columns (_gaps: one per gap that one kind of event takes, tens of thousands in a log
    that saves every few steps); each made a LedgerEvent only when the ledger lists it (_folded)."""

    category: list[str]
    seconds: np.ndarray
    first: np.ndarray
    last: np.ndarray
    step: list[int | None]
    detail: list[str]  # (the text each piece's detail is made from, _short)

    def where(self, keep: np.ndarray) -> _Block:
        at = np.flatnonzero(keep).tolist()
        return _Block(
            [self.category[i] for i in at],
            self.seconds[keep],
            self.first[keep],
            self.last[keep],
            [self.step[i] for i in at],
            [self.detail[i] for i in at],
        )

    def event(self, i: int) -> LedgerEvent:
        return LedgerEvent(
            self.category[i],
            float(self.seconds[i]),
            int(self.first[i]),
            int(self.last[i]),
            self.step[i],
            _short(self.detail[i]),
        )


def _what(ev: pd.DataFrame) -> str:
    return _short(str(ev["text"].iloc[0]))


@dataclass
class _Lines:
    """Event records as plain sequences (category, line, printed duration, step, text), for the per-gap
    work: a pandas frame per gap cost milliseconds, minutes for a log that saves every few steps."""

    category: list[str | None]
    line: list[int]
    dur: list[float]
    step: list[float]
    text: list[str]

    @classmethod
    def of(cls, events: pd.DataFrame) -> _Lines:
        codes, names = pd.factorize(events["event"])
        category = np.array([*(_EVENT_CATEGORY.get(str(e)) for e in names), None], dtype=object)
        return cls(
            category[codes].tolist(),  # (code -1, no event: the last, None)
            events["line"].to_numpy(dtype=np.int64).tolist(),
            events["dur"].astype(float).tolist(),
            events["step"].astype(float).tolist(),
            list(map(str, events["text"].tolist())),  # (tolist: iterating an Arrow-backed column is slower)
        )

    @cached_property
    def lines(self) -> np.ndarray:
        return np.asarray(self.line, dtype=np.int64)

    @cached_property
    def _running(self) -> tuple[list[str], np.ndarray, list[np.ndarray], np.ndarray, np.ndarray]:
        """What `alone` reads, made once for all the segments' gaps: the categories, each event's category
        as a code (-1: none), per category the running count of its events, the running count of printed
        durations, and the index of the first event at or after each one that has a step (n: none)."""
        n = len(self.line)
        names = sorted({c for c in self.category if c is not None})
        # each event's category as its place in `names` (-1: none), through the distinct categories
        codes, distinct = pd.factorize(pd.Series(self.category, dtype=object))  # (None: code -1)
        code = np.array([*(names.index(c) for c in distinct), -1], dtype=np.int64)[codes]
        zero = np.zeros((1,), dtype=np.int64)
        counts = [np.concatenate([zero, np.cumsum(code == k)]) for k in range(len(names))]
        dur = np.array(self.dur, dtype=np.float64)
        printed = np.concatenate([zero, np.cumsum(dur == dur)])
        step = np.array(self.step, dtype=np.float64)
        has = np.where(step == step, np.arange(n), n)
        next_step = np.concatenate([np.minimum.accumulate(has[::-1])[::-1], [n]]) if n else np.array([0])
        return names, code, counts, printed, next_step

    def alone(self, lo: np.ndarray, hi: np.ndarray) -> tuple[np.ndarray, list[str | None], np.ndarray]:
        """For the event ranges [lo, hi): whether each holds events of one category and no printed duration
        (the common case of _share_gaps, a save every few steps), that category, and the index of its first
        event with a step (hi when none has one)."""
        n = len(self.line)
        names, code, counts, printed, next_step = self._running
        same = np.ones(len(lo), dtype=np.bool_)
        first = code[np.minimum(lo, max(n - 1, 0))] if n else np.full(len(lo), -1)
        for k, cum in enumerate(counts):
            mine = first == k
            same[mine] = (cum[hi[mine]] - cum[lo[mine]]) == (hi[mine] - lo[mine])
        ok = (hi > lo) & (first >= 0) & same & (printed[hi] == printed[lo])
        kinds = [names[int(k)] if k >= 0 else None for k in first.tolist()]
        return ok, kinds, np.minimum(next_step[lo], hi)


def _share_gap(
    book: _Book, gap: float | None, events: pd.DataFrame, default: str, lines: tuple[int, int], clock: bool
) -> None:
    """_share_gaps for one gap and the events in it."""
    _share_gaps(book, gap, _Lines.of(events), range(len(events)), default, lines, clock)


def _share_gaps(
    book: _Book, gap: float | None, ev: _Lines, idx: range, default: str, lines: tuple[int, int], clock: bool
) -> None:
    """A gap between two anchors (None without a clock) to the events `idx` whose lines fall in it: printed
    durations first, then what remains to the one kind of event without a printed duration (shared when
    several kinds lack one), else to `default`."""
    if gap is not None and len(idx):
        # the common case (a save every few steps): events of one kind, none printing its duration, take the gap
        kind = ev.category[idx[0]]
        if kind is not None and all(ev.category[i] == kind and ev.dur[i] != ev.dur[i] for i in idx):
            if gap > 0:
                step = next((ev.step[i] for i in idx if ev.step[i] == ev.step[i]), None)
                where = (ev.line[idx[0]], ev.line[idx[-1]], None if step is None else int(step))
                book.add(kind, gap, *where, _short(ev.text[idx[0]]))
            return
    by: dict[str, list[int]] = {}
    for i in idx:
        category = ev.category[i]
        if category is not None:
            by.setdefault(category, []).append(i)
    left = gap
    unprinted: list[str] = []
    for category, part in by.items():
        printed = [ev.dur[i] for i in part if ev.dur[i] == ev.dur[i]]
        steps = [ev.step[i] for i in part if ev.step[i] == ev.step[i]]
        where = (ev.line[part[0]], ev.line[part[-1]], int(steps[0]) if steps else None)
        if printed:
            # less what a step's own time already held of it (_held)
            seconds = max(0.0, sum(printed) - sum(book.consumed.get(ev.line[i], 0.0) for i in part))
            if left is not None:
                seconds = min(seconds, max(left, 0.0))
                left -= seconds
            book.add(category, seconds, *where, f"{_short(ev.text[part[0]])} (the duration the log prints)")
        else:
            unprinted.append(category)
            if not clock:
                book.mark_unknown(category, f"{LABELS[category]}: unknown without timestamps")
    if left is None:
        return
    if unprinted and left > 0:
        for category in unprinted:
            part = by[category]
            steps = [ev.step[i] for i in part if ev.step[i] == ev.step[i]]
            book.add(
                category,
                left / len(unprinted),
                ev.line[part[0]],
                ev.line[part[-1]],
                int(steps[0]) if steps else None,
                _short(ev.text[part[0]]),
            )
        return
    if left > 0:
        book.add(default, left, lines[0], lines[1], None, "time between lines that no event explains")


def _short(text: str) -> str:
    text = text.strip()
    return text if len(text) <= 90 else text[:87] + "..."


def _event_lines(events: pd.DataFrame) -> tuple[np.ndarray, pd.DataFrame]:
    """The checkpoint and eval events (those a slow step or a gap is given to), and their lines, sorted."""
    counted = events[events["event"].isin(_EVENT_CATEGORY)]
    return counted["line"].to_numpy(dtype=float), counted


def _inside(at: np.ndarray, after: np.ndarray, before: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """For each pair of lines, the index range [lo, hi) of the sorted event lines `at` strictly between
    them (after[k] < line < before[k])."""
    return np.searchsorted(at, after, side="right"), np.searchsorted(at, before, side="left")


def _held(book: _Book, rows: pd.DataFrame, events: pd.DataFrame, clock: bool, excess: pd.Series) -> pd.Series:
    """The printed checkpoint and eval durations a step's own time holds: the part the gap before the step
    does not cover (all of it without a clock), for the frameworks whose step time runs from one log line
    to the next (Megatron-LM before 2024-07 timed a save inside the next iteration). Capped by the row's
    excess (a counted row) or its own time (a redone row); given to the event's category. Returns the
    seconds held, per row. An attempt's first row holds none: the lines before it are its start-up's."""
    held = pd.Series(0.0, index=rows.index)
    ev_lines, counted = _event_lines(events)
    printed_ev = counted[counted["dur"].notna()]
    if printed_ev.empty:
        return held
    p_lines = printed_ev["line"].to_numpy(dtype=float)
    same = (rows["segment"] == rows["segment"].shift(1)).to_numpy()
    lo, hi = _inside(
        p_lines, rows["line"].shift(1).fillna(0).to_numpy(dtype=float), rows["line"].to_numpy(dtype=float)
    )
    gap = (rows["start"] - rows["end"].shift(1)).clip(lower=0).fillna(0.0).to_numpy()
    ref_all = float(rows["ref"].median()) if rows["ref"].notna().any() else 0.0
    for k in np.flatnonzero((hi > lo) & same):
        i = rows.index[k]
        # a counted row's time above its reference; a redone row (no regime) above the counted rows' median
        cap = excess.get(i, 0.0) if rows.at[i, "kept"] else rows.at[i, "busy"] - rows.at[i, "span"] * ref_all
        inside = printed_ev.iloc[lo[k] : hi[k]]
        take = min(
            max(0.0, float(inside["dur"].sum()) - (gap[k] if clock else 0.0)), max(float(cap or 0.0), 0.0)
        )
        if take <= 0:
            continue
        step, first = int(rows.at[i, "step"]), int(inside["line"].iloc[0])
        book.add(
            _EVENT_CATEGORY[str(inside["event"].iloc[0])],
            take,
            first,
            int(rows.at[i, "line"]),
            step,
            f"step {step}'s own time holds {_what(inside)}",
        )
        book.consumed[first] = book.consumed.get(first, 0.0) + take
        held.iat[k] = take
    return held


def _excess(book: _Book, rows: pd.DataFrame, events: pd.DataFrame, held: pd.Series) -> float:
    """The time of counted rows above their reference, less what they hold of a printed event (_held):
    warm-up, the event inside a slow step's time, or a slow step (consecutive slow steps without an event
    are one entry); returns the total taken out of productive, the held time included."""
    kept = rows[rows["kept"]]
    excess = (kept["busy"] - kept["span"] * kept["ref"]).where(lambda x: x > 0).dropna()
    residual = excess - held.reindex(excess.index).fillna(0.0)
    phase = rows["phase"].reindex(excess.index)
    ev_lines, counted = _event_lines(events)
    all_lines = rows["line"].to_numpy(dtype=float)
    at = rows.index.get_indexer(excess.index)
    prev_line = np.r_[0.0, all_lines[:-1]][at]
    line = all_lines[at]
    lo, hi = _inside(ev_lines, prev_line, line)
    taken = float(held.reindex(excess.index).fillna(0.0).sum())
    slow: list[int] = []  # a run of slow rows without an event, entered as one

    def flush() -> None:
        if slow:
            first, last = int(rows.at[slow[0], "step"]), int(rows.at[slow[-1], "step"])
            what = f"step {first}" if first == last else f"steps {first}-{last}"
            book.add(
                "slow_steps",
                float(residual.loc[slow].sum()),
                int(rows.at[slow[0], "line"]),
                int(rows.at[slow[-1], "line"]),
                first,
                f"{what} below their regime's speed",
            )
            slow.clear()

    # the slow rows of dips (warm-up below; a stable step's noise is productive time), found at once: a long
    # run has a hundred thousand rows above their reference
    seconds = residual.to_numpy(dtype=float)
    in_dips = np.flatnonzero((phase.to_numpy() == Phase.DIP) & (seconds > 0))
    for k, i, x in zip(in_dips.tolist(), excess.index[in_dips], seconds[in_dips].tolist(), strict=True):
        taken += x
        inside = counted.iloc[lo[k] : hi[k]]
        unprinted = inside[inside["dur"].isna()]
        if len(unprinted):
            flush()
            step = int(rows.at[i, "step"])
            book.explained.update(int(v) for v in inside["line"])
            book.add(
                _EVENT_CATEGORY[str(unprinted["event"].iloc[0])],
                x,
                int(unprinted["line"].min()),
                int(line[k]),
                step,
                f"step {step} slowed by {_what(unprinted)}",
            )
        elif slow and slow[-1] != i - 1:
            flush()
            slow.append(i)
        else:
            slow.append(i)
    flush()
    return taken + _warmup(book, rows, residual[phase.isin([Phase.WARMUP, Phase.RESTART]).to_numpy()])


def _warmup(book: _Book, rows: pd.DataFrame, warm: pd.Series) -> float:
    """The warm-up rows' time above their reference, one entry an attempt; returns the total."""
    taken = 0.0
    for seg, part in warm.groupby(rows["segment"].reindex(warm.index)):
        idx = part.index
        first, last = int(rows.at[idx[0], "step"]), int(rows.at[idx[-1], "step"])
        what = "warm-up" if seg == rows["segment"].min() else "warm-up after the resume"
        book.add(
            "warmup",
            float(part.sum()),
            int(rows.at[idx[0], "line"]),
            int(rows.at[idx[-1], "line"]),
            first,
            f"{what}: steps {first}-{last} above their regime's step time",
        )
        taken += float(part.sum())
    return taken


def build_ledger(run: Run, phases: Phases, util: Utilization | None = None) -> Ledger | None:
    """The run's goodput ledger (None for a run with no step rows); with `util`, each attempt's MFU."""
    if run.steps.empty or "line" not in run.steps:
        return None
    rows = _rows(run, phases)
    stamped = rows["timestamp"].notna()
    clock = bool(len(rows) and stamped.mean() >= 0.5 and rows["end"].notna().all())
    book = _Book()
    year = _year_of(rows["timestamp"].to_numpy(dtype=float))
    events = _event_frame(run, year)
    if year is None and events["t"].notna().any():
        # no stamped step line: a year-less glog stamp takes the year of the event lines' own dated stamps
        events = _event_frame(run, _year_of(events["t"].to_numpy(dtype=float)))
    events = _stamps_in_line(run, rows, events)
    still = clock and _still(rows, events)
    if still:
        # every stamp of the run reads the same (mmengine's whole seconds over a run shorter than one): they
        # measure no wall time, the steps' own times are all the log tells
        clock = False

    counted = rows[rows["kept"]]
    busy_known, excess_known = _timed(counted, clock)
    kept_excess = (counted["busy"] - counted["span"] * counted["ref"]).where(lambda x: x > 0).dropna()
    held = _held(book, rows, events, clock, kept_excess)
    excess = _excess(book, rows, events, held) if excess_known else 0.0
    redone = rows[~rows["kept"]]
    for seg, part in redone.groupby("segment"):
        first, last = int(part["step"].min()), int(part["step"].max())
        book.add(
            "wasted_progress",
            float(part["busy"].sum() - held.loc[part.index].sum()),
            int(part["line"].min()),
            int(part["line"].max()),
            first,
            f"steps {first}-{last} of attempt {int(seg) + 1}, redone by a later attempt",
        )
    productive = float(counted["busy"].sum(min_count=1)) - excess if busy_known else None

    if clock:
        wall = _timeline(book, rows, events)
    else:
        wall = None
        _printed_only(book, rows, events)
        if still:
            book.unknown = {k: why.replace("without timestamps", STILL) for k, why in book.unknown.items()}

    productive, badput = _badput(book, wall, productive, busy_known, excess_known, len(redone) > 0)
    events_sorted = [] if book.uneven else sorted(_folded(book), key=lambda e: (e.first_line, e.category))
    return Ledger(
        "timestamps" if clock else "step_times",
        wall,
        productive,
        badput,
        events_sorted,
        _attempts(rows, util, run.value("gpus")),
        periodic_dips(run, phases, events),
        dict(book.unknown),
    )


def _timed(counted: pd.DataFrame, clock: bool) -> tuple[bool, bool]:
    """Whether the counted rows' own times are known (productive time is), and whether the time above their
    reference is (warm-up and slow steps are)."""
    # with a clock, a row whose own time is unknown (torchtitan's first step prints none) takes none: its
    # time lies in the gap before it (start-up for an attempt's first row, whose time a clock's differences
    # never give); without one, it must be known
    known = counted["busy"].notna()
    opening = counted["segment"].ne(counted["segment"].shift()).to_numpy()
    if clock and not opening.all():
        busy_known = bool(known[~opening].mean() >= 0.9)
    else:
        busy_known = bool(len(counted)) and bool(known.all())
    # warm-up and slow steps are time above the reference on the rows the phases judge: known when each of
    # those has its own time, the times the dips are measured by (a row the phases could not time, an
    # attempt's first under a clock's differences, is in neither)
    judged = counted["phase"].notna() if "phase" in counted else pd.Series(False, index=counted.index)
    return busy_known, busy_known or bool(judged.any() and known[judged].all())


def _badput(
    book: _Book,
    wall: float | None,
    productive: float | None,
    busy_known: bool,
    excess_known: bool,
    redone: bool,
) -> tuple[float | None, dict[str, float | None]]:
    """Each category's seconds (None where unknown); with a clock, `other` is what remains of the wall
    time, so that the parts add up. Returns productive too: the clock's resolution can take from it.
    `excess_known`: warm-up and slow steps are known (every row the phases judge has its own time)."""
    badput: dict[str, float | None] = {k: book.totals[k] for k in CATEGORIES}
    for category in book.unknown:
        badput[category] = None
    if wall is not None and productive is not None:
        known = sum(v for k, v in badput.items() if v is not None and k != "other")
        other = wall - productive - known
        if known > wall:
            # not the clock's resolution: the parts the log's times give come to more than all of its time (step
            # lines out of order: their stamps go back and forth, a row's steps span thousands); no part is known
            why = f"{UNEVEN} ({(productive + known) / 3600:,.1f} h against {wall / 3600:,.1f} h)"
            for category in CATEGORIES:
                badput[category] = None
                book.mark_unknown(category, f"{LABELS[category]}: unknown: {why}")
            book.uneven = True
            return None, badput
        if other < 0:
            # the clock's resolution (whole seconds) against step times in milliseconds: the overshoot is
            # the stamps', taken from productive so that the parts still add up
            productive += other
            other = 0.0
        badput["other"] = other
    elif not busy_known:
        unknown = ("wasted_progress",) if redone else ()
        if not excess_known:
            unknown = ("warmup", "slow_steps", *unknown)
        for category in unknown:
            badput[category] = None
            book.mark_unknown(category, f"{LABELS[category]}: unknown without step times")
        if wall is not None:  # the remainder of a wall time whose steps' share is unknown
            badput["other"] = None
            book.mark_unknown("other", "other: unknown without step times")
    return productive, badput


# why no part of the wall time is known when the log's times give parts that come to more than all of it
UNEVEN = "the log's times give parts that add up to more than its wall time"

EVENTS_KEPT = 50  # entries a category keeps in summary.json; the smaller rest is one entry that adds them up


def _folded(book: _Book) -> list[LedgerEvent]:
    """The ledger's entries, at most EVENTS_KEPT a category: the largest, then one entry for the rest (a log
    that saves every few steps has tens of thousands), so the seconds still add up to the category's.
    Categories in the order they were first entered; within one, entries in the order entered, or by
    seconds, largest first (ties in the order entered)."""
    # every piece in the order entered, the single events and the blocks where they came: where it is kept
    # (block number, -1 for an event; its row there), its category, seconds and lines
    source: list[np.ndarray] = []
    row: list[np.ndarray] = []
    category: list[str] = []
    columns: list[list[np.ndarray]] = [[], [], []]  # seconds, first lines, last lines
    done = 0
    for b, (before, block) in enumerate([*book.blocks, (len(book.events), None)]):
        events = book.events[done:before]
        source.append(np.full(len(events), -1))
        row.append(np.arange(done, before))
        category += [e.category for e in events]
        for into, name in zip(columns, ("seconds", "first_line", "last_line"), strict=True):
            into.append(np.array([getattr(e, name) for e in events], dtype=float))
        done = before
        if block is not None:
            source.append(np.full(len(block.seconds), b))
            row.append(np.arange(len(block.seconds)))
            category += block.category
            for into, values in zip(columns, (block.seconds, block.first, block.last), strict=True):
                into.append(np.asarray(values, dtype=float))
    where, at = np.concatenate(source), np.concatenate(row)
    secs, firsts, lasts = (np.concatenate(c) if c else np.array([]) for c in columns)

    def event(k: int) -> LedgerEvent:
        b, i = int(where[k]), int(at[k])
        return book.events[i] if b < 0 else book.blocks[b][1].event(i)

    codes, names = pd.factorize(pd.Series(category, dtype=object))
    out: list[LedgerEvent] = []
    for code, name in enumerate(names):
        mine = np.flatnonzero(codes == code)
        if len(mine) <= EVENTS_KEPT + 1:
            out += [event(k) for k in mine.tolist()]
            continue
        ranked = mine[np.argsort(-secs[mine], kind="stable")]
        top, rest = ranked[:EVENTS_KEPT], ranked[EVENTS_KEPT:]
        out += [event(k) for k in top.tolist()]
        out.append(
            LedgerEvent(
                name,
                float(np.cumsum(secs[rest])[-1]),  # (summed in order, as a loop would)
                int(firsts[rest].min()),
                int(lasts[rest].max()),
                None,
                f"{len(rest):,} more {LABELS[name]} entries, each shorter than those listed",
            )
        )
    return out


def _timeline(book: _Book, rows: pd.DataFrame, events: pd.DataFrame) -> float | None:
    """Lay the job's time out from its first anchor to its last; returns the wall time."""
    points = _ByLine(_points(rows, events))
    segment = rows["segment"].to_numpy()
    segs = pd.unique(segment).tolist()
    attempts = SegmentRows(segment)
    ev = _Lines.of(events)
    by_line = _ByLine(events)
    start_of_job: float | None = None
    prev_last: pd.Series | None = None
    prev_end: float | None = None
    for k, seg in enumerate(segs):
        part = rows.iloc[attempts.at(seg)]
        first, last = part.iloc[0], part.iloc[-1]
        lo = int(prev_last["line"]) if prev_last is not None else 0
        before = by_line.between(lo, first["line"])
        fail_line = lo
        if prev_last is not None:
            fail_line, prev_end = _attempt_end(book, prev_last, before, points, k)
        new = before[before["line"] > fail_line]
        start = _attempt_start(new, points, float(first["start"]), fail_line, int(first["line"]))
        if k == 0:
            start_of_job = start
        elif prev_end is not None:
            book.add(
                "restart_recovery",
                max(0.0, start - prev_end),
                fail_line,
                int(first["line"]),
                None,
                f"from the end of attempt {k} to the start of attempt {k + 1}",
            )
        _startup(book, new, start, first, fail_line, k)
        _gaps(book, part, by_line.lines, ev)
        prev_last = last
    assert prev_last is not None and start_of_job is not None
    tail = by_line.between(prev_last["line"], None)
    last_line = int(tail["line"].max()) if len(tail) else int(prev_last["line"])
    if (tail["event"] == "error").any():
        # the job ended in a failure: as an attempt that failed (its hang), then whatever it printed after
        fail_line, end = _attempt_end(book, prev_last, tail, points, len(segs))
        end_of_job = max(float(points.frame["t"].max()), end)
        book.add("other", end_of_job - end, fail_line, last_line, None, "after the failure")
    else:
        end_of_job = max(float(points.frame["t"].max()), float(prev_last["end"]))
        _share_gap(
            book,
            end_of_job - float(prev_last["end"]),
            tail,
            "other",
            (int(prev_last["line"]), last_line),
            True,
        )
    return end_of_job - start_of_job


def _points(rows: pd.DataFrame, events: pd.DataFrame) -> pd.DataFrame:
    """The times known by line: each row's end and each stamped event's time, in line order (a row before an
    event of its line). Both come sorted by line: merged, not sorted again."""
    stamped = events["t"].notna().to_numpy()
    row_line, row_t = rows["line"].to_numpy(dtype=float), rows["end"].to_numpy(dtype=float)
    ev_line, ev_t = events["line"].to_numpy(dtype=float)[stamped], events["t"].to_numpy(dtype=float)[stamped]
    if not (np.all(np.diff(row_line) >= 0) and np.all(np.diff(ev_line) >= 0)):
        order = np.argsort(np.r_[row_line, ev_line], kind="stable")
        return pd.DataFrame({"line": np.r_[row_line, ev_line][order], "t": np.r_[row_t, ev_t][order]})
    at = np.searchsorted(row_line, ev_line, side="right") + np.arange(len(ev_line))  # (each event's place)
    line, t = np.empty(len(row_line) + len(ev_line)), np.empty(len(row_line) + len(ev_line))
    is_event = np.zeros(len(line), dtype=bool)
    is_event[at] = True
    line[at], t[at] = ev_line, ev_t
    line[~is_event], t[~is_event] = row_line, row_t
    return pd.DataFrame({"line": line, "t": t})


class _ByLine:
    """A frame in line order (the events, _event_frame; the times by line, _points) whose rows between two lines
    are taken as a slice (searchsorted), not by a mask over every row: the ledger asks several times an attempt,
    and a log can hold thousands of attempts."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self.frame = frame
        self.lines = frame["line"].to_numpy(dtype=float)

    def between(
        self, lo: float | None, hi: float | None, lo_in: bool = False, hi_in: bool = False
    ) -> pd.DataFrame:
        """The rows whose line is after `lo` (at or after, `lo_in`) and before `hi` (or at, `hi_in`); None: no bound."""
        a = 0 if lo is None else int(np.searchsorted(self.lines, lo, side="left" if lo_in else "right"))
        b = (
            len(self.lines)
            if hi is None
            else int(np.searchsorted(self.lines, hi, side="right" if hi_in else "left"))
        )
        return self.frame.iloc[a : max(a, b)]


def _startup(book: _Book, new: pd.DataFrame, start: float, first: pd.Series, after: int, k: int) -> None:
    """Attempt k's start-up: its start to its first step's start, less the checkpoint loading in it (the
    printed load-checkpoint timer, else the stamps of its load lines)."""
    loads = new[new["event"] == "checkpoint_load"]
    startup = max(0.0, float(first["start"]) - start)
    load_s = float(loads["dur"].dropna().sum())
    if len(loads) and not loads["dur"].notna().any():
        load_s = _stamped_span(loads)
    load_s = min(load_s, startup)
    if load_s > 0:
        lines = (int(loads["line"].min()), int(loads["line"].max()))
        book.add("checkpoint", load_s, *lines, None, f"{_what(loads)} (loading)")
    book.add(
        "startup",
        startup - load_s,
        after + 1,
        int(first["line"]),
        int(first["step"]),
        f"attempt {k + 1}: its start to its first step's start",
    )


def _stamped_span(events: pd.DataFrame) -> float:
    t = events["t"].dropna()
    return float(t.max() - t.min()) if len(t) >= 2 else 0.0


def _attempt_end(
    book: _Book, last: pd.Series, between: pd.DataFrame, points: _ByLine, k: int
) -> tuple[int, float]:
    """Where attempt k (from 0, the one before `between`) ended: at its failure line, if the log prints
    one, else at its last anchor. Its tail (saves after its last step, the hang) goes into the book.
    Returns the failure's line (the split between the two attempts' lines) and the end's time."""
    fails = between[between["event"] == "error"]
    if len(fails):
        fail_line = int(fails["line"].iloc[-1])
    else:
        # no failure printed: the old attempt's lines end where the new one's first marker is
        marks = between[between["event"].isin(["start", "checkpoint_load"])]
        fail_line = int(marks["line"].iloc[0]) - 1 if len(marks) else int(last["line"])
    old = between[between["line"] <= fail_line]
    old_points = points.between(last["line"], fail_line, hi_in=True)["t"].dropna()
    last_t = max([float(last["end"]), *old_points.tolist()])
    # a failure's time: its stamp, else the last time before it plus the hang the watchdog printed (several
    # ranks print the same timeout: the longest counts)
    printed = fails["dur"].dropna()
    hang = float(printed.max()) if len(printed) else None
    end = last_t
    stamped = fails["t"].dropna()
    if len(fails) and hang is not None and (stamped.empty or stamped.max() <= float(last["end"])):
        # no stamp on the failure, or one that is not after the last step (another clock: a c10 prefix pasted
        # from elsewhere, a node's skewed clock): the watchdog's own duration says how long the hang was
        end = last_t + hang
    saves = old[old["event"].isin(_EVENT_CATEGORY)]
    tail = end - float(last["end"])
    if len(fails):
        named = fails[fails["dur"].notna()] if hang is not None else fails
        # the saves and evals after the last step first, then the hang the watchdog printed, the rest other
        before_hang = tail - (min(hang, tail) if hang is not None else 0.0)
        _share_gap(
            book,
            before_hang,
            saves,
            "other" if hang is not None else "hang",
            (int(last["line"]), fail_line),
            True,
        )
        if hang is not None:
            book.add(
                "hang",
                min(hang, tail),
                int(named["line"].iloc[0]),
                fail_line,
                int(last["step"]),
                f"attempt {k}: {_what(named)}",
            )
    else:
        _share_gap(book, tail, saves, "other", (int(last["line"]), fail_line), True)
    return fail_line, end


def _attempt_start(new: pd.DataFrame, points: _ByLine, first_start: float, after: int, upto: int) -> float:
    """An attempt's start: the earliest of its stamped lines before its first step and the printed start-up
    durations counted back from their lines' times, never after its first step's start."""
    own = points.between(after, upto)["t"].dropna()
    start = min([first_start, *own.tolist()])
    inits = new[(new["event"] == "start") & new["dur"].notna()]
    for _, ev in inits.iterrows():
        t = ev["t"]
        if not math.isfinite(float(t)):
            later = points.between(ev["line"], upto, lo_in=True)["t"].dropna()
            t = float(later.iloc[0]) if len(later) else first_start
        start = min(start, float(t) - float(ev["dur"]))
    return start


# a gap between steps with no event in it is entered on its own when it is this long (else it is only
# counted, in `other`): a stall worth a look
STALL_S = 60.0


def _gaps(book: _Book, part: pd.DataFrame, at: np.ndarray, ev: _Lines) -> None:
    """The time between one row's end and the next row's start, inside one attempt: given to the events in
    it; a gap with none adds to `other` (the remainder), and is entered when it is a stall."""
    if len(part) < 2:
        return
    gap = part["start"].to_numpy(dtype=float)[1:] - part["end"].to_numpy(dtype=float)[:-1]
    lines = part["line"].to_numpy(dtype=float)
    lo, hi = _inside(at, lines[:-1], lines[1:])  # (`at`: the events' lines)
    chosen = np.flatnonzero((hi > lo) | (gap >= STALL_S))
    if not len(chosen):
        return
    # the common case at once: events of one kind, none printing its duration, take the gap (_share_gaps)
    alone, kinds, stepped = ev.alone(lo[chosen], hi[chosen])
    shared = np.flatnonzero(~alone).tolist()
    start = 0
    for j in [*shared, len(chosen)]:
        if j > start:  # a run of gaps that one kind of event takes, entered at once
            a, b = lo[chosen[start:j]], hi[chosen[start:j]]
            first = a.tolist()
            steps = [
                int(ev.step[s]) if s < e else None
                for s, e in zip(stepped[start:j].tolist(), b.tolist(), strict=True)
            ]
            texts = [ev.text[i] for i in first]
            book.add_block(
                _Block(kinds[start:j], gap[chosen[start:j]], ev.lines[a], ev.lines[b - 1], steps, texts)
            )  # type: ignore[arg-type]
        if j < len(chosen):
            k, a0, b0 = int(chosen[j]), int(lo[chosen[j]]), int(hi[chosen[j]])
            _share_gaps(
                book, float(gap[k]), ev, range(a0, b0), "other", (int(lines[k]), int(lines[k + 1])), True
            )
        start = j + 1


def _still(rows: pd.DataFrame, events: pd.DataFrame) -> bool:
    """Whether the stamps of the step rows and the events all read the same time: a clock that never ticks over
    the run."""
    stamps = np.concatenate([rows["timestamp"].to_numpy(dtype=float), events["t"].to_numpy(dtype=float)])
    stamps = stamps[np.isfinite(stamps)]
    return len(stamps) > 1 and bool(stamps.max() == stamps.min())


# why the wall time is unknown where the log's stamps never advance
STILL = "while the log's stamps do not advance"


def _printed_only(book: _Book, rows: pd.DataFrame, events: pd.DataFrame) -> None:
    """Without a clock: what the log's printed durations show; the rest is unknown."""
    for category in ("startup", "other"):
        book.mark_unknown(category, f"{LABELS[category]}: unknown without timestamps")
    inits = events[(events["event"] == "start") & events["dur"].notna()]
    if len(inits):
        # the printed start-up is part of it, not all of it (the model build and data loading come after)
        book.unknown["startup"] = "startup: unknown without timestamps (the log prints only part of it)"
    segs = rows["segment"].nunique()
    if segs > 1:
        book.mark_unknown("restart_recovery", "restart: unknown without timestamps")
    fails = events[events["event"] == "error"]
    if segs > 1 or len(fails):
        printed = fails[fails["dur"].notna()]
        if len(printed):
            # one hang an attempt: every rank's watchdog prints the same timeout, the longest counts
            after = np.searchsorted(rows["line"].to_numpy(dtype=float), printed["line"].to_numpy(dtype=float))
            for _, part in printed.groupby(after):
                worst = part.loc[part["dur"].idxmax()]
                book.add(
                    "hang",
                    float(worst["dur"]),
                    int(part["line"].min()),
                    int(part["line"].max()),
                    None,
                    str(worst["text"])[:90],
                )
        elif segs > 1:
            book.mark_unknown("hang", "hang: unknown without timestamps (no timeout duration printed)")
    counted = events[events["event"].isin(_EVENT_CATEGORY) & ~events["line"].isin(book.explained)]
    # a checkpoint or eval whose time shows in a slow step was counted by _excess (its printed duration is
    # not added again); one between steps only through a printed duration
    gaps = np.searchsorted(rows["line"].to_numpy(dtype=float), counted["line"].to_numpy(dtype=float))
    ev = _Lines.of(counted)
    cuts = [0, *(np.flatnonzero(np.diff(gaps)) + 1).tolist(), len(gaps)]
    for a, b in zip(cuts[:-1], cuts[1:], strict=True):  # one entry a gap between steps
        if b > a:
            _share_gaps(book, None, ev, range(a, b), "other", (ev.line[a], ev.line[b - 1]), False)
    for category in ("checkpoint", "eval"):
        if category in book.unknown and book.totals[category] > 0:
            # part known (printed durations, slow steps), part not: still unknown as a whole
            book.unknown[category] = (
                f"{LABELS[category]}: unknown without timestamps (only part of it shows in the log)"
            )


def _attempts(rows: pd.DataFrame, util: Utilization | None, gpus: float | None) -> list[Attempt]:
    """Each attempt's own steps, time and tokens/s (and MFU: never a counter that runs across a resume)."""
    out = []
    for seg, part in rows[rows["kept"]].groupby("segment"):
        busy = part["busy"]
        seconds = float(busy.sum()) if busy.notna().all() else None
        tokens = (
            (part["tokens_per_step"] * part["span"]).sum() if part["tokens_per_step"].notna().all() else None
        )
        tps = float(tokens) / seconds if tokens is not None and seconds else None
        out.append(
            Attempt(
                int(seg),
                int(part["step"].min()),
                int(part["step"].max()),
                int(part["span"].sum()),
                seconds,
                tps,
                None if util is None or tps is None or not gpus else util.figures(tps / float(gpus))[1],
            )
        )
    return out


# ------------------------------------------------------------------------------------------------
# periodic dips


def periodic_dips(run: Run, phases: Phases, events: pd.DataFrame) -> list[PeriodicDips]:
    """Dips that recur at one step interval (three or more, each the interval after the one before, to a
    step either way), as one pattern, with the event they coincide with."""
    dips = phases.dips
    if len(dips) < 3:
        return []
    starts = np.array([d.start_step for d in dips])
    gaps = np.diff(starts)
    every = int(np.median(gaps))
    if every < 2:
        return []
    regular = np.abs(gaps - every) <= 1
    if regular.mean() < 0.75:
        return []
    lost = [d.lost_s for d in dips]
    near = [e["event"] for d in dips for e in d.near_events]
    saves = events.loc[events["event"] == "checkpoint_save", "step"].dropna()
    evals = events.loc[events["event"] == "eval", "step"].dropna()
    if near.count("checkpoint_save") >= len(dips) / 2 or _interval(saves) == every:
        cause = "at the checkpoint interval"
    elif near.count("eval") >= len(dips) / 2 or _interval(evals) == every:
        cause = "at the eval interval"
    else:
        cause = "no event: look at GC or data loading"
    return [
        PeriodicDips(
            every,
            len(dips),
            float(np.median([1.0 - d.min_ratio for d in dips])),
            float(sum(x for x in lost if x is not None)) if any(x is not None for x in lost) else None,
            cause,
        )
    ]


def _interval(steps: pd.Series) -> int | None:
    s = np.unique(steps.to_numpy(dtype=float))
    if len(s) < 2:
        return None
    return int(np.median(np.diff(s)))
