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

import math
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from itertools import chain, islice
from typing import Any

import pandas as pd

from .errors import LogparseError, UnrecognisedLog
from .patterns import (
    KEPT,
    MAPPED,
    MAX_WRAP_PARTS,
    PROBLEMS,
    WINDOWED,
    Composition,
    Convention,
    Detection,
    LineSpec,
    PatternSet,
    detect,
    specificity_order,
)
from .reader import ReadStats, Record, describe, read_records

DETECT_HEAD = 5000  # records scored for detection before deciding
DETECT_MORE = 50_000  # ... and this many when the head leaves two sets close
SECONDARY_SHARE = 0.02  # a second set joins when it scores at least this share of the winner's hits


@dataclass
class FactObservation:
    value: Any
    line: int
    pattern: str


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
    windows: dict[str, dict[str, Any]] = field(default_factory=dict)  # column -> its averaging window
    composition: Composition | None = None  # two frameworks in one log (Megatron-DeepSpeed)
    # each applied set's reporting convention ([format.reported]): set name -> column (None: any) -> convention
    conventions: dict[str, dict[str | None, Convention]] = field(default_factory=dict)

    @property
    def format(self) -> str:
        """The log's format: the composition's name, else the detected family's."""
        return self.composition.name if self.composition is not None else self.formats[0]

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
            return [sets[c.host], sets[c.guest], *_common(sets)], Detection(c.host, {c.host: 0}, 1.0)
        if forced not in sets:
            known = ", ".join(sorted([*sets, *composed]))
            raise LogparseError(f"unknown format {forced!r}; known pattern sets: {known}")
        return [sets[forced], *_common(sets)], Detection(forced, {forced: 0}, 1.0)
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
    chosen = [sets[n] for n in specificity_order(sets) if n in joined]
    return chosen + _common(sets), found


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
        (ps.name for ps in chosen), key=lambda n: (n != detection.name, -detection.scores.get(n, -1))
    )


def _unsure(d: Detection) -> bool:
    ranked = sorted(d.scores.values(), reverse=True)
    return len(ranked) > 1 and ranked[1] > 0 and ranked[1] >= 0.8 * ranked[0]


def _fallback(d: Detection, sets: dict[str, PatternSet]) -> bool:
    return d.name in sets and sets[d.name].role == "fallback"


def _common(sets: dict[str, PatternSet]) -> list[PatternSet]:
    return [ps for ps in sets.values() if ps.role == "common"]


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
    if (not chosen or fallback) and len(head) >= DETECT_HEAD:
        # Nothing in the head: score the whole file (a long preamble). Only the generic reading: look
        # further for a framework's line before settling for it.
        more = read_records(path)
        chosen, detection = choose_sets(islice(more, DETECT_MORE) if fallback else more, sets, None)
    if not chosen or detection is None:
        if stats.records == 0:
            raise LogparseError(f"{describe(path)}: the file has no text lines")
        raise UnrecognisedLog(
            f"{describe(path)}: no pattern set recognises this log (tried {', '.join(sorted(sets))}); "
            f"run `logparse patterns explain {describe(path)}` to see its most common line shapes"
        )
    return chosen, detection, chain(head, stream)


def parse_log(
    path: str | list[str],
    sets: dict[str, PatternSet],
    forced_format: str | None = None,
    on_unmatched: Callable[[Record], None] | None = None,
) -> ParsedLog:
    """Read `path` once (twice when the head does not reveal the format) and collect its values. A list of
    paths is read as one stream (the attempts of one job, in the order they ran)."""
    stats = ReadStats()
    chosen, detection, records = _detect(path, sets, forced_format, stats)

    rows = _Columns()
    events: list[dict[str, Any]] = []
    facts: dict[str, list[FactObservation]] = {}
    counts = {"matched": 0, "unmatched": 0, "malformed": 0}
    interval: set[str] = set()
    notes: dict[str, str] = {}

    open_blocks: dict[tuple[str, Any], int] = {}  # (block head pattern, rank) -> row index
    last_step_row: dict[Any, int] = {}  # rank -> its latest step row (for attach = "previous")
    pending: dict[Any, tuple[int, dict[str, Any]]] = {}  # rank -> (line, values) for attach = "next"
    step_row: dict[Any, int] = {}  # step number -> its latest step row, any rank (for attach = "step")
    by_step: dict[Any, dict[str, Any]] = {}  # step number -> values waiting for that step's record
    wins: set[str] = set()  # columns an overriding attach line replaces in the record it joins
    unattached = 0
    aggregates: dict[str, str] = {}
    windows: dict[str, dict[str, Any]] = {}
    seen: set[str] = set()
    rejoined = 0
    keymap: dict[str, dict[str, str]] = {}
    for rec, hit, fragments in _rejoin(records, chosen):
        if hit is None:
            counts["unmatched"] += 1
            if on_unmatched is not None:
                on_unmatched(rec)
            continue
        spec, values = hit
        counts["matched"] += 1 + fragments
        rejoined += fragments
        problems = values.pop(PROBLEMS, None)
        windowed = values.pop(WINDOWED, None)
        if MAPPED in values or KEPT in values:
            group = "facts" if spec.kind in ("config", "summary") else "mapped"
            for what, pairs in ((group, values.pop(MAPPED, ())), ("kept", values.pop(KEPT, ()))):
                for key, column in pairs:
                    keymap.setdefault(what, {}).setdefault(key, column)
        if problems:
            counts["malformed"] += 1
        pattern = f"{spec.set_name}.{spec.name}"
        if pattern not in seen:  # what a pattern says about its numbers, noted once per pattern
            seen.add(pattern)
            if spec.note:
                notes[pattern] = spec.note
            aggregates.update(
                {fs.column: fs.aggregate for fs in spec.fields.values() if fs.aggregate != "first"}
            )
            windows.update(
                {
                    fs.column: {"window": fs.window, "smoothing": fs.smoothing or "mean", "alpha": fs.alpha}
                    for fs in spec.fields.values()
                    if fs.window is not None
                }
            )
        if spec.continues is not None:
            # a line inside a multi-line record (Composer, OLMo): its values join the block's row
            at = open_blocks.get((f"{spec.set_name}.{spec.continues}", rec.rank))
            if at is not None:
                rows.update_block(at, {**values, **({"malformed": True} if problems else {})}, windowed)
            continue
        if spec.attach == "previous":
            at = last_step_row.get(rec.rank)
            if at is None:
                unattached += 1
            else:
                rows.update_row(at, {**values, **({"malformed": True} if problems else {})})
            continue
        if spec.attach is not None:
            sums = {fs.column for fs in spec.fields.values() if fs.aggregate == "sum"}
            if spec.overrides:
                wins.update(fs.column for fs in spec.fields.values())
        if spec.attach == "step":
            # the line prints its own step number: join that step's record, printed before or after it
            number = values.pop("step", None)
            if problems:
                values["malformed"] = True
            at = step_row.get(number)
            if at is not None:
                rows.join_row(at, values, sums, wins if spec.overrides else set())
            else:
                by_step[number] = _merge_held(by_step.get(number), values, sums)
            continue
        if spec.attach == "next":
            held = pending.get(rec.rank)
            merged = _merge_held(held[1] if held else None, values, sums)
            if problems:
                merged["malformed"] = True
            pending[rec.rank] = (held[0] if held else rec.line, merged)
            continue
        if spec.kind in ("step", "progress"):
            if spec.interval:
                interval.add(pattern)
            row = {
                "kind": spec.kind,
                "pattern": pattern,
                "line": rec.line,
                "rank": rec.rank,
                "host": rec.host,
            }
            if problems:
                row["malformed"] = True
            nonfinite = [k for k, v in values.items() if isinstance(v, float) and not math.isfinite(v)]
            if nonfinite:
                row["nonfinite"] = ",".join(nonfinite)  # NaN is otherwise indistinguishable from "not logged"
            row.update(values)
            if windowed:
                row["windowed"] = ",".join(windowed)
            held = pending.pop(rec.rank, None)
            if held is not None and spec.kind == "step":
                _join(row, held[1], aggregates, wins)
            elif held is not None:
                pending[rec.rank] = held
            if spec.kind == "step" and values.get("step") in by_step:
                _join(row, by_step.pop(values["step"]), aggregates, wins)
            for one in _expand_lists(row, spec.list_columns):
                open_blocks[(pattern, rec.rank)] = rows.n
                if spec.kind == "step":
                    last_step_row[rec.rank] = rows.n
                    if "step" in one:
                        step_row[one["step"]] = rows.n
                rows.append(one)
        elif spec.kind in ("config", "summary"):
            for name, value in values.items():
                facts.setdefault(name, []).append(FactObservation(value, rec.line, pattern))
            if spec.kind == "summary":  # the framework's end-of-training totals: it says the run finished
                events.append(
                    {
                        "event": "end",
                        "pattern": pattern,
                        "line": rec.line,
                        "rank": rec.rank,
                        "text": rec.text[:200],
                    }
                )
        else:  # event
            ev = {
                "event": spec.event,
                "pattern": pattern,
                "line": rec.line,
                "rank": rec.rank,
                "text": rec.text[:200],
            }
            ev.update(values)
            events.append(ev)

    unattached += len(pending) + len(by_step)
    lines = {
        "total": stats.records,
        "matched": counts["matched"],
        "unmatched": counts["unmatched"],
        "malformed": counts["malformed"],
        "blank": stats.blank,
        "physical": stats.physical_lines,
        "overlong": stats.overlong,
        "invalid_utf8_chars": stats.replaced_chars,
        "unattached": unattached,  # attach lines with no step record to join (counted as matched)
        "rejoined": rejoined,  # continuation records of hard-wrapped lines (counted as matched)
    }
    return ParsedLog(
        path=path,
        formats=_ranked_formats(chosen, detection),
        detection=detection,
        composition=composition((ps.name for ps in chosen), sets, detection.name),
        conventions={ps.name: ps.reported for ps in chosen if ps.reported},
        rows=rows.frame(),
        events=pd.DataFrame(events),
        facts=facts,
        lines=lines,
        interval_patterns=interval,
        notes=notes,
        aggregates=aggregates,
        windows=windows,
        keymap=keymap,
    )


def _match(chosen: list[PatternSet], text: str) -> tuple[LineSpec, dict[str, Any]] | None:
    for ps in chosen:
        hit = ps.match(text)
        if hit is not None:
            return hit
    return None


def _rejoin(
    records: Iterable[Record], chosen: list[PatternSet]
) -> Iterator[tuple[Record, tuple[LineSpec, dict[str, Any]] | None, int]]:
    """(record, its match, fragments joined into it): hard-wrapped lines are put back together.

    A record whose pattern declares ``complete`` and lacks it takes the next records that match no
    pattern (same rank, at most MAX_WRAP_PARTS) until the join contains ``complete``; otherwise every
    record is given back as it was read."""
    it = iter(records)
    queue: deque[tuple[Record, tuple[LineSpec, dict[str, Any]] | None]] = deque()
    while True:
        if queue:
            rec, hit = queue.popleft()
        else:
            rec = next(it, None)
            if rec is None:
                return
            hit = _match(chosen, rec.text)
        if hit is None or hit[0].complete is None or not hit[0].is_partial(rec.text):
            yield rec, hit, 0
            continue
        spec = hit[0]
        text = rec.text
        taken: list[tuple[Record, tuple[LineSpec, dict[str, Any]] | None]] = []
        joined = None
        while len(taken) < MAX_WRAP_PARTS:
            nxt = next(it, None)
            if nxt is None:
                break
            nhit = _match(chosen, nxt.text)
            taken.append((nxt, nhit))
            if nhit is not None or nxt.rank != rec.rank:
                break
            text, jhit = _joined(text, nxt.text, chosen)
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


def _joined(
    head: str, fragment: str, chosen: list[PatternSet]
) -> tuple[str, tuple[LineSpec, dict[str, Any]] | None]:
    """A wrapped line's head and its next fragment: joined as they are (a wrap inside a token), or with
    one space when that reads more values (a wrap at a space, which the reader's rstrip removed)."""
    tight = head + fragment
    hit = _match(chosen, tight)
    if fragment[:1].isspace():
        return tight, hit
    spaced = head + " " + fragment
    hit2 = _match(chosen, spaced)
    if hit2 is not None and (hit is None or len(hit2[1]) > len(hit[1])):
        return spaced, hit2
    return tight, hit


def _expand_lists(row: dict[str, Any], columns: tuple[str, ...]) -> list[dict[str, Any]]:
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


def _merge_held(held: dict[str, Any] | None, values: dict[str, Any], sums: set[str]) -> dict[str, Any]:
    """Values of several attach lines waiting for one record: the earlier line's stay, summed columns add."""
    if not held:
        return dict(values)
    merged = {**values, **held}
    for col in sums & held.keys() & values.keys():
        merged[col] = held[col] + values[col]
    return merged


def _join(row: dict[str, Any], held: dict[str, Any], aggregates: dict[str, str], wins: set[str]) -> None:
    """Attached values into a step record: the record's own values win, except that summed columns add
    (the micro-batches of one step) and an overriding line's columns replace the record's."""
    for key, value in held.items():
        if key not in row or key in wins:
            row[key] = value
        elif aggregates.get(key) == "sum" and row[key] is not None and value is not None:
            row[key] = row[key] + value


class _Columns:
    """Step rows stored column by column: a million rows of a dozen numbers stay small."""

    def __init__(self) -> None:
        self.cols: dict[str, list[Any]] = {}
        self.n = 0

    def _column(self, key: str) -> list[Any]:
        """The column `key`, padded to the current row count."""
        col = self.cols.get(key)
        if col is None:
            col = self.cols[key] = [None] * self.n
        elif len(col) < self.n:
            col.extend([None] * (self.n - len(col)))
        return col

    def append(self, row: dict[str, Any]) -> None:
        for key, value in row.items():
            self._column(key).append(value)
        self.n += 1

    def update_row(self, index: int, values: dict[str, Any]) -> None:
        for key, value in values.items():
            self._column(key)[index] = value

    def update_block(self, index: int, values: dict[str, Any], windowed: list[str] | None) -> None:
        """A block line's values into its row; a windowed average never replaces a value measured for
        the step itself (Composer prints both time/secs_per_step and throughput/batches_per_sec)."""
        marks_col = self._column("windowed")
        marks = set(filter(None, (marks_col[index] or "").split(",")))
        for key, value in values.items():
            col = self._column(key)
            if windowed and key in windowed:
                if col[index] is not None and key not in marks:
                    continue
                marks.add(key)
            else:
                marks.discard(key)
            col[index] = value
        marks_col[index] = ",".join(sorted(marks)) or None

    def join_row(self, index: int, values: dict[str, Any], sums: set[str], wins: set[str]) -> None:
        """Fill a stored row where it has no value (replace `wins`, add `sums`)."""
        for key, value in values.items():
            col = self._column(key)
            current = col[index] if index < len(col) else None
            if current is None or key in wins:
                col[index] = value
            elif key in sums and value is not None:
                col[index] = current + value

    def frame(self) -> pd.DataFrame:
        for col in self.cols.values():
            if len(col) < self.n:
                col.extend([None] * (self.n - len(col)))
        return pd.DataFrame(self.cols)
