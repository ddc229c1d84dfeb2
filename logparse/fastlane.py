"""Fast lane: a big log's step lines read through one regex per line *shape*, their values converted in bulk.

Most of a large log is one step line printed again and again with other numbers (Megatron's iteration line).
The pattern reads each one with a search, a findall of its key/value pairs and a dozen conversions, each a
Python call: ~40 us a line. Lines of one shape have the same text between their values, so once a line has
been read the ordinary way, its shape is known:

    `` [`` ts ``] iteration        `` step ``/     500 | consumed samples:`` v1 ``| elapsed time ... (ms):`` v2 ...

and one ``fullmatch`` of a regex made of that literal text, with a group where each value was, reads the
next line of the same shape. Each group takes the characters up to the next literal text's first character,
so a value that holds that character, or a line with any other text, does not fit, and is read the ordinary
way. The values of a run of such lines are then converted column by column: ``float``/``int`` over the whole
column, timestamps of one strict ISO shape through numpy's parser (the same microseconds, divided the same
way). A value that does not convert that way sends its line the ordinary way too.

A shape is only made when reading it this way cannot give another answer than the pattern: a step line of a
shipped kind (no key map, no list, no string field), read from a line that is its record's text (no
launcher prefix but torchrun's ``[defaultR]:``, no colour codes, no carriage return, no trailing blank), that
no pattern tried before it could match, and whose own values the shape reproduces. The first lines each shape
reads in a range are also read the ordinary way and compared; a difference retires the shape. Lines that
could be peeled of a launcher prefix, or that hold another rank's prefix, never take the lane.
"""

from __future__ import annotations

import math
import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from .columns import Piece, Typed
from .matcher import Matcher
from .patterns import WINDOWED, FieldSpec, LineSpec
from .reader import Record
from .rows import bulkable

# any launcher prefix the reader would peel (reader._clean): a line whose text starts like this is read the
# ordinary way (srun --label's task id right-aligned: " 0: ")
_ANY_PREFIX = re.compile(
    r"\[[A-Za-z_]*?\d+(?:\|\d+)?\]:|\[1,\d+\]<std(?:out|err)>:|(?=[ \d]{1,5}: ) *\d+: |[A-Za-z0-9][\w.-]*\d[\w.-]*: "
)  # a superset of the reader's: torchx's "[trainer0|0]:", and any host-like name before ": " (reader._NAMED_HOST)


def _may_be_prefixed(line: str) -> bool:
    """Whether a launcher prefix can start `line` (each starts with "[", a digit or a letter, or with the
    spaces that right-align an srun label)."""
    first = line[:1]
    if first == " ":
        return line[:5].lstrip()[:1].isdigit()
    return first == "[" or first.isalnum()


_TORCHRUN = re.compile(r"\[([A-Za-z_]*?)(\d+)\]:")


def own_text(line: str) -> tuple[str | None, int | None]:
    """(text, rank) of a line (no carriage return, escape or colour remnant) that the reader makes one
    record of, with no prefix or torchrun's `[defaultR]:` alone; (None, None) when it may do more (another
    prefix, a second one, another rank's output on the same line). The lane and the parallel reader's
    record-making both decide by it."""
    if not _may_be_prefixed(line):
        return line, None
    m = _TORCHRUN.match(line)
    if m is None:
        return (None, None) if _ANY_PREFIX.match(line) else (line, None)
    body = line[m.end() :]
    if "[" + m.group(1) in body or (_may_be_prefixed(body) and _ANY_PREFIX.match(body)):
        return None, None  # a second prefix, or another rank's output on this line: the reader's way
    return body, int(m.group(2))


_ISO = re.compile(r"(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{6})?\n)*")
CHECKED = 4  # lines of each shape in a range read both ways
MAX_SHAPES = 12  # shapes kept per pattern (the most recently used first)
MAX_FAILS = 16  # lines of a pattern whose shape could not be made, after which the lane stops trying


class Shape:
    """The regex of one line shape of one step pattern, and how its groups become the row's columns."""

    def __init__(
        self,
        spec: LineSpec,
        index: int,
        regex: re.Pattern,
        plan: list[tuple[int, FieldSpec]],
        prefixed: bool,
        role: str | None,
    ) -> None:
        self.spec = spec
        self.index = index
        self.regex = regex
        self.plan = plan  # (group number, field) in the order the pattern fills the row's values
        self.prefixed = prefixed  # the first group is torchrun's rank
        self.role = role
        self.checked = 0
        self.retired = False
        self.windowed = [fs.column for _, fs in plan if fs.window is not None and fs.window != "log_interval"]

    @classmethod
    def learn(
        cls, spec: LineSpec, index: int, matcher: Matcher, line: str, rank: Any, host: Any, text: str
    ) -> Shape | None:
        """The shape of `line`, whose record `text` the pattern `spec` matched; None when the lane cannot read
        its shape exactly as the pattern does."""
        if spec.keymap is not None or spec.extra is not None or spec.list_columns or host is not None:
            return None
        if (
            line != line.rstrip()
            or "\r" in line
            or "\x1b" in line
            or any(i < index for i in matcher.candidates(text))
        ):
            return None
        if own_text(line) != (text, rank):
            return None  # the reader makes more of this line than its text and torchrun's rank
        role = None
        head = ""
        if rank is not None:
            role = _TORCHRUN.match(line).group(1)  # type: ignore[union-attr]
            head = r"\[" + re.escape(role) + r"(\d+)\]:"
        found = spec.regex.search(text)
        if found is None or "key" in spec.regex.groupindex:
            return None
        slots: list[tuple[int, int, str]] = []
        names = sorted(spec.regex.groupindex, key=spec.regex.groupindex.get)
        for name in names:
            if found.group(name) is not None:
                slots.append((*found.span(name), name))
        if spec.pairs is not None:
            for pm in spec.pairs.finditer(text):
                slots.append((*pm.span("value"), pm.group("key").strip()))
        order = sorted(range(len(slots)), key=lambda i: slots[i][0])
        parts, at, group_of = [head], 0, {}
        for n, i in enumerate(order, 1 + bool(head)):
            start, end, _ = slots[i]
            if start < at or (start == at and n > 1 + bool(head)):
                return None  # nested or adjacent groups: no literal text to end a value
            parts.append(re.escape(text[at:start]))
            nxt = text[end : end + 1]
            parts.append(f"([^{re.escape(nxt)}\\n]*)" if nxt else "([^\\n]*)")
            group_of[i] = n
            at = end
        parts.append(re.escape(text[at:]))
        plan: list[tuple[int, FieldSpec]] = []
        for i, (_, _, source) in enumerate(slots):
            fs = spec.fields.get(source)
            if fs is None:
                continue
            if not (fs._fast is not None or (fs.type == "timestamp" and not fs.missing)) or fs.units:
                return None
            plan.append((group_of[i], fs))
        shape = cls(spec, index, re.compile("".join(parts)), plan, bool(head), role)
        want = spec.match(text)
        if want is None or spec.is_partial(text) or shape.values_of(line) != want:
            return None
        return shape

    def values_of(self, line: str) -> dict[str, Any] | None:
        """The values the lane reads from one line (as LineSpec.match gives them), None if it cannot."""
        m = self.regex.fullmatch(line)
        if m is None:
            return None
        cols = self.convert([m.groups()])
        if cols is None:
            return None
        values = {column: array[0] for column, array in cols.items()}
        values = {k: (v.item() if isinstance(v, np.generic) else v) for k, v in values.items()}
        if self.windowed:
            values[WINDOWED] = list(self.windowed)
        return values

    def convert(self, groups: Sequence[tuple[str, ...]]) -> dict[str, Any] | None:
        """Column -> values (a numpy array or a list) of the lines' groups, in the order the pattern fills
        them; None when a value does not convert in bulk (some line needs the ordinary reading)."""
        cols: dict[str, Any] = {}
        for group, fs in self.plan:
            texts = [g[group - 1] for g in groups]
            try:
                cols[fs.column] = _column(fs, texts)
            except ValueError:
                return None
        if "memory_max_allocated_gib" in cols and "memory_gib" not in cols:
            cols["memory_gib"] = cols["memory_max_allocated_gib"]
        return cols


def _column(fs: FieldSpec, texts: list[str]) -> Any:
    if fs.type == "timestamp":
        joined = "\n".join(texts) + "\n"
        if not _ISO.fullmatch(joined):
            raise ValueError("not one ISO shape")
        return np.array(texts, dtype="datetime64[us]").astype(np.int64) / 1e6
    if fs.type == "int":
        whole = int(fs.offset)
        values = list(map(int, texts))
        return np.array(values, dtype=np.int64) + whole if whole else np.array(values, dtype=np.int64)
    values = np.array(list(map(float, texts)), dtype=np.float64)
    return values * fs.scale + fs.offset


class Lane:
    """The shapes learned in one range, per pattern, and the lines they read."""

    def __init__(self, matcher: Matcher) -> None:
        self.matcher = matcher
        self.shapes: dict[int, list[Shape]] = {}  # pattern index -> its shapes, most recently used first
        self.needles: list[tuple[str, int]] = []
        self.fails: dict[int, int] = {}

    def learn(self, spec: LineSpec, line: str, rec: Record) -> None:
        """Make the shape of a line whose record `rec` the pattern `spec` read the ordinary way, when it is a
        step line the lane may read (at most MAX_FAILS tries per pattern that make none)."""
        index = self.matcher.index[id(spec)]
        if not bulkable(spec) or self.fails.get(index, 0) >= MAX_FAILS:
            return
        shape = Shape.learn(spec, index, self.matcher, line, rec.rank, rec.host, rec.text)
        if shape is None:
            self.fails[index] = self.fails.get(index, 0) + 1
            return
        shapes = self.shapes.setdefault(index, [])
        shapes.insert(0, shape)
        del shapes[MAX_SHAPES:]
        needles = spec.needles()
        if needles and (needles[0], index) not in self.needles:
            self.needles.append((needles[0], index))

    def read(self, line: str) -> tuple[Shape, tuple[str, ...]] | None:
        """The shape that reads `line` and its groups, or None. `line` holds no carriage return, escape or
        colour-code remnant (the caller checks)."""
        for needle, index in self.needles:
            if needle not in line:
                continue
            if line[-1:].isspace():
                return None
            shapes = self.shapes[index]
            for k, shape in enumerate(shapes):
                if shape.retired:
                    continue
                m = shape.regex.fullmatch(line)
                if m is None:
                    continue
                body, rank = own_text(line)
                if body is None or (rank is not None) != shape.prefixed:
                    return None  # the reader would peel or split this line otherwise than the shape reads it
                if k:
                    shapes.insert(0, shapes.pop(k))
                return shape, m.groups()
        return None

    @staticmethod
    def check(shape: Shape, line: str, groups: tuple[str, ...], records: list[tuple[Any, Any]]) -> None:
        """For a shape's first lines: whether the ordinary reading of `line` (its records, each with its
        pattern and values) is what the lane reads; a difference retires the shape."""
        shape.checked += 1
        rank = int(groups[0]) if shape.prefixed else None
        same = (
            len(records) == 1
            and records[0][1] is not None
            and records[0][1][0] is shape.spec
            and records[0][0].rank == rank
            and records[0][0].host is None
            and not shape.spec.is_partial(records[0][0].text)
            and shape.values_of(line) == records[0][1][1]
        )
        if not same:
            shape.retired = True


def piece(shape: Shape, lines: list[int], groups: list[tuple[str, ...]]) -> Piece | None:
    """The rows of a run of lines of one shape, as frame.step_row makes them; None when a value needs the
    ordinary reading."""
    cols = shape.convert(groups)
    if cols is None:
        return None
    n = len(lines)
    rank = [int(g[0]) for g in groups] if shape.prefixed else [None] * n
    # columns in the order a row-by-row build first meets them (frame column order)
    out: dict[str, Typed] = {
        "kind": Typed([shape.spec.kind] * n),
        "pattern": Typed([shape.spec.qualname] * n),
        "line": Typed.of_array(np.array(lines, dtype=np.int64)),
        "rank": Typed(rank),
        "host": Typed.nones(n),
    }
    floats = [c for c, a in cols.items() if a.dtype == np.float64]
    bad = np.zeros(n, dtype=bool)
    for c in floats:
        bad |= ~np.isfinite(cols[c])
    nonfinite: Typed | None = None
    if bad.any():
        marks: list[Any] = [None] * n
        for i in np.flatnonzero(bad):
            marks[i] = ",".join(c for c in floats if not math.isfinite(cols[c][i]))
        nonfinite = Typed(marks)
        if bad[0]:
            out["nonfinite"] = nonfinite
    for column, array in cols.items():
        out[column] = Typed.of_array(array)
    if shape.windowed:
        out["windowed"] = Typed([",".join(shape.windowed)] * n)
    if nonfinite is not None and not bad[0]:
        out["nonfinite"] = nonfinite
    return Piece(out, n)
