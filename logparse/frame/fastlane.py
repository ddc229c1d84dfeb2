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

A key map line (the generic reading, ``keymap``/``extra``: keys found by a ``pairs`` regex, mapped through
the synonym table) has a shape too: its keys are part of the literal text, and each value's group admits only
a number printed the same way as the learned line's (the same sign, fraction, exponent, thousands separators
in threes; a unit glued on or after it is literal text), since the key map regexes tell numbers apart by
such features and not by their digits (LineSpec._by_layout; a test feeds shapes mutated numbers). Each group
converts as LineSpec._values converts its value: a field's conversion, the key's keymap.Mapping with the unit
the line printed (the same float operations in the same order), or a kept key's number; the keys a line
mapped and kept are the shape's, listed once per run. ``nan``, ``inf`` or any other text is not a number
printed that way, and goes the ordinary way.

A shape is only made when reading it this way cannot give another answer than the pattern: a step line of a
shipped kind (no list, no string field), read from a line that is its record's text (no launcher prefix but
torchrun's ``[defaultR]:``, no colour codes, no carriage return, no trailing blank), that no pattern tried
before it could match, and whose own values the shape reproduces. The first lines each shape reads in a range
are also read the ordinary way and compared; a difference retires the shape. Lines that could be peeled of a
launcher prefix, or that hold another rank's prefix, never take the lane.

Where the C extension is built (_native.c, setup.py), a window's lines are matched against a shape's literal texts
and their values converted there (`Native`): it answers only where its answer is the regex's and Python's (ASCII
lines, values in the plain forms int(), float() and numpy read one way) and leaves every other line to them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import numpy as np
import regex as regex_module

from ..core.errors import PatternError
from ..core.schema import Row, fill_aliases
from ..patterns import keymap as keymap_mod
from ..patterns.sets import FieldSpec, LineSpec, LineValues
from ..read.reader import ANY_PREFIX, TORCHRUN_PREFIX, Record, counter_lead, glued_at, may_be_prefixed
from .columns import RowBlock, Typed
from .matcher import Matcher
from .rows import bulkable, order_free

try:  # the shape test and conversions in C (_native.c); without a compiler the regexes read the same lines
    from . import _native
except ImportError:  # pragma: no cover - a build without the extension
    _native = None

NATIVE = _native is not None  # read checked shapes' lines through _native.fit (tests turn it off to compare)


def own_text(line: str, counters: bool = False) -> tuple[str | None, int | None]:
    """(text, rank) of a line (no carriage return, escape or colour remnant) that the reader makes one
    record of, with no prefix or torchrun's `[defaultR]:` alone; (None, None) when it may do more (another
    prefix, a second one, another rank's output on the same line). The lane and the parallel reader's
    record-making both decide by it. `counters`: the file's line-leading `N: ` is its records' counter, which the
    reader keeps in the text (reader.leading_counters)."""
    if glued_at(line) is not None:
        return None, None  # a logging record glued to a tqdm bar: the reader cuts it off (reader.glued_at)
    if not may_be_prefixed(line):
        return line, None
    if counters and counter_lead(line):
        return line, None
    m = TORCHRUN_PREFIX.match(line)
    if m is None:
        return (None, None) if ANY_PREFIX.match(line) else (line, None)
    body = line[m.end() :]
    if "[" + m.group("role") in body or (may_be_prefixed(body) and ANY_PREFIX.match(body)):
        return None, None  # a second prefix, or another rank's output on this line: the reader's way
    return body, int(m.group("rank"))


# the launcher prefixes own_text weighs, for a partial match: can a line that starts with a given text have one?
_PREFIXES = (regex_module.compile(TORCHRUN_PREFIX.pattern), regex_module.compile(ANY_PREFIX.pattern))


def _plain_lead(lead: str) -> bool:
    """Whether no launcher prefix can start a line that starts with `lead` (a shape's literal text before its
    first value): then own_text reads every line of the shape as itself (no "<": no glued tqdm bar)."""
    return bool(lead) and not any(rx.match(lead, partial=True) for rx in _PREFIXES)


# a column's texts -> its values (raises ValueError when a text does not convert)
Convert = Callable[[Sequence[str]], Any]
_ISO = re.compile(r"(?:\d{4}-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d{6})?\n)*")
CHECKED = 4  # lines of each shape in a range read both ways
MAX_SHAPES = 12  # shapes kept per pattern (the most recently used first)
MAX_FAILS = 16  # lines of a pattern whose shape could not be made, after which the lane stops trying
# ... and shapes made per pattern in a range: a line whose numbers change form often (a sign, an exponent)
# makes a shape a line, each costing three ordinary readings
MAX_LEARNED = 64


class LaneShape:
    """The regex of one line shape of one step pattern, and how its groups become the row's columns."""

    def __init__(
        self,
        spec: LineSpec,
        index: int,
        regex: re.Pattern,
        plan: list[tuple[int, str, Convert]],
        prefixed: bool,
        role: str | None,
        windowed: list[str],
        used: list[tuple[str, str, str]] | None = None,
    ) -> None:
        self.spec = spec
        self.index = index
        self.regex = regex
        self.plan = plan  # (group number, column, conversion) in the order the pattern fills the row
        self.prefixed = prefixed  # the first group is torchrun's rank
        self.role = role
        self.checked = 0
        self.retired = False
        self.windowed = windowed
        # a key map line's (group, printed key, column) triples as rows.prepare lists them (mapped, then kept)
        self.used = used or []
        # (column, group number) of a value over the steps another group of the line counts (FieldSpec.per)
        self.per: list[tuple[str, int]] = []
        # no launcher prefix can start a line of this shape (its literal head rules each out): the reader makes
        # such a line one record of its own text, unless a tqdm bar is glued to it (a "<"); set by learn
        self.plain_lead = False
        # a pattern tried before this one could match the learned line's text (it holds that pattern's needle):
        # an event line's shape then reads a line only when none of them matches it (Matcher.matched_before)
        self.before = False
        # the literal texts between the groups, the head first and the tail last ("" when the line ends with a
        # group), after torchrun's prefix when the shape has one: every line the shape fits holds them
        self.literals: list[str] = []
        self._body_plain: bool | None = None  # (reads_alone_but_tag: no prefix can start the text after it)
        # how _native.fit reads a line of this shape (a step or event line's shape, not a key map line's)
        self.native: Native | None = None

    @classmethod
    def learn(
        cls,
        spec: LineSpec,
        index: int,
        matcher: Matcher,
        line: str,
        rank: Any,
        host: Any,
        text: str,
        counters: bool = False,
    ) -> LaneShape | None:
        """The shape of `line`, whose record `text` the pattern `spec` matched; None when the lane cannot read
        its shape exactly as the pattern does (`counters`: as for own_text)."""
        if spec.list_columns or host is not None:
            return None
        before = any(i < index for i in matcher.candidates(text))
        if line != line.rstrip() or "\r" in line or "\x1b" in line or (before and not event_lane(spec)):
            return None
        if own_text(line, counters) != (text, rank):
            return None  # the reader makes more of this line than its text and torchrun's rank
        role = None
        head = ""
        if rank is not None:
            role = TORCHRUN_PREFIX.match(line).group("role")  # type: ignore[union-attr]
            head = r"\[" + re.escape(role) + r"(\d+)\]:"
        if spec.keymap is not None or spec.extra is not None:
            keyed = _keyed(cls, spec, index, head, line, text, role)
            if keyed is not None:
                keyed.before = before
            return keyed
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
        # a group spelled out (its value holds the character that ends a group): no _native.fit
        spelled = False
        for n, i in enumerate(order, 1 + bool(head)):
            start, end, _ = slots[i]
            if start < at or (start == at and n > 1 + bool(head)):
                return None  # nested or adjacent groups: no literal text to end a value
            parts.append(re.escape(text[at:start]))
            nxt = text[end : end + 1]
            if nxt and nxt in text[start:end]:
                # `2026-12-01 19:46:46,692 - INFO`, `36,471, ...`: a value of one strict form, spelled out
                form = next((rx for rx in (_TS_FORM, _SEPARATED) if rx.fullmatch(text[start:end])), None)
                if form is None:
                    return None
                parts.append(f"({form.pattern})")
                spelled = True
            else:
                parts.append(f"([^{re.escape(nxt)}\\n]*)" if nxt else "([^\\n]*)")
            group_of[i] = n
            at = end
        parts.append(re.escape(text[at:]))
        plan: list[tuple[int, str, Convert]] = []
        windowed = []
        per: list[tuple[str, int]] = []
        group_named = {source: group_of[i] for i, (_, _, source) in enumerate(slots)}
        for i, (_, _, source) in enumerate(slots):
            fs = spec.fields.get(source)
            if fs is None:
                continue
            if not (fs._fast is not None or (fs.type == "timestamp" and not fs.missing)) or fs.units:
                return None
            plan.append((group_of[i], fs.column, _field(fs)))
            if fs.per is not None:
                if fs.per not in group_named:
                    return None
                per.append((fs.column, group_named[fs.per]))
            if fs.window is not None and fs.window != "log_interval":
                windowed.append(fs.column)
        shape = cls(spec, index, re.compile("".join(parts)), plan, bool(head), role, windowed)
        shape.per = per
        shape.plain_lead = not head and _plain_lead(text[: slots[order[0]][0]] if order else text)
        cuts = [0, *(edge for i in order for edge in slots[i][:2]), len(text)]
        shape.literals = [text[a:b] for a, b in zip(cuts[::2], cuts[1::2], strict=True)]
        shape.before = before
        want = spec.match(text)
        if want is None or spec.is_partial(text) or shape.values_of(line) != want:
            return None
        fields = {
            group: spec.fields[slots[i][2]] for i, group in group_of.items() if slots[i][2] in spec.fields
        }
        shape.native = None if spelled or per else Native.of(shape, len(slots), fields)
        return shape

    def disjoint(self, other: LaneShape) -> bool:
        """No line fits both shapes: their literal heads differ (neither starts the other), after the same
        prefix."""
        if (
            self.prefixed != other.prefixed
            or self.role != other.role
            or not self.literals
            or not other.literals
        ):
            return False
        a, b = self.literals[0], other.literals[0]
        return not (a.startswith(b) or b.startswith(a))

    def reads_alone(self, needle: str, dirty: bool) -> bool:
        """Whether every line that this shape alone fits is one Lane.read returns it for and the worker reads
        through it, with no look at the line itself: its pattern's `needle` is in its literal text, its last
        literal ends in a character that is no blank, no launcher prefix can start it, it is no event line that
        a pattern tried before could read, and its range holds no carriage return, escape, colour-code remnant
        or "<" (`dirty`)."""
        return self.plain_lead and self._alone(needle, dirty)

    def reads_alone_but_tag(self, needle: str, dirty: bool) -> bool:
        """reads_alone for a shape of torchrun's prefix: every line it alone fits is read through it unless
        the line holds its prefix's "[<role>" again (another rank's output on the line: fastlane.own_text),
        when no launcher prefix can start the text after the prefix."""
        if not self.prefixed or not self._alone(needle, dirty):
            return False
        return self.body_plain()

    def body_plain(self) -> bool:
        """A shape of torchrun's prefix whose text after the prefix no launcher prefix can start: a line of it
        that holds no `tag` after its own prefix is the record own_text makes of it, with its rank."""
        if not self.prefixed or not self.literals:
            return False
        if self._body_plain is None:
            self._body_plain = _plain_lead(self.literals[0])
        return self._body_plain

    @property
    def tag(self) -> str:
        """What starts another rank's output inside a line of this torchrun-prefixed shape: "[<role>"."""
        return "[" + str(self.role)

    def own_record(self, line: str) -> bool:
        """Whether own_text makes of `line`, a line of this shape, the text after its prefix and its rank,
        without a look at it (body_plain, and no other rank's output after its own prefix)."""
        return self.body_plain() and line.find(self.tag, 1) < 0

    def reads_alone_but_before(self, needle: str, dirty: bool) -> bool:
        """reads_alone (or reads_alone_but_tag, for a shape of torchrun's prefix) for an event line's shape that a
        pattern tried before may read: every line it alone fits is read through it unless that pattern matches
        the line's text (Matcher.matched_before_all)."""
        if not (self.event and self.before and self._alone(needle, dirty, before=False)):
            return False
        return self.plain_lead or self.body_plain()

    def _alone(self, needle: str, dirty: bool, before: bool = True) -> bool:
        return (
            not dirty
            and bool(self.literals)
            and self.literals[-1][-1:].strip() != ""
            and (not needle or any(needle in literal for literal in self.literals))
            and not (before and self.event and self.before)
        )

    @property
    def event(self) -> bool:
        """An event line's shape: its lines are set aside beside the run of step rows, as an order-free record
        is (chunks._Worker.line), and made into rows a column at a time when the run is sent."""
        return self.spec.kind == "event"

    def text_of(self, line: str) -> str:
        """The text of the record a line of this shape is: the line, after torchrun's prefix when it has one."""
        return line[line.index(":") + 1 :] if self.prefixed else line

    def rank_of(self, groups: tuple[str, ...]) -> int | None:
        """The rank torchrun's prefix names in a line of this shape (its first group), None without one."""
        return int(groups[0]) if self.prefixed else None

    def values_of(self, line: str) -> Row | None:
        """The values the lane reads from one line (as LineSpec.match gives them), None if it cannot."""
        m = self.regex.fullmatch(line)
        return None if m is None else self.values_from(m.groups())

    def values_from(self, groups: tuple[str, ...]) -> Row | None:
        """values_of a line whose groups the shape's regex gave."""
        cols = self.convert([groups])
        if cols is None:
            return None
        values = LineValues(
            (column, array[0].item() if isinstance(array[0], np.generic) else array[0])
            for column, array in cols.items()
        )
        for column in self.windowed:
            values.note("windowed", column)
        for what, key, column in self.used:
            if what in ("mapped", "kept", "skipped"):
                values.note(what, (key, column))
        return values

    def convert(self, groups: Sequence[tuple[str, ...]]) -> Row | None:
        """Column -> values (a numpy array or a list) of the lines' groups, in the order the pattern fills
        them; None when a value does not convert in bulk (some line needs the ordinary reading)."""
        cols: Row = {}
        by_group = list(zip(*groups, strict=True)) if groups else []  # (the lines' texts a group at a time)
        for group, column, convert in self.plan:
            texts = by_group[group - 1] if by_group else ()
            try:
                cols[column] = convert(texts)
            except (ValueError, OverflowError):  # OverflowError: an int past int64
                return None
        for column, group in self.per:
            # per step, as LineSpec._values reads it: NaN where the count is no positive number
            try:
                n = np.array(_numbers(by_group[group - 1] if by_group else [], float), dtype=np.float64)
            except ValueError:
                return None
            cols[column] = np.divide(cols[column], n, out=np.full_like(n, np.nan), where=n > 0)
        fill_aliases(cols)  # as the one-pass reading does (patterns.sets.LineSpec._values)
        return cols


def _field(fs: FieldSpec) -> Convert:
    return lambda texts: _column(fs, texts)


def _column(fs: FieldSpec, texts: Sequence[str]) -> Any:
    if fs.type == "timestamp":
        joined = "\n".join(texts) + "\n"
        if _ISO.fullmatch(joined):
            return np.array(texts, dtype="datetime64[us]").astype(np.int64) / 1e6
        if all(_TS_FORM.fullmatch(t) for t in texts):  # Python logging's `19:46:46,692`
            return _timestamps(texts)
        raise ValueError("not one ISO shape")
    if fs.type == "int":
        whole = int(fs.offset)
        values = _numbers(texts, int)
        return np.array(values, dtype=np.int64) + whole if whole else np.array(values, dtype=np.int64)
    return np.array(_numbers(texts, float), dtype=np.float64) * fs.scale + fs.offset


def _numbers(texts: list[str], kind: type) -> list[Any]:
    """The numbers of a column's texts; `1,000` without its separators, as FieldSpec.convert reads it (ValueError
    where one is no number)."""
    try:
        return list(map(kind, texts))
    except ValueError:
        out = [kind(t.replace(",", "")) for t in texts if _SEPARATED.fullmatch(t)]
        if len(out) != len(texts):
            raise
        return out


# a number with thousands separators in threes, as sets.to_number and FieldSpec.convert read it (commas dropped)
_SEPARATED = re.compile(r"[-+]?[0-9]{1,3}(?:,[0-9]{3})+(?:\.[0-9]+)?(?:[eE][-+]?[0-9]+)?")


def event_lane(spec: LineSpec) -> bool:
    """An event line the lane may read: order-free (rows.order_free), never partial, no list."""
    return spec.kind == "event" and order_free(spec) and spec.complete is None and not spec.list_columns


# ------------------------------------------------------------------------------------------------------
# key map lines (the generic reading): the shape's literal text holds the keys, each group one value's number

# A value's number in its printed form: a group admits only numbers printed the same way (the same sign, a
# fraction and an exponent or not, thousands separators in threes), so that the key map regexes, which match
# a number by such features and not by its digits (LineSpec._by_layout), read every line of the shape alike.
_FORM = re.compile(
    r"(?P<sign>[-+]?)(?:(?P<sep>[0-9]{1,3}(?:,[0-9]{3})+)|(?P<int>[0-9]*))(?P<dot>\.(?P<frac>[0-9]*))?"
    r"(?:(?P<e>[eE][-+]?)[0-9]+)?"
)
# a timestamp that numpy and logparse.patterns.sets.to_timestamp read alike: ISO, 3 or 6 digits of fraction (Python
# 3.10's fromisoformat reads no other), a year from 1000 (numpy reads year 0, Python does not)
_TS_FORM = re.compile(
    r"[1-9][0-9]{3}-[0-9]{2}-[0-9]{2}[ T][0-9]{2}:[0-9]{2}:[0-9]{2}(?:[.,](?:[0-9]{3}|[0-9]{6}))?"
)
_UNIT_TEXT = re.compile(r"(?: ?[^\s\d]+)?")  # what may follow a value's number: nothing, or its unit


def _number_group(value: str) -> tuple[str, str] | None:
    """(group regex, literal unit text after the number) of a printed value; None when it is no number."""
    m = _FORM.match(value)
    if m is None or not (m.group("sep") or m.group("int") or m.group("frac")):
        return None
    rx = re.escape(m.group("sign"))
    if m.group("sep"):
        rx += "[0-9]{1,3}(?:,[0-9]{3})+"
    elif m.group("int"):
        rx += "[0-9]+"
    if m.group("dot") is not None:
        rx += r"\." + ("[0-9]+" if m.group("frac") else "")
    if m.group("e"):
        rx += re.escape(m.group("e")) + "[0-9]+"
    rest = value[m.end() :]
    if not _UNIT_TEXT.fullmatch(rest):
        return None  # blanks around the unit, or a digit after the number: the ordinary reading
    return rx, rest


def _floats(texts: Sequence[str], sep: bool) -> np.ndarray:
    """float() of each text; with `sep`, its thousands separators dropped first (keymap.split_quantity)."""
    floats = [float(t.replace(",", "")) for t in texts] if sep else list(map(float, texts))
    return np.array(floats, dtype=np.float64)


def _mapped(mapping: keymap_mod.Mapping, unit: str | None, sep: bool) -> Convert | None:
    """texts -> the column keymap.Mapping.convert gives for numbers printed with `unit` (a number, not a
    bool), None when the unit does not fit the column (where to_quantity raises UnitError). The same
    operations in the same order (to_quantity, then invert, factor, int)."""
    u = unit or (None if mapping.invert else mapping.key_unit)
    units = mapping.units
    step: Any
    if units == "time":
        scale = None if u is None else (keymap_mod.TIME.get(u) or keymap_mod.TIME.get(u.lower()))
        if u is not None and scale is None:
            return None
        step = (lambda v: v) if scale is None else (lambda v: v * scale)
    elif units == "percent":
        if u in ("%", "pct", "percent"):
            step = lambda v: v * 0.01  # noqa: E731
        elif u is not None:
            return None
        else:
            # a bare number above 1 is a percentage
            step = lambda v: np.where(v > 1, v * 0.01, v)  # noqa: E731
    elif units in ("memory", "memory_si"):
        table = keymap_mod.MEMORY_SI if units == "memory_si" else keymap_mod.MEMORY
        per = None if u is None else (table.get(u.lower()) or keymap_mod.MEMORY.get(u.lower()))
        if u is not None and per is None:
            return None
        step = (lambda v: v) if per is None else (lambda v: v * per / keymap_mod.GIB)
    elif u is not None:
        per = keymap_mod.COUNT.get(u.lower()) if units == "count" else None
        if per is None:
            return None
        step = lambda v: v * per  # noqa: E731
    else:
        step = lambda v: v  # noqa: E731
    invert, factor, whole = mapping.invert, mapping.factor, mapping.type == "int"

    def convert(texts: Sequence[str]) -> np.ndarray:
        v = step(_floats(texts, sep))
        if invert:  # 1.0 / value if value else nan
            v = np.divide(1.0, v, out=np.full_like(v, np.nan), where=v != 0)
        v = v * factor
        if whole:
            r = np.rint(v)
            if not (np.isfinite(v).all() and (np.abs(v - r) <= 1e-9 * np.maximum(1.0, np.abs(v))).all()):
                raise ValueError("not an integer")
            if (np.abs(r) >= 2.0**53).any():
                raise ValueError("too large to convert in bulk")
            return r.astype(np.int64)
        return v

    return convert


def _timestamps(texts: Sequence[str]) -> np.ndarray:
    """to_timestamp of ISO texts (_TS_FORM): the same microseconds, divided the same way."""
    return np.array([t.replace(",", ".") for t in texts], dtype="datetime64[us]").astype(np.int64) / 1e6


def _keyed(
    cls: type[LaneShape], spec: LineSpec, index: int, head: str, line: str, text: str, role: str | None
) -> LaneShape | None:
    """The shape of a key map line: the text between its values (keys included) is literal, each value a group
    that admits its number printed the same way; each converts as LineSpec._values converts it (a field, a key
    mapped through the synonym table with the unit printed after it, or a kept key). Only for patterns whose
    regexes treat every digit alike (LineSpec._by_layout)."""
    if not spec._by_layout:
        return None
    try:
        spans = spec._spans(text)
    except PatternError:  # a pattern that times out is read (and reported) the ordinary way
        return None
    if not spans:
        return None
    km = spec.keymap
    together = None  # what the key model makes of the line's keys together (LineSpec._values)
    if km is not None:
        keys = [name if name is not None else text[ks:ke].strip() for name, ks, ke, _, _ in spans]
        together = km.line(tuple(k for k in keys if k not in spec.fields), spec.kind)
    # the value texts, each once (the step counter is both the `step` group and a pair's value)
    values = sorted({(vs, ve) for _, _, _, vs, ve in spans})
    for (_, ve), (vs, _) in zip(values, values[1:], strict=False):
        if vs <= ve:
            return None  # adjacent or overlapping values: no literal text between them
    for name, ks, ke, _, _ in spans:
        if name is None and any(vs < ke and ks < ve for _, _, _, vs, ve in spans):
            return None  # a key inside a value
    group_of = {vs: n for n, (vs, _) in enumerate(values, 1 + bool(head))}
    regex_of: dict[int, tuple[str, str]] = {}  # value start -> (its number's group regex, the unit after it)
    converters: list[tuple[int, str, Convert]] = []
    present: set[str] = set()
    mapped: list[tuple[str, str, str]] = []
    kept: list[tuple[str, str, str]] = []
    windowed: list[str] = []
    for name, ks, ke, vs, ve in spans:  # in LineSpec._values's order
        key = name if name is not None else text[ks:ke].strip()
        value = text[vs:ve]
        group = group_of[vs]
        fs = spec.fields.get(key)
        if fs is not None:
            if fs.type == "timestamp" and not fs.missing:
                if _TS_FORM.fullmatch(value) is None:
                    return None
                regex_of[vs] = (_TS_FORM.pattern, "")  # a different separator or fraction reads alike
                converters.append((group, fs.column, _timestamps))
            elif fs._fast is not None and not fs.units:
                form = _number_group(value)
                if form is None or form[1] or "," in value:
                    return None  # a unit or a separator: the field's own reading (to_number)
                regex_of[vs] = form
                converters.append((group, fs.column, _field(fs)))
            else:
                return None
            present.add(fs.column)
            if fs.window is not None and fs.window != "log_interval":
                windowed.append(fs.column)
            continue
        form = _number_group(value)
        if form is None or regex_of.setdefault(vs, form) != form:
            return None
        # as LineSpec._map_key reads the key
        skipped, mapping, why = keymap_mod.resolve(key, value, together, spec.extra, present)
        if skipped is not None:
            kept.append(("skipped", key.strip(), skipped))
            continue
        try:
            _, unit = keymap_mod.split_quantity(value)
        except ValueError:
            return None
        if mapping is not None:
            if mapping.type == "bool":
                return None
            convert = _mapped(mapping, unit, "," in value)
            if convert is not None:
                converters.append((group, mapping.column, convert))
                present.add(mapping.column)
                what = "kept" if mapping.kind == "known" else "mapped"
                (kept if what == "kept" else mapped).append((what, key.strip(), mapping.use(unit)))
                continue
            # a unit the column cannot hold (keymap.UnitError): kept as x_<key>_<unit> (LineSpec._map_key)
        if spec.extra is None or spec.kind not in ("step", "progress"):
            continue
        base, factor = keymap_mod.scaled_key(key)
        column = keymap_mod.column_name(spec.extra, base, unit)
        if column in present:
            continue
        sep = "," in value
        converters.append((group, column, lambda texts, f=factor, sep=sep: _floats(texts, sep) * f))
        present.add(column)
        kept.append(("kept", key.strip(), keymap_mod.kept_use(column, why, unit, factor)))
    parts, at, literals, unit = [head], 0, [], ""
    for vs, ve in values:
        parts.append(re.escape(text[at:vs]))
        literals.append(unit + text[at:vs])
        number, unit = regex_of[vs]
        parts.append(f"({number}){re.escape(unit)}")
        at = ve
        if text[at : at + 1] in tuple("0123456789.eE"):
            return None  # a literal that could continue the number
    parts.append(re.escape(text[at:]))
    literals.append(unit + text[at:])
    regex = re.compile("".join(parts))
    shape = cls(spec, index, regex, converters, bool(head), role, windowed, mapped + kept)
    shape.plain_lead = not head and _plain_lead(text[: values[0][0]])
    shape.literals = literals
    want = spec.match(text)
    if want is None or spec.is_partial(text) or shape.values_of(line) != want:
        return None
    return shape


class Lane:
    """The shapes learned in one range, per pattern, and the lines they read."""

    def __init__(self, matcher: Matcher, counters: bool = False) -> None:
        self.matcher = matcher
        self.counters = counters  # the range's file starts records with their counter `N: ` (own_text)
        self.shapes: dict[int, list[LaneShape]] = {}  # pattern index -> its shapes, most recently used first
        self.needles: list[tuple[str, int]] = []
        self.fails: dict[int, int] = {}
        self.learned: dict[int, int] = {}
        self.changes = 0  # shapes made or retired so far (a window of lines read as one ends at a change)
        self.ready = 0  # shapes checked so far (... and at a shape's last check: a new window reads with it)

    def learn(self, spec: LineSpec, line: str, rec: Record) -> None:
        """Make the shape of a line whose record `rec` the pattern `spec` read the ordinary way, when it is a
        step or event line the lane may read (per pattern: MAX_FAILS tries that make none, MAX_LEARNED shapes)."""
        index = self.matcher.index[id(spec)]
        if not (bulkable(spec) or event_lane(spec)) or self.fails.get(index, 0) >= MAX_FAILS:
            return
        if self.learned.get(index, 0) >= MAX_LEARNED:
            return
        shape = LaneShape.learn(spec, index, self.matcher, line, rec.rank, rec.host, rec.text, self.counters)
        if shape is None:
            self.fails[index] = self.fails.get(index, 0) + 1
            return
        self.learned[index] = self.learned.get(index, 0) + 1
        self.changes += 1
        shapes = self.shapes.setdefault(index, [])
        shapes.insert(0, shape)
        del shapes[MAX_SHAPES:]
        needles = spec.needles()
        needle = needles[0] if needles else ""  # a pattern with no needle (the generic reading): every line
        if (needle, index) not in self.needles:
            self.needles.append((needle, index))

    def read(self, line: str) -> tuple[LaneShape, tuple[str, ...]] | None:
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
                if not shape.plain_lead or "<" in line:
                    body, rank = own_text(line, self.counters)
                    if body is None or (rank is not None) != shape.prefixed:
                        return (
                            None  # the reader would peel or split this line otherwise than the shape reads it
                        )
                if k:
                    shapes.insert(0, shapes.pop(k))
                return shape, m.groups()
        return None

    def used(self, shapes: Sequence[LaneShape]) -> None:
        """Move the shapes `read` returned for a run of lines to the front of their patterns' lists, as `read` moves
        each when it returns it: `shapes` in the order of the last line each read."""
        for shape in shapes:
            group = self.shapes[shape.index]
            if group[0] is not shape:
                group.remove(shape)
                group.insert(0, shape)

    def check(
        self, shape: LaneShape, line: str, groups: tuple[str, ...], records: list[tuple[Any, Any]]
    ) -> None:
        """For a shape's first lines: whether the ordinary reading of `line` (its records, each with its
        pattern and values) is what the lane reads; a difference retires the shape (a change: `changes`)."""
        shape.checked += 1
        self.ready += shape.checked == CHECKED
        rank = shape.rank_of(groups)
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
            self.changes += 1


def piece(shape: LaneShape, lines: list[int], groups: list[tuple[str, ...]]) -> RowBlock | None:
    """The rows of a run of lines of one shape, as frame.step_row makes them; None when a value needs the
    ordinary reading."""
    cols = shape.convert(groups)
    if cols is None:
        return None
    return block(shape, lines, cols, [int(g[0]) for g in groups] if shape.prefixed else None)


def block(shape: LaneShape, lines: Sequence[int], cols: Row, rank: list[int] | np.ndarray | None) -> RowBlock:
    """The rows of a run of lines of one shape whose values `cols` holds (LaneShape.convert's or Native.columns'),
    with torchrun's `rank` of each when the shape has its prefix."""
    n = len(lines)
    # columns in the order a row-by-row build first meets them (frame column order)
    out: dict[str, Typed] = {
        "kind": Typed([shape.spec.kind] * n),
        "pattern": Typed([shape.spec.qualname] * n),
        "line": Typed.of_array(np.asarray(lines, dtype=np.int64)),
        "rank": Typed.nones(n)
        if rank is None
        else Typed.of_array(rank)
        if isinstance(rank, np.ndarray)
        else Typed(rank),
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
    return RowBlock(out, n)


def native_module() -> Any:
    """The C extension (_native.c) where it is built and not switched off (NATIVE), else None."""
    return _native if NATIVE else None


def scan(block: bytes) -> tuple[int, bool, bool, int] | None:
    """_native.scan of a range's bytes (its longest line's bytes, a carriage return or escape, a "<", a colour
    code's remnant: 0 no, 1 yes, 2 ask the regex); None where the module is not built or is switched off."""
    native = native_module()
    return native.scan(block) if native is not None else None


# ------------------------------------------------------------------------------------------------------
# the native reading (_native.fit): a shape's literals and its groups' kinds, and the columns of the lines it read


class Native(NamedTuple):
    """How _native.fit reads lines of one shape: its literal texts (torchrun's prefix as a literal "[<role>", a
    digit group and "]:"), each group's kind (r: the rank, i: int, f: float, t: timestamp, -: not converted), and
    the columns the groups become: (group, column, kind, scale, offset) in the order the pattern fills the row."""

    literals: tuple[str, ...]
    kinds: bytes
    plan: tuple[tuple[int, str, str, float, float], ...]

    @classmethod
    def of(cls, shape: LaneShape, slots: int, fields: dict[int, FieldSpec]) -> Native | None:
        """The native reading of a shape of `slots` groups after its prefix (`fields`: group -> FieldSpec), None
        when a literal is not ASCII or the module is not built."""
        if _native is None:
            return None
        literals = list(shape.literals)
        kinds = ["-"] * (slots + shape.prefixed)
        if shape.prefixed:
            literals = [shape.tag, "]:" + literals[0], *literals[1:]]
            kinds[0] = "r"
        if not all(text.isascii() for text in literals) or len(literals) != len(kinds) + 1:
            return None
        plan = []
        for group, column, _ in shape.plan:
            fs = fields[group]
            kind = "t" if fs.type == "timestamp" else "i" if fs.type == "int" else "f"
            kinds[group - 1] = kind
            plan.append((group - 1, column, kind, fs.scale, fs.offset))
        return cls(tuple(literals), "".join(kinds).encode(), tuple(plan))

    def fit(self, lines: list[str], where: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(code, values, again) of each line `where` points to: code 0 the shape does not fit it, 1 it does and
        the values are in its row, 2 the regex and Python are to say (_native.c); again: for a shape of torchrun's
        prefix, a line of code 1 holds "[<role>" again after its first character (LaneShape.own_record)."""
        codes = np.empty(len(where), dtype=np.uint8)
        values = np.empty((len(where), len(self.kinds)), dtype=np.int64)
        again = np.empty(len(where), dtype=np.bool_)
        assert _native is not None
        where = np.ascontiguousarray(where, dtype=np.int64)
        _native.fit(lines, where, self.literals, self.kinds, codes, values, again.view(np.uint8))
        return codes, values, again

    def columns(self, values: np.ndarray) -> tuple[Row, np.ndarray | None]:
        """(columns, ranks) of rows of values fit gave, as LaneShape.convert and piece make them of the texts."""
        cols: Row = {}
        for group, column, kind, scale, offset in self.plan:
            raw = values[:, group]
            if kind == "t":
                cols[column] = raw / 1e6  # (numpy's datetime64[us] as int64, divided as _column divides it)
            elif kind == "i":
                whole = int(offset)
                cols[column] = raw + whole if whole else raw.copy()
            else:
                cols[column] = raw.view(np.float64) * scale + offset
        fill_aliases(cols)
        return cols, (values[:, 0].copy() if self.kinds[:1] == b"r" else None)
