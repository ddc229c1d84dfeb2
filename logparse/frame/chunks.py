"""Chunks: read a large log with several processes, and give the frame what one pass would have given it.

An uncompressed file is cut into byte ranges; each worker moves its range's ends to line ends (a range
starts after the first newline at or after its start, and ends after the first newline at or after its
end), so every line belongs to exactly one range. A compressed file is decompressed here and cut into
blocks at line ends, which the workers read. Either way a worker runs the same reader (``stream_records``)
and the same matcher a single pass runs, over whole lines, so records, line numbers (counted per range and
offset here) and matches are the same.

What the workers send back, in file order:

- records, with their match (a pattern index and its values), as (line, text, rank, host, index, values);
- ``Bulk``: a run of step rows that only later lines can change (no attach, no block, no list; not a
  possibly hard-wrapped line), already made into rows and frozen into typed columns (columns.py). Most of a
  big log is such runs, and neither their rows nor the frame's columns cost the parent a Python call each;
- ``Tally``: how many records matched nothing. A record that matched nothing is sent itself when something
  may still need it: when unmatched records are being listed, among the first MAX_WRAP_PARTS records of a
  range, and among the MAX_WRAP_PARTS records after a line that may have been hard-wrapped (the frame
  rejoins such a line with the unmatched records after it, across a range's end too).

Once the fast lane (fastlane.py) knows checked shapes, a worker reads its range a window of lines at a time
(``_Worker.window``): each shape's regex mapped over the window, the noise lines it has seen before looked up
at once, and each stretch of step lines, event lines, noise and blank lines added in one go; a line that the
line-at-a-time reading would read otherwise is read that way, in its place.

The frame applies everything in order with the code a single pass uses (frame._Assembler); the tests
compare the two on every sample log and on ranges cut through wrapped lines, progress-bar redraws and
rank-prefixed lines.
"""

from __future__ import annotations

import io
import multiprocessing
import os
from collections import deque
from collections.abc import Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from ..core.schema import Row
from ..patterns.sets import MAX_WRAP_PARTS, LineSpec
from ..read import reader
from ..read.reader import (
    _MAYBE_REMNANT,
    ReadStats,
    Record,
    _read,
    _split_physical,
    compression,
    drop_nuls,
    note_stop,
    open_checked,
    stream_records,
)
from . import fastlane
from .columns import Columns, RowBlock, Typed
from .fastlane import CHECKED, Lane, LaneShape, own_text
from .fastlane import block as shape_block
from .fastlane import piece as shape_piece
from .matcher import Matcher
from .rows import bulkable, event_row, order_free, prepare, step_row

PARALLEL_MIN_BYTES = 8 << 20  # a smaller file is read in one pass: ranges and processes cost more
CHUNK_BYTES = 16 << 20  # the bytes of one range, at most ...
MIN_CHUNK_BYTES = 1 << 20  # ... and at least (about four ranges per process in between)
BULK_MIN = 16  # shorter runs of step rows are sent as records
LANE = True  # read lines of a known shape through the fast lane (fastlane.py)
NOISE_LINES = 1 << 16  # noise lines remembered per range (_Worker.noise)
BATCH = True  # once shapes are known, read a range's lines a window at a time (_Worker.window)
WINDOW_LINES = 4096  # the lines of one window ...
PROBE_LINES = 64  # ... and the lines read one at a time before looking for shapes to read windows with again
QUIET_WINDOWS = 4  # windows read one line at a time after one most of whose lines `line` had to read


@dataclass
class Tally:
    """Records of a range that matched nothing and that no later step needs."""

    unmatched: int


@dataclass
class Bulk:
    """A run of step rows, frozen into typed columns, and what the frame's bookkeeping needs of them."""

    pieces: list[RowBlock]
    n: int
    specs: list[int]  # indices (Matcher.specs) of the run's patterns, in order of first appearance
    malformed: int
    keymap: list[tuple[str, str, str]]  # (group, printed key, column), first use of each key first
    last_block: dict[tuple[int, Any], int]  # (pattern index, rank) -> its last row in the run
    last_step: dict[Any, int]  # rank -> its last step row in the run

    def rows(self) -> Iterator[Row]:
        """The run's rows as the dicts a single pass builds (None values are absent, as there)."""
        base = ("kind", "pattern", "line", "rank", "host")
        for piece in self.pieces:
            cols = {key: piece.column(key).values() for key in piece.cols}
            for i in range(piece.n):
                yield {k: v[i] for k, v in cols.items() if v[i] is not None or k in base}


class _FastEvent(NamedTuple):
    """An event line read through a shape of the lane, set aside beside the run (its values converted when the
    run's aside records are sent: _Run._send_fast_events)."""

    shape: LaneShape
    line: int
    groups: tuple[str, ...] | None  # (None when _native.fit read the line: its values are `row`)
    text: str
    row: np.ndarray | None = None

    def texts(self) -> tuple[str, ...]:
        """The groups of the line (the regex's, asked again when _native.fit read it)."""
        if self.groups is not None:
            return self.groups
        return self.shape.regex.fullmatch(self.text).groups()  # type: ignore[union-attr]


@dataclass
class Events:
    """Event records of a range set aside beside a run of step rows (rows.order_free), read into the rows the
    assembler makes of them (`_Assembler.take`'s event branch) and frozen into typed columns: a log with a
    checkpoint save every few steps sends a million, and each sent as a record cost the parent a Record, a match
    tuple and a dict."""

    pieces: list[RowBlock]
    n: int
    specs: list[int]  # indices (Matcher.specs) of their patterns, in order of first appearance
    malformed: int
    keymap: list[tuple[str, str, str]]


# glibc's mallopt parameters (malloc.h) and the values logparse gives them
_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
# while a large log is read, allocations this large are mapped apart and given back when freed; after it, the
# threshold is glibc's largest automatic one (DEFAULT_MMAP_THRESHOLD_MAX, 64-bit) and this much free memory at
# the heap's top is kept rather than given back
_GIVE_BACK_MMAP = 256 * 1024
_REUSE_MMAP = 32 << 20
_REUSE_TRIM = 64 << 20
_DEFAULT_TRIM = 128 * 1024  # (DEFAULT_TRIM_THRESHOLD)
_reusing = False


def _mallopt(param: int, value: int) -> None:
    try:
        import ctypes

        ctypes.CDLL("libc.so.6").mallopt(param, value)
    except (OSError, AttributeError):  # not glibc
        pass


def give_back_freed_memory() -> None:
    """While a large log is read: have glibc return large freed blocks to the system (Linux; elsewhere
    nothing). glibc maps an allocation of 128 KiB or more apart, but after the first such block is freed it
    raises that threshold to the block's size (up to 32 MiB) and keeps later blocks in its heap, where a freed one
    stays resident: the parsed pieces of a large log (a column of 50,000 rows is 400 KB), freed as its frame is
    built, stayed in the process beside the frame (1.34 GB at the peak of a 1 GiB parse, 1.14 GB with
    the threshold fixed). Fixing the threshold (mallopt) turns that adjustment off."""
    global _reusing
    _mallopt(_M_MMAP_THRESHOLD, _GIVE_BACK_MMAP)
    if _reusing:  # (a second large log in this process: as for the first)
        _mallopt(_M_TRIM_THRESHOLD, _DEFAULT_TRIM)
        _reusing = False


def reuse_freed_memory() -> None:
    """Once the log's frames are built: have glibc keep large freed blocks in its heap for the next allocation.
    The stages after the read make and free whole columns (20 MB each for 2.4 M rows) again and again; each one
    mapped apart is new memory, which the kernel zeroes page by page when it is first written (on this machine
    0.2-0.3 GB/s: 19-21 of the 1 GiB analyze's 50-55 CPU-s were the kernel's). Kept in the heap, a freed
    column's pages are written again as they are. 1 GiB `analyze` (4 pairs): 0.90 of the wall time (33.4 against
    36.6 s), the kernel's time 17.3 against 19.8 s, peak +27 MB; `parse`: 0.98, the same peak (the read, where
    its peak is, still gives back)."""
    global _reusing
    _mallopt(_M_MMAP_THRESHOLD, _REUSE_MMAP)
    _mallopt(_M_TRIM_THRESHOLD, _REUSE_TRIM)
    _reusing = True


def _worker_memory() -> None:
    """A reading process keeps the memory it frees for its next range (reuse_freed_memory): each range's text
    (16 MiB decoded), its lines and its columns are made and dropped again, range after range, and memory
    mapped anew for each is zeroed by the kernel as it is first written."""
    _mallopt(_M_MMAP_THRESHOLD, _REUSE_MMAP)
    _mallopt(_M_TRIM_THRESHOLD, _REUSE_TRIM)


def worth_splitting(path: str | Sequence[str], chunk_bytes: int | None) -> bool:
    """Whether reading in ranges pays: PARALLEL_MIN_BYTES or more of log (a compressed file counted as 16
    times its size; any size when a chunk size is given), on a system that can fork."""
    if "fork" not in multiprocessing.get_all_start_methods():
        return False
    paths = [path] if isinstance(path, str) else list(path)
    try:
        size = _log_bytes(paths)
    except OSError:
        return False
    return chunk_bytes is not None or size >= PARALLEL_MIN_BYTES


def _log_bytes(paths: Sequence[str]) -> int:
    """The bytes of log in `paths`, a compressed file counted as 16 times its size."""
    return sum(os.path.getsize(p) * (16 if compression(p) else 1) for p in paths)


def read_parallel(
    path: str | Sequence[str],
    matcher: Matcher,
    stats: ReadStats,
    jobs: int,
    chunk_bytes: int | None = None,
    keep_unmatched: bool = False,
) -> Iterator[Any]:
    """The items of `path` (records with their match, Bulk runs, Tally counts) in file order, read by `jobs`
    processes; `stats` is filled as the items are taken."""
    global _CONTEXT
    _CONTEXT = (matcher, keep_unmatched)  # inherited by the workers, which are forked
    paths = [path] if isinstance(path, str) else list(path)
    size = chunk_bytes or min(CHUNK_BYTES, max(MIN_CHUNK_BYTES, _log_bytes(paths) // (4 * jobs)))
    if jobs == 1:  # in this process, range after range
        for task in _tasks(paths, size, stats):
            yield from _absorb(_read_task(task), matcher, stats)
        return
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=jobs, mp_context=context, initializer=_worker_memory) as pool:
        running: deque[Future] = deque()
        for task in _tasks(paths, size, stats):
            if isinstance(task.block, _LongLine):  # read here, now: it reads on from the parent's stream
                done: Future = Future()
                done.set_result(_read_task(task))
                running.append(done)
                continue
            running.append(pool.submit(_read_task, task))
            while len(running) > 2 * jobs:
                yield from _absorb(running.popleft().result(), matcher, stats)
        while running:
            yield from _absorb(running.popleft().result(), matcher, stats)


# A range or block that would hold more than its size and this many bytes more holds a line longer than the
# reader keeps (4 bytes a character at most: an UTF-8 character or an invalid byte's U+FFFD): it is read as a
# stream, a chunk at a time, never whole (a 2 GiB line made a 6.4 GB range).
def _long_slack() -> int:
    return 4 * reader.MAX_RECORD_CHARS


class Task(NamedTuple):
    """What a worker is sent: a range of a plain file (`block` None: it reads path[start:stop] itself), or a
    block of a compressed one already read here; `stream`: read it a chunk at a time (it holds a giant line)."""

    path: str
    start: int
    stop: int
    block: bytes | _LongLine | None
    stream: bool
    # the file's line-leading `N: ` is its records' counter, not srun's label (as its head says)
    counters: bool = False


class RangeResult(NamedTuple):
    """What a worker sends back: the range's line counts and its items (records with their match, Bulk runs
    of step rows, Tally counts of unmatched records), in file order."""

    stats: ReadStats
    items: list[Any]


def _tasks(paths: list[str], size: int, stats: ReadStats) -> Iterator[Task]:
    """(path, start, stop, None, stream) for the line-aligned ranges of a plain file (`stream`: read it a chunk
    at a time, it holds a giant line); (path, 0, 0, block, False) for blocks of a compressed one; (path, 0, 0,
    _LongLine, True) for a giant line of a compressed one, to be read at once, in this process, from its stream."""
    for path in paths:
        fh, first, skipped = open_checked(path)
        stats.nul_prefix_bytes += skipped
        counters = reader.leading_counters(first)  # (as a single pass decides it: from the same head)
        try:
            if isinstance(fh, io.BufferedReader):  # not compressed: the workers read their ranges
                total = os.fstat(fh.fileno()).st_size
                # The ranges are cut at line ends here, a range ending after the first newline at or after its
                # size: a line longer than a range is scanned once (in 64 KiB blocks), not by every range it
                # spans. The NUL bytes a copytruncated log starts with are before the first range.
                start = skipped
                while start < total:
                    stop = _line_end(fh, min(start + size, total) - 1)
                    yield Task(path, start, stop, None, stop - start > size + _long_slack(), counters)
                    start = stop
                continue
            block = first
            while True:
                more = fh.read(size)
                if not more:
                    if block:
                        yield Task(path, 0, 0, block, False, counters)
                    break
                cut = more.rfind(b"\n") + 1
                if cut == 0:  # no line end yet: keep reading, up to a bound
                    if len(block) + len(more) <= size + _long_slack():
                        block += more
                        continue
                    whole = block.rfind(b"\n") + 1
                    if whole:
                        yield Task(path, 0, 0, block[:whole], False, counters)
                    line = _LongLine(fh, path, [block[whole:], more])
                    del block, more  # (the line holds them until it has served them)
                    yield Task(path, 0, 0, line, True, counters)
                    block = line.rest
                    continue
                yield Task(path, 0, 0, block + more[:cut], False, counters)
                block = more[cut:]
            note_stop(fh, path, stats)
        finally:
            fh.close()


class _LongLine(io.RawIOBase):
    """The rest of a compressed stream's current line, through its newline, read a chunk at a time (what is
    read past the newline is kept in `rest`). `head`: what was already read of it, none with a newline."""

    def __init__(self, fh: io.BufferedIOBase, path: str, head: list[bytes]) -> None:
        self.fh, self.path = fh, path
        self.head = deque(piece for piece in head if piece)
        self.at = 0  # how much of head[0] was served
        self.rest = b""
        self.done = False

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        if self.head:  # what the parent had read of the line, served a reader's chunk at a time
            first = self.head[0]
            out = first[self.at : self.at + reader.CHUNK_BYTES]
            self.at += len(out)
            if self.at >= len(first):
                self.head.popleft()
                self.at = 0
            return out
        if self.done:
            return b""
        out = _read(self.fh, self.path)
        if not out:
            self.done = True
            return b""
        end = out.find(b"\n")
        if end >= 0:
            self.rest, out, self.done = out[end + 1 :], out[: end + 1], True
        return out


def _absorb(result: RangeResult, matcher: Matcher, stats: ReadStats) -> Iterator[Any]:
    """A range's items with line numbers made absolute, its counts added to `stats`."""
    part, items = result
    offset = stats.physical_lines
    stats.physical_lines += part.physical_lines
    stats.records += part.records
    stats.blank += part.blank
    stats.overlong += part.overlong
    stats.replaced_chars += part.replaced_chars
    stats.nul_bytes += part.nul_bytes
    if stats.nul_line is None and part.nul_line is not None:
        stats.nul_line = part.nul_line + offset
    if part.physical_lines:  # the last range with lines says whether the file ends without a newline
        cut = part.unterminated
        stats.unterminated = cut._replace(line=cut.line + offset) if cut is not None else None
    specs = matcher.specs
    for item in items:
        if isinstance(item, tuple):
            line, text, rank, host, index, values = item
            rec = Record(line + offset, text, rank, host)
            yield rec, (specs[index], values) if index >= 0 else None
        else:
            if isinstance(item, (Bulk, Events)) and offset:
                for piece in item.pieces:
                    piece.cols["line"].data += offset
            yield item


# ------------------------------------------------------------------------------------------------------
# the worker

_CONTEXT: tuple[Matcher, bool] | None = None


class _Range(io.RawIOBase):
    """The bytes [start, stop) of a file (whole lines: _tasks cuts the ranges at line ends), read a part at a time."""

    def __init__(self, path: str, start: int, stop: int) -> None:
        self.fh = open(path, "rb")  # noqa: SIM115 - closed by close()
        self.fh.seek(start)
        self.left = max(0, stop - start)

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:
        n = self.left if n < 0 else min(n, self.left)
        data = self.fh.read(n)
        self.left -= len(data)
        return data

    def close(self) -> None:
        self.fh.close()
        super().close()


def _line_end(fh: io.BufferedReader, at: int) -> int:
    """The offset just after the first newline at or after `at` (the file's size when there is none)."""
    fh.seek(at)
    while True:
        block = fh.read(1 << 16)
        if not block:
            return fh.tell()
        i = block.find(b"\n")
        if i >= 0:
            return fh.tell() - len(block) + i + 1


def _read_task(task: Task) -> RangeResult:
    path, start, stop, block, stream, counters = task
    assert _CONTEXT is not None
    matcher, keep = _CONTEXT
    if stream:  # a giant line: the reader's own cutting and skipping, a chunk at a time
        source = block if isinstance(block, _LongLine) else _Range(path, start, stop)
        try:
            return _read_stream(source, path, matcher, keep, counters)
        finally:
            source.close()
    if block is None:
        with _Range(path, start, stop) as rng:
            block = rng.read()
    assert isinstance(block, bytes)
    holes = ReadStats()
    if b"\x00" in block:  # (a hole of NULs: skipped and counted, as stream_records does)
        block = drop_nuls(block, holes, 1)
    if LANE:
        found = fastlane.scan(block)  # (what the bytes hold, in one pass; None without the C extension)
        text = block.decode("utf-8", errors="replace")
        lines = text.split("\n")
        if lines[-1] == "":
            lines.pop()
        # (no line has more characters than bytes)
        short = found is not None and found[0] <= reader.MAX_RECORD_CHARS
        if not lines or short or max(map(len, lines)) <= reader.MAX_RECORD_CHARS:
            stats = ReadStats(
                replaced_chars=text.count("\ufffd"), nul_bytes=holes.nul_bytes, nul_line=holes.nul_line
            )
            worker = _Worker(matcher, keep, Lane(matcher, counters), counters)
            worker.lines(lines, stats, _Dirt.of(text, found))
            if lines and not text.endswith("\n"):  # the file's last line, without newline: its last record
                cut = list(_split_physical(lines[-1], ReadStats(), counters=counters))
                stats.unterminated = cut[-1]._replace(line=stats.physical_lines) if cut else None
            return RangeResult(stats, worker.finish())
    # over-long lines in a block of a few MB
    result = _read_stream(io.BytesIO(block), path, matcher, keep, counters)
    result.stats.nul_bytes += holes.nul_bytes
    result.stats.nul_line = holes.nul_line
    return result


def _read_stream(
    source: io.RawIOBase, path: str, matcher: Matcher, keep: bool, counters: bool
) -> RangeResult:
    stats = ReadStats()
    worker = _Worker(matcher, keep, None, counters)
    for rec in stream_records(source, path, stats, counters=counters):  # type: ignore[arg-type]
        worker.record(rec)
    return RangeResult(stats, worker.finish())


# a window's line codes (_Worker.window): a checked shape's place in `usable` (0 and up), or one of these
_NOISE, _BLANK, _OTHER = -1, -2, -3


class _Dirt(NamedTuple):
    """What a range's text holds anywhere, that a line's reading must look for: when the range holds none, no line
    needs the look."""

    carriage: bool  # a carriage return or an escape
    remnant: bool  # a colour code's remnant (reader._MAYBE_REMNANT)
    lt: bool  # a "<" (a tqdm bar glued to a record: fastlane.own_text)

    @classmethod
    def of(cls, text: str, found: tuple[int, bool, bool, int] | None = None) -> _Dirt:
        """What `text` holds; `found`: what _native.scan found in its bytes, when it was asked."""
        if found is None:
            return cls("\r" in text or "\x1b" in text, _MAYBE_REMNANT.search(text) is not None, "<" in text)
        _, control, lt, remnant = found
        return cls(control, remnant == 1 or (remnant == 2 and _MAYBE_REMNANT.search(text) is not None), lt)

    def plain(self, line: str) -> bool:
        """_plain(line), without the look when the range holds no such character."""
        return not (self.carriage or self.remnant) or _plain(line)


def _plain(line: str) -> bool:
    """A line with no carriage return, escape or colour-code remnant: the reader makes it one record (or peels a
    launcher prefix), and the lane may read it."""
    return "\r" not in line and "\x1b" not in line and not ("[" in line and _MAYBE_REMNANT.search(line))


class _Reads:
    """What each checked shape found in a window: the lines it was tried on, its matches there (or, read by
    _native.fit, each line's code and values, and the regex's matches of the lines fit was not sure of), and the
    lines it fits."""

    def __init__(self, lines: list[str]) -> None:
        self.lines = lines
        self.at: dict[int, np.ndarray] = {}
        self.found: dict[int, Any] = {}
        self.hit: dict[int, np.ndarray] = {}
        self.native: dict[int, tuple[np.ndarray, np.ndarray]] = {}
        self.tagged: dict[
            int, np.ndarray
        ] = {}  # (a prefixed shape's lines holding "[<role>" again, fit's answer)

    def untagged(self, shape: LaneShape, at: np.ndarray) -> np.ndarray:
        """The lines `at` (each one that the prefixed `shape` fits) that hold no "[<role>" after their first
        character: no other rank's output after their prefix (LaneShape.own_record)."""
        tagged = self.tagged.get(id(shape))
        if tagged is not None:
            return at[~tagged[at]]
        tag = shape.tag
        return at[np.array([self.lines[j].find(tag, 1) < 0 for j in at.tolist()], dtype=np.bool_)]

    def add(self, shape: LaneShape, at: np.ndarray, found: Any) -> None:
        self.at[id(shape)], self.found[id(shape)] = at, found

    def add_native(
        self, shape: LaneShape, at: np.ndarray, codes: np.ndarray, values: np.ndarray, found: dict[int, Any]
    ) -> None:
        self.native[id(shape)] = (codes, values)
        self.add(shape, at, found)

    def groups(self, shape: LaneShape, lines: np.ndarray) -> list[tuple[str, ...]]:
        """The groups of the window's `lines` (sorted, each one the shape fits)."""
        found = self.found[id(shape)]
        where = np.searchsorted(self.at[id(shape)], lines).tolist()
        if isinstance(found, list):
            return [found[i].groups() for i in where]
        # read by _native.fit: the regex's groups of each line (fit's values were not what was wanted)
        return [
            (found[i] if i in found else shape.regex.fullmatch(self.lines[j])).groups()  # type: ignore[union-attr]
            for i, j in zip(where, lines.tolist(), strict=True)
        ]

    def columns(self, shape: LaneShape, lines: np.ndarray) -> tuple[Row, np.ndarray | None] | None:
        """(columns, ranks) of the window's `lines` when _native.fit read and converted every one; else None."""
        values = self.rows(shape, lines)
        return None if values is None or shape.native is None else shape.native.columns(values)

    def rows(self, shape: LaneShape, lines: np.ndarray) -> np.ndarray | None:
        """_native.fit's values of the window's `lines`, a row each, when it read and converted every one."""
        got = self.native.get(id(shape))
        if got is None:
            return None
        codes, values = got
        where = np.searchsorted(self.at[id(shape)], lines)
        return values[where] if (codes[where] == 1).all() else None


class _Worker:
    """What one range sends back, built record by record (and, through the fast lane, line by line)."""

    def __init__(self, matcher: Matcher, keep: bool, lane: Lane | None, counters: bool = False) -> None:
        self.matcher = matcher
        self.keep = keep
        self.lane = lane
        self.counters = counters  # a line-leading `N: ` is the record's counter (reader.leading_counters)
        self.out: list[Any] = []
        self.run = _Run(matcher, self.out)
        self.since_partial = MAX_WRAP_PARTS  # records since the last line that may have been hard-wrapped
        self.n = 0  # records so far
        self.unmatched = 0
        # lines read before as one record (its text and rank) that no pattern matched and no shape read: noise
        # repeats (NCCL's chatter, a warning every step), and reading a line is a function of the line alone, so
        # what one range learned serves the next ranges this process reads with the matcher (8 ranks' noise lines:
        # 1,300 texts each range read again)
        self.noise: dict[str, tuple[str, Any]] = matcher.noise
        self.quiet = 0  # windows' worth of lines still to read one at a time (`window` found it did not pay)

    def lines(self, lines: list[str], stats: ReadStats, dirt: _Dirt) -> None:
        """A range's physical lines, in order: a window at a time (`window`) where the lane knows shapes to
        read it with, else one at a time (`line`)."""
        at, n = 0, len(lines)
        line = self.line
        while at < n:
            usable = self._window_shapes() if BATCH and not self.quiet and n - at >= PROBE_LINES else None
            if usable is not None:
                end = min(n, at + WINDOW_LINES)
                done = self.window(lines[at:end], stats, dirt, *usable)
                if done is not None:
                    at += done
                    continue
                self.quiet = QUIET_WINDOWS  # most of its lines were for `line`: no windows for a while
            else:
                end = min(n, at + (WINDOW_LINES if self.quiet else PROBE_LINES))
                self.quiet = max(0, self.quiet - 1)
            for k in range(at, end):
                line(lines[k], stats)
            at = end

    def _window_shapes(self) -> tuple[list[LaneShape], list[LaneShape]] | None:
        """(every shape the lane may read a line with, those checked) when some checked shape reads step lines and
        no unmatched record is to be listed (each is then sent, and `window` only counts them); else None."""
        lane = self.lane
        if lane is None or self.keep or not lane.needles:
            return None
        shapes = [shape for group in lane.shapes.values() for shape in group if not shape.retired]
        usable = [shape for shape in shapes if shape.checked >= CHECKED]
        if not any(not shape.event for shape in usable):
            return None
        return shapes, usable

    def window(
        self,
        lines: list[str],
        stats: ReadStats,
        dirt: _Dirt,
        shapes: list[LaneShape],
        usable: list[LaneShape],
    ) -> int | None:
        """Consecutive lines read as `line` reads them one at a time, a column at a time: each shape's regex over
        every line, the noise lines known before counted, and each stretch of lines that are step or event lines
        of a checked shape, noise or blank added to the run at once. A line `line` would read otherwise (the
        ordinary reading, a shape not yet checked, two shapes that fit, a possible launcher prefix) is read by
        `line` itself, in its place. The lines read: all, or those up to a line `line` read whose shape it checked
        for the last time (a new window then reads with it); None (nothing read) when most lines are such: `line`
        reads them."""
        m = len(lines)
        noise = self.noise
        known = np.frombuffer(bytes(map(noise.__contains__, lines)), dtype=np.bool_)
        unknown = np.flatnonzero(~known)  # (a line known as noise is counted before any shape is tried)
        fits = np.zeros(m, dtype=np.int16)  # how many shapes fit each line
        reads = _Reads(lines)
        tried: list[tuple[LaneShape, np.ndarray]] = []
        native = fastlane.NATIVE
        for shape in shapes:
            # a line that a shape with another literal head fits cannot fit this one
            skip = [hit for other, hit in tried if shape.disjoint(other)]
            where = unknown if not skip else np.flatnonzero(~np.logical_or.reduce(skip) & ~known)
            hit = np.zeros(m, dtype=np.bool_)
            if native and shape.native is not None:
                codes, values, again = shape.native.fit(lines, where)
                fitting = codes == 1
                unsure = {  # (lines fit leaves to the regex and Python: a character past ASCII, an odd value)
                    i: shape.regex.fullmatch(lines[j])
                    for i, j in zip(
                        np.flatnonzero(codes == 2).tolist(), where[codes == 2].tolist(), strict=True
                    )
                }
                for i, got in unsure.items():
                    fitting[i] = got is not None
                    again[i] = (
                        got is not None and shape.prefixed and lines[int(where[i])].find(shape.tag, 1) >= 0
                    )
                hit[where] = fitting
                if shape.prefixed:
                    reads.tagged[id(shape)] = np.zeros(m, dtype=np.bool_)
                    reads.tagged[id(shape)][where] = again
                if shape.checked >= CHECKED:
                    reads.add_native(shape, where, codes, values, unsure)
            else:
                found = list(map(shape.regex.fullmatch, [lines[j] for j in where.tolist()]))
                hit[where] = np.frombuffer(bytes(map(bool, found)), dtype=np.bool_)
                if shape.checked >= CHECKED:
                    reads.add(shape, where, found)
            fits += hit
            tried.append((shape, hit))
            reads.hit[id(shape)] = hit
        codes = np.full(m, _OTHER, dtype=np.int16)
        codes[known] = _NOISE
        one = fits == 1
        needle_of = {index: needle for needle, index in self.lane.needles} if self.lane is not None else {}
        for k, shape in enumerate(usable):
            hit = reads.hit[id(shape)] & one
            if not hit.any():
                continue
            needle = needle_of.get(shape.index, "")
            if shape.reads_alone(needle, any(dirt)):
                codes[hit] = k  # (each check below holds for every line this shape fits)
                continue
            if shape.reads_alone_but_before(needle, any(dirt)):
                at = np.flatnonzero(hit)
                if shape.prefixed:  # (another rank's output after the prefix: `line` reads that line)
                    at = reads.untagged(shape, at)
                texts = [shape.text_of(lines[j]) for j in at.tolist()]
                before = self.matcher.matched_before_all(texts, shape.index)
                codes[at[~np.array(before, dtype=np.bool_)]] = k
                continue
            if shape.reads_alone_but_tag(needle, any(dirt)):
                codes[reads.untagged(shape, np.flatnonzero(hit))] = (
                    k  # (another rank's output: `line` reads it)
                )
                continue
            codes[
                [j for j in np.flatnonzero(hit).tolist() if self._reads(shape, lines[j], needle_of, dirt)]
            ] = k
        # lines no shape fits, read before: noise (counted), blank, or a record for `line`
        for j in np.flatnonzero((fits == 0) & ~known).tolist():
            # (a line read as noise earlier in this window is noise again: its reading is the line's alone)
            codes[j] = _NOISE if lines[j] in noise else self._unknown(lines[j], dirt)
        others = np.flatnonzero(codes == _OTHER)
        if len(others) * 2 > m:
            return None
        lane = self.lane
        assert lane is not None
        changes, ready = lane.changes, lane.ready
        at = 0
        for stop in [*others.tolist(), m]:
            if stop > at:
                self._stretch(lines, codes, at, stop, stats, usable, reads)
            if stop < m:
                self.line(lines[stop], stats)
                if lane.changes != changes:  # a shape made or retired: the rest as `line` reads it, with it
                    for rest in lines[stop + 1 :]:
                        self.line(rest, stats)
                    return m
                if (
                    lane.ready != ready
                ):  # a shape checked by that line: a new window with it, from the next line
                    return stop + 1
            at = stop + 1
        return m

    def _reads(self, shape: LaneShape, line: str, needle_of: dict[int, str], dirt: _Dirt) -> bool:
        """Whether `line`, which only `shape` fits, is read by it as `line` reads it (Lane.read and the checks
        around it)."""
        needle = needle_of.get(shape.index, "")
        if needle not in line or line[-1:].isspace() or not dirt.plain(line):
            return False
        if (dirt.lt and "<" in line) or not (shape.plain_lead or shape.own_record(line)):
            body, rank = own_text(line, self.counters)
            if body is None or (rank is not None) != shape.prefixed:
                return False
        return not (
            shape.event and shape.before and self.matcher.matched_before(shape.text_of(line), shape.index)
        )

    def _unknown(self, line: str, dirt: _Dirt) -> int:
        """A line no shape fits and not known as noise: _NOISE (no pattern matches its record; remembered as
        noise), _BLANK, or _OTHER (`line` reads it: a pattern matches it, or the reader makes more of it)."""
        if not dirt.plain(line):
            return _OTHER
        body, rank = own_text(line, self.counters)
        if body is None:
            return _OTHER
        text = body.rstrip()
        if not text.strip():
            return _BLANK
        if not self.matcher.rejects(text) and self.matcher.match(text) is not None:
            return _OTHER
        self._remember_noise(line, Record(0, text, rank))
        return _NOISE

    def _stretch(
        self,
        lines: list[str],
        codes: np.ndarray,
        at: int,
        stop: int,
        stats: ReadStats,
        usable: list[LaneShape],
        reads: _Reads,
    ) -> None:
        """Lines [at, stop) of a window, each a step or event line of a checked shape (code: its place in
        `usable`), noise or blank, added as `line` adds them one at a time."""
        while at < stop and (self.n < MAX_WRAP_PARTS or self.since_partial < MAX_WRAP_PARTS):
            self.line(
                lines[at], stats
            )  # (the first records of a range, or those after a possibly wrapped one)
            at += 1
        if at >= stop:
            return
        part = codes[at:stop]
        blank = int(np.count_nonzero(part == _BLANK))
        noise = int(np.count_nonzero(part == _NOISE))
        first = stats.physical_lines + 1 - at  # the line number of lines[0]
        read = np.flatnonzero(part >= 0) + at
        run = self.run
        shape_of = part[read - at]
        # runs of step lines of one shape (a change of shape ends a run, as add_fast ends it)
        step = np.array([not usable[k].event for k in range(len(usable))], dtype=np.bool_)
        is_step = step[shape_of] if len(read) else np.zeros(0, dtype=np.bool_)
        steps = read[is_step]
        kinds = shape_of[is_step]
        cuts = np.flatnonzero(np.diff(kinds)) + 1 if len(kinds) else np.zeros(0, dtype=np.int64)
        events = read[~is_step]
        e = 0  # event lines before each step run are set aside before it, as `line` sets them aside in line order
        starts = [0, *cuts.tolist()] if len(kinds) else []
        for chunk, start in zip(np.split(steps, cuts) if len(kinds) else [], starts, strict=True):
            before = int(np.searchsorted(events, chunk[0]))
            self._aside(events[e:before].tolist(), lines, codes, first, usable, reads)
            e = before
            shape = usable[int(kinds[start])]
            read_natively = reads.columns(shape, chunk)
            if read_natively is not None:
                run.add_native(shape, chunk + first, *read_natively)
                continue
            where = chunk.tolist()
            run.add_fast_many(
                shape, [first + j for j in where], reads.groups(shape, chunk), [lines[j] for j in where]
            )
        self._aside(events[e:].tolist(), lines, codes, first, usable, reads)
        if len(read):  # the shapes that read lines, to the front of their lists as Lane.read moves each
            kinds_seen, from_end = np.unique(shape_of[::-1], return_index=True)  # (each shape's last line)
            assert self.lane is not None
            self.lane.used([usable[int(k)] for k in kinds_seen[np.argsort(-from_end, kind="stable")]])
        counted = (stop - at) - blank
        stats.physical_lines += stop - at
        stats.records += counted
        stats.blank += blank
        self.n += counted
        self.since_partial += counted
        self.unmatched += noise

    def _aside(
        self,
        where: list[int],
        lines: list[str],
        codes: np.ndarray,
        first: int,
        usable: list[LaneShape],
        reads: _Reads,
    ) -> None:
        """Event lines of checked shapes, set aside beside the run as `line` sets each aside."""
        if not where:
            return
        at = np.array(where)
        kinds = codes[at]
        groups: list[Any] = [None] * len(where)
        rows: list[Any] = [None] * len(where)
        for k in np.unique(kinds).tolist():  # each shape's lines' groups (or _native.fit's values) at once
            mine = np.flatnonzero(kinds == k)
            values = reads.rows(usable[k], at[mine])
            if values is not None:
                for i, row in zip(mine.tolist(), values, strict=True):
                    rows[i] = row
                continue
            for i, got in zip(mine.tolist(), reads.groups(usable[k], at[mine]), strict=True):
                groups[i] = got
        self.run.aside.extend(
            _FastEvent(usable[k], first + j, got, lines[j], row)
            for j, k, got, row in zip(where, kinds.tolist(), groups, rows, strict=True)
        )

    def line(self, line: str, stats: ReadStats) -> None:
        """One physical line: through a shape, as noise no pattern can match, or the ordinary way."""
        seen = self.noise.get(line)
        if seen is not None:
            stats.physical_lines += 1
            stats.records += 1
            self._unmatched(Record(stats.physical_lines, *seen))
            return
        plain = _plain(line)
        lane = self.lane
        got = lane.read(line) if plain and lane is not None and lane.needles else None
        learn = True
        if got is not None and got[0].checked >= CHECKED:
            shape = got[0]
            if not shape.event:
                stats.physical_lines += 1
                stats.records += 1
                self.n += 1
                self.since_partial += 1
                self.run.add_fast(shape, stats.physical_lines, got[1], line)
                return
            # an event line: set aside as `record` sets an order-free record aside, unless it follows a line that
            # may have been hard-wrapped or a pattern tried before its own matches it (then the ordinary way)
            if self.since_partial >= MAX_WRAP_PARTS and not (
                shape.before and self.matcher.matched_before(shape.text_of(line), shape.index)
            ):
                stats.physical_lines += 1
                stats.records += 1
                self.n += 1
                self.since_partial += 1
                self.run.aside.append(_FastEvent(shape, stats.physical_lines, got[1], line))
                return
            got, learn = None, False  # (its shape is known: nothing to learn or check)
        body, rank = own_text(line, self.counters) if plain and got is None else (None, None)
        if body is not None:
            # the reader would make this line one record of `body` (or none, when blank)
            text = body.rstrip()
            stats.physical_lines += 1
            if not text.strip():
                stats.blank += 1
                return
            stats.records += 1
            rec = Record(stats.physical_lines, text, rank)
            if self.matcher.rejects(text):
                self._unmatched(rec)
                self._remember_noise(line, rec)
                return
            hit = self.record(rec)
            if hit is None:
                self._remember_noise(line, rec)
            elif lane is not None and learn:
                lane.learn(hit[0], line, rec)
            return
        records = []
        for rec in _split_physical(line, stats, counters=self.counters):
            records.append((rec, self.record(rec, compare=got is not None)))
        if got is not None:
            assert lane is not None
            lane.check(got[0], line, got[1], records)
        elif lane is not None and learn and len(records) == 1 and records[0][1] is not None:
            lane.learn(records[0][1][0], line, records[0][0])

    def _remember_noise(self, line: str, rec: Record) -> None:
        if len(self.noise) >= NOISE_LINES:
            self.noise.clear()
        self.noise[line] = (rec.text, rec.rank)

    def _unmatched(self, rec: Record) -> None:
        self.n += 1
        self.since_partial += 1
        if self.keep or self.n <= MAX_WRAP_PARTS or self.since_partial <= MAX_WRAP_PARTS:
            self.run.flush()
            self.out.append((rec.line, rec.text, rec.rank, rec.host, -1, None))
        else:
            self.unmatched += 1

    def record(self, rec: Record, compare: bool = False) -> tuple[LineSpec, Row] | None:
        """One record read the ordinary way; returns its match (with a copy of the values when the lane will
        `compare` them with its own reading: the row takes the originals)."""
        hit = self.matcher.match(rec.text)
        if hit is None:
            self._unmatched(rec)
            return None
        self.n += 1
        self.since_partial += 1
        spec, values = hit
        seen = (spec, values.copy()) if compare else hit
        index = self.matcher.index[id(spec)]
        partial = spec.complete is not None and spec.is_partial(rec.text)
        if partial:
            self.since_partial = 0
        elif bulkable(spec):
            self.run.add(rec, spec, index, values)
            return seen
        elif order_free(spec) and self.since_partial > MAX_WRAP_PARTS:
            # an event or config line touches no step row: it waits beside the run, which it does not cut
            self.run.aside.append((rec.line, rec.text, rec.rank, rec.host, index, values))
            return seen
        self.run.flush()
        self.out.append((rec.line, rec.text, rec.rank, rec.host, index, values))
        return seen

    def finish(self) -> list[Any]:
        self.run.flush()
        if self.unmatched:
            self.out.append(Tally(self.unmatched))
        return self.out


def _event_columns(shape: LaneShape, items: list[_FastEvent]) -> tuple[Row, list[Any] | None] | None:
    """(columns, ranks) of one shape's event lines: the values _native.fit read (`row`) converted at once, the
    others' groups as LaneShape.convert converts them, each in its line's place; None when a group's value does not
    convert in bulk."""
    native = [k for k, item in enumerate(items) if item.row is not None] if shape.native is not None else []
    texts = [k for k, item in enumerate(items) if item.row is None] if native else list(range(len(items)))
    parts: list[tuple[list[int], Row, list[Any] | None]] = []
    if native:
        assert shape.native is not None
        cols, ranks = shape.native.columns(np.stack([items[k].row for k in native]))
        parts.append((native, cols, None if ranks is None else ranks.tolist()))
    if texts:
        groups = [items[k].texts() for k in texts]
        cols = shape.convert(groups)
        if cols is None:
            return None
        parts.append((texts, cols, [shape.rank_of(g) for g in groups]))
    if len(parts) == 1:
        return parts[0][1], parts[0][2]
    n = len(items)
    merged: Row = {
        column: np.empty(n, dtype=np.asarray(array).dtype) for column, array in parts[0][1].items()
    }
    ranks: list[Any] = [None] * n
    for where, cols, part_ranks in parts:
        for column, array in cols.items():
            merged[column][where] = array
        for k, rank in zip(where, part_ranks or [None] * len(where), strict=True):
            ranks[k] = rank
    return merged, ranks


def _last_rows(ranks: Typed) -> dict[Any, int]:
    """Each rank's last row in a piece, ranks in the order they first appear."""
    if not isinstance(ranks.data, np.ndarray) or ranks.none is not None:
        return {rank: i for i, rank in enumerate(ranks.values())}
    values = ranks.data
    ranks_seen, first = np.unique(values, return_index=True)
    _, from_end = np.unique(values[::-1], return_index=True)
    at = np.argsort(first, kind="stable")
    return dict(zip(ranks_seen[at].tolist(), (len(values) - 1 - from_end[at]).tolist(), strict=True))


class _Run:
    """Consecutive step rows of a range: read the ordinary way (sent as records when few, else as one Bulk),
    or through one shape of the fast lane (one Bulk)."""

    def __init__(self, matcher: Matcher, out: list[Any]) -> None:
        self.matcher = matcher
        self.out = out
        self.held: list[tuple[Record, LineSpec, int, Row]] = []
        self.shape: LaneShape | None = None
        self.fast_lines: list[int] = []
        self.fast_groups: list[tuple[str, ...]] = []
        self.fast_text: list[str] = []
        # or the run's rows read by _native.fit: (line numbers, columns, ranks) of each stretch
        self.fast_native: list[tuple[np.ndarray, Row, np.ndarray | None]] = []
        # event and config records met inside the run, in line order: sent after it (order_free)
        self.aside: list[tuple[Any, ...]] = []

    def add(self, rec: Record, spec: LineSpec, index: int, values: Row) -> None:
        if self.shape is not None:
            self.flush()
        self.held.append((rec, spec, index, values))

    def add_fast_many(
        self, shape: LaneShape, line_nos: list[int], groups: list[tuple[str, ...]], lines: list[str]
    ) -> None:
        """add_fast of consecutive lines of one shape."""
        self._fast_run_of(shape, native=False)
        self.fast_lines.extend(line_nos)
        self.fast_groups.extend(groups)
        self.fast_text.extend(lines)

    def add_native(self, shape: LaneShape, line_nos: np.ndarray, cols: Row, ranks: np.ndarray | None) -> None:
        """Consecutive lines of one shape that _native.fit read, as their columns."""
        self._fast_run_of(shape, native=True)
        self.fast_native.append((line_nos, cols, ranks))

    def _fast_run_of(self, shape: LaneShape, native: bool) -> None:
        """The run goes on with lines of `shape`: rows read otherwise, or another shape's, are sent first; and
        rows of it held the other way (as texts, or as _native's columns), as their own piece."""
        if self.held or (self.shape is not None and self.shape is not shape):
            self.flush()
        elif self.fast_lines if native else self.fast_native:
            self._send_fast()
        self.shape = shape

    def add_fast(self, shape: LaneShape, line_no: int, groups: tuple[str, ...], line: str) -> None:
        self._fast_run_of(shape, native=False)
        self.fast_lines.append(line_no)
        self.fast_groups.append(groups)
        self.fast_text.append(line)

    def flush(self) -> None:
        if self.shape is not None:
            self._flush_fast()
        held, self.held = self.held, []
        if len(held) < BULK_MIN:
            self.out.extend((r.line, r.text, r.rank, r.host, i, v) for r, _, i, v in held)
        elif held:
            self.out.append(self._bulk(held))
        aside, self.aside = self.aside, []
        self._send_aside(aside)

    def _send_aside(self, aside: list[Any]) -> None:
        """The event and config records set aside, in line order: each stretch of BULK_MIN or more event records
        as one Events (built a column at a time when the lane read them all: _send_fast_events), the others as
        records."""
        specs = self.matcher.specs
        stretch: list[Any] = []
        for item in aside:
            if isinstance(item, _FastEvent) or specs[item[4]].kind == "event":
                stretch.append(item)
                continue
            self._send_stretch(stretch)
            stretch = []
            self.out.append(item)
        self._send_stretch(stretch)

    def _send_stretch(self, items: list[Any]) -> None:
        """A stretch of event records set aside: each run of BULK_MIN or more lines the lane read as one Events
        built a column at a time (_send_fast_events), the records between them as _send_events sends them."""
        pending: list[tuple[Any, ...]] = []
        at = 0
        while at < len(items):
            end = at
            while end < len(items) and isinstance(items[end], _FastEvent):
                end += 1
            if end - at >= BULK_MIN:
                self._send_records(pending)
                pending = []
                if not self._send_fast_events(items[at:end]):
                    pending = [self._as_record(item) for item in items[at:end]]
            else:
                pending.extend(self._as_record(item) for item in items[at:end])
            if end < len(items):
                pending.append(items[end])
            at = end + 1
        self._send_records(pending)

    def _send_records(self, records: list[tuple[Any, ...]]) -> None:
        """Event records, in order, as _send_events sends them; one that matched nothing as itself."""
        start = 0
        for i, record in enumerate(records):
            if record[4] < 0:  # (a checked shape reads only what its pattern reads)
                self._send_events(records[start:i])
                self.out.append(record)
                start = i + 1
        self._send_events(records[start:])

    def _as_record(self, item: _FastEvent) -> tuple[Any, ...]:
        """An event line of the lane as the record `record` sets aside: its values as the shape reads them, or,
        when a value does not convert that way, read the ordinary way."""
        shape = item.shape
        groups = item.texts()
        values = shape.values_from(groups)
        if values is None:
            return self._ordinary(shape, item.line, item.text, groups)
        return (item.line, shape.text_of(item.text), shape.rank_of(groups), None, shape.index, values)

    def _ordinary(
        self, shape: LaneShape, line_no: int, line: str, groups: tuple[str, ...]
    ) -> tuple[Any, ...]:
        """A line of a shape whose values do not convert that way, as a record read the ordinary way."""
        text = shape.text_of(line)
        hit = self.matcher.match(text)
        index = self.matcher.index[id(hit[0])] if hit is not None else -1
        return (line_no, text, shape.rank_of(groups), None, index, hit[1] if hit is not None else None)

    def _send_fast_events(self, items: list[_FastEvent]) -> bool:
        """Event lines read through the lane: the rows rows.event_row makes of them, built a column at a time (a
        shape's values converted at once); False when a value does not convert in bulk."""
        by_shape: dict[LaneShape, list[int]] = {}
        for i, item in enumerate(items):
            by_shape.setdefault(item.shape, []).append(i)
        converted = {}
        n = len(items)
        ranks: list[Any] = [None] * n
        for shape, at in by_shape.items():
            got = _event_columns(shape, [items[i] for i in at])
            if got is None:
                return False
            cols, shape_ranks = got
            converted[shape] = cols
            if shape_ranks is not None:
                for i, rank in zip(at, shape_ranks, strict=True):
                    ranks[i] = rank
        one = len(by_shape) == 1
        lists: dict[str, list[Any]] = {
            "event": [items[0].shape.spec.event] * n if one else [item.shape.spec.event for item in items],
            "pattern": [items[0].shape.spec.qualname] * n
            if one
            else [item.shape.spec.qualname for item in items],
            "line": [item.line for item in items],
            "rank": ranks,
            "text": [item.shape.text_of(item.text)[:200] for item in items],
        }
        keymap: dict[tuple[str, str], str] = {}
        arrays: dict[str, np.ndarray] = {}  # (a column every shape gives as one numpy dtype: kept an array)
        for shape, at in by_shape.items():  # in order of first appearance, as rows are appended
            for column, array in converted[shape].items():
                if column in arrays:
                    arrays[column][at] = array
                    continue
                if (
                    column not in lists
                    and isinstance(array, np.ndarray)
                    and all(
                        column in cols and getattr(cols[column], "dtype", None) == array.dtype
                        for cols in converted.values()
                    )
                ):
                    arrays[column] = np.empty(n, dtype=array.dtype)
                    arrays[column][at] = array
                    lists[column] = []  # (its place in the column order)
                    continue
                values = array.tolist() if isinstance(array, np.ndarray) else list(array)
                target = lists.setdefault(column, [None] * n)
                for i, value in zip(at, values, strict=True):
                    target[i] = value
            for what, key, column in shape.used:
                keymap.setdefault((what, key), column)
        piece = RowBlock(
            {k: Typed.of_array(arrays[k]) if k in arrays else Typed(v) for k, v in lists.items()}, n
        )
        self.out.append(
            Events(
                pieces=[piece],
                n=n,
                specs=[shape.index for shape in by_shape],
                malformed=0,
                keymap=[(what, key, column) for (what, key), column in keymap.items()],
            )
        )
        return True

    def _send_events(self, items: list[tuple[Any, ...]]) -> None:
        if len(items) < BULK_MIN:
            self.out.extend(items)
            return
        cols = Columns()
        specs: dict[int, None] = {}
        malformed = 0
        keymap: dict[tuple[str, str], str] = {}
        for line, text, rank, _host, index, values in items:
            spec = self.matcher.specs[index]
            specs.setdefault(index)
            problems, _windowed, used = prepare(spec, values)
            for what, key, column in used:
                keymap.setdefault((what, key), column)
            malformed += bool(problems)
            cols.append(event_row(spec, line, rank, text, values))
        self.out.append(
            Events(
                pieces=cols.pieces_all(),
                n=len(items),
                specs=list(specs),
                malformed=malformed,
                keymap=[(what, key, column) for (what, key), column in keymap.items()],
            )
        )

    def _flush_fast(self) -> None:
        self._send_fast()
        self.shape = None

    def _send_fast(self) -> None:
        """The rows of the run's shape held so far, as a Bulk (or, where a value does not convert in bulk, a few)."""
        shape, lines, groups, texts = self.shape, self.fast_lines, self.fast_groups, self.fast_text
        assert shape is not None
        self.fast_lines, self.fast_groups, self.fast_text = [], [], []
        if self.fast_native:
            parts, self.fast_native = self.fast_native, []
            cols = {column: np.concatenate([part[1][column] for part in parts]) for column in parts[0][1]}
            ranks = None if parts[0][2] is None else np.concatenate([part[2] for part in parts])  # type: ignore[misc]
            self._fast_bulk(
                shape, shape_block(shape, np.concatenate([part[0] for part in parts]), cols, ranks)
            )
        if not lines:
            return
        made = shape_piece(shape, lines, groups)
        if made is not None:
            self._fast_bulk(shape, made)
            return
        # a value that does not convert in bulk: that line the ordinary way, the lines around it in bulk
        start = 0
        for i, g in enumerate(groups):
            if shape.convert([g]) is not None:
                continue
            if i > start:
                self._fast_bulk(shape, shape_piece(shape, lines[start:i], groups[start:i]))
            self.out.append(self._ordinary(shape, lines[i], texts[i], g))
            start = i + 1
        if start < len(lines):
            self._fast_bulk(shape, shape_piece(shape, lines[start:], groups[start:]))

    def _fast_bulk(self, shape: LaneShape, made: RowBlock | None) -> None:
        assert made is not None
        n = made.n
        last = _last_rows(made.column("rank")) if shape.prefixed else {None: n - 1}
        self.out.append(
            Bulk(
                pieces=[made],
                n=n,
                specs=[shape.index],
                malformed=0,
                keymap=list(shape.used),  # a key map line's keys (its first line, read the ordinary way, too)
                last_block={(shape.index, rank): at for rank, at in last.items()},
                last_step=dict(last) if shape.spec.kind == "step" else {},
            )
        )

    def _bulk(self, held: list[tuple[Record, LineSpec, int, Row]]) -> Bulk:
        cols = Columns()
        specs: dict[int, None] = {}
        malformed = 0
        keymap: dict[tuple[str, str], str] = {}
        last_block: dict[tuple[int, Any], int] = {}
        last_step: dict[Any, int] = {}
        for at, (rec, spec, index, values) in enumerate(held):
            specs.setdefault(index)
            problems, windowed, used = prepare(spec, values)
            for what, key, column in used:
                keymap.setdefault((what, key), column)
            malformed += bool(problems)
            row = step_row(rec, spec, values, problems, windowed)
            last_block[(index, rec.rank)] = at
            if spec.kind == "step":
                last_step[rec.rank] = at
            cols.append(row)
        return Bulk(
            pieces=cols.pieces_all(),
            n=len(held),
            specs=list(specs),
            malformed=malformed,
            keymap=[(what, key, column) for (what, key), column in keymap.items()],
            last_block=last_block,
            last_step=last_step,
        )
