"""Pattern sets: load TOML files, validate them, check their samples, detect which set a log uses.

A pattern set is data (see ``patterns/*.toml`` and the README's guide). Its outer shape is a
contract: a ``[format]`` table with ``name`` and ``detect``; ``[[line]]`` tables with ``name``, ``kind``
and ``regex``; ``[[sample]]`` tables with ``line`` and ``expect``. Every key a set may use, its type
and the names it may take are declared in ``pattern_set.schema.json`` (checked by ``pattern_schema.py``);
this module checks what a schema cannot say and compiles the set. Every regex runs under a time
limit, and a user pattern under a time budget over the whole log (REGEX_BUDGET_S), so a catastrophic user
pattern fails with an error instead of hanging the run; a user regex whose counted repeats expand too much
is refused before it is compiled (EXPANDED_LIMIT).

Beyond the contract, a [[line]] may say:
- ``complete = '<regex>'``: what every whole line of this pattern contains (Megatron's ``number of nan
  iterations``). A record that matches ``regex`` but not ``complete`` may have been hard-wrapped by a
  terminal into several physical lines; the frame then appends the following records that match no
  pattern (at most MAX_WRAP_PARTS, same rank) while the join still lacks ``complete``, and keeps the join
  only when it contains it. Lines of patterns without ``complete`` cost nothing extra.
and a field may say ``list = true``: its value is a printed list (``[11.85, 6.98, 5.36]``, NeMo's
``train_step_timing in s: [...]``), converted item by item; the frame turns such a line into one row per
item, numbered from the line's own step when it has one, else from 1.

``memory_gib`` keeps its meaning of the peak (max) allocated memory where the log gives it: a line that
fills ``memory_max_allocated_gib`` and not ``memory_gib`` fills ``memory_gib`` with the same value.
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime, timezone
from functools import cached_property
from pathlib import Path
from time import perf_counter
from typing import Any

import regex

from ..core.bounded import file_kind
from ..core.errors import PatternError
from ..core.schema import FACTS, SCOPED_COLUMNS, STEP_COLUMNS, Row, fill_aliases, scoped_name
from ..core.tomlfile import Table, parse_toml, read_toml_bytes
from . import diskcache
from . import keymap as keymap_mod
from . import schema as pattern_schema

REGEX_TIMEOUT_S = 0.25
# ... and a time budget over the whole log: each user pattern (and the shipped ones on lines over
# TRUSTED_CHARS) adds up the time its regex calls take; past REGEX_BUDGET_S plus REGEX_ALLOWANCE_S for each
# line it ran on, the analysis stops (LineSpec._charge). The allowance scales with the log, so a pattern that
# costs what a regex ordinarily costs is never stopped, however long the log: 1 ms is ~500x an ordinary user
# pattern on a step line (~2 us) and ~2x a linear scan of the longest text a pattern sees (reader.MATCH_CHARS,
# ~0.4 ms). A backtracking one (`(?:a|aa)+$`: 0.13 s a line, under the per-line limit) is stopped after
# ~80 lines, 10 s, where it took hours on a real log. The worst a pattern costs is 10 s + 1 ms a line.
REGEX_BUDGET_S = 10.0
REGEX_ALLOWANCE_S = 0.001
# Before compiling, a regex's counted repeats are multiplied out (expanded_size): the regex module expands
# `z{60}` into 60 z's, and nested counts multiply (`(?:(?:(?:z{60}){60}){60}){60}`: 12,960,000 characters,
# 3.8 GB and 7 s to compile; `z{1000000}` alone: 280 MB). 100,000 is at most ~30 MB and 0.1 s; the largest
# shipped regex is far under it (tests/test_regex_budget.py).
EXPANDED_LIMIT = 100_000
# The shipped sets' regexes (reviewed, their samples tested) run without the time limit on lines up to this
# long: the limit's clock costs more than the match itself (a third of a Megatron line's time). User sets and
# longer lines keep it.
TRUSTED_CHARS = 4096
# A hard-wrapped line is rejoined from at most this many following records.
MAX_WRAP_PARTS = 8
# Key map lines are read by layout (LineSpec._match_by_layout): texts with their digits masked ...
DIGITS = str.maketrans("123456789", "000000000")
MAX_LAYOUTS = 4096  # ... and at most this many layouts remembered per pattern
_SUFFIX = {"": 1.0, "K": 1e3, "M": 1e6, "G": 1e9, "B": 1e9, "T": 1e12, "P": 1e15, "E": 1e18}
_NUMBER = regex.compile(
    r"^\s*['\"]?\s*(?P<num>[-+]?(?:\d[\d,_]*(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*(?P<suffix>[KMGBTPE]?)"
)
# what may follow a number in a captured value: nothing, blanks, a closing quote, a unit or word, a percent
# sign, a separator or bracket; a sentence's full stop at the very end. Anything else is glued junk.
# (an "e" is a unit's first letter, or a broken exponent: "1.00001e#+06"; letters followed by a digit are no
# unit but junk glued inside the number: "1.18x2459E+01", "3.000000E-0x5", "5m30s")
_JUNK_AFTER = regex.compile(
    r"[eE](?![A-Za-z])|[A-Za-zµ]+[-+]?[.,]?\d|(?!\s|$|['\"A-Za-z%µ,;:|)\]}/(]|\.\s*$)"
)
_NAN = regex.compile(r"^\s*['\"]?\s*[-+]?(?:nan|-?nan\(ind\)|\(nan\))", regex.IGNORECASE)
_INF = regex.compile(r"^\s*['\"]?\s*(?P<sign>[-+]?)inf(?:inity)?", regex.IGNORECASE)


class LineValues(dict):  # type: ignore[type-arg]
    """A matched line's canonical values (column -> value), and what the match noted beside them:
    `problems` (values that did not convert: NaN, the line is malformed), `windowed` (columns filled from a
    field averaged over a window), `mapped`, `kept` and `skipped` ((printed key, keymap.KeyUse) pairs a key
    map line mapped through the synonym table, kept as extra columns, or did not read). The notes are
    attributes, not keys: a column can never be mistaken for one. Two LineValues are equal when their values
    and notes are."""

    problems: tuple[Any, ...] | list[Any] = ()
    windowed: tuple[str, ...] | list[str] = ()
    mapped: tuple[tuple[str, str], ...] | list[tuple[str, str]] = ()
    kept: tuple[tuple[str, str], ...] | list[tuple[str, str]] = ()
    skipped: tuple[tuple[str, str], ...] | list[tuple[str, str]] = ()

    def note(self, what: str, item: Any) -> None:
        listed = self.__dict__.get(what)
        if listed is None:
            listed = self.__dict__[what] = []
        listed.append(item)

    def notes(self) -> dict[str, list[Any]]:
        return dict(self.__dict__)

    def copy(self) -> LineValues:
        out = LineValues(self)
        out.__dict__.update({k: list(v) for k, v in self.__dict__.items()})
        return out

    def __eq__(self, other: object) -> bool:
        if isinstance(other, LineValues):
            return dict.__eq__(self, other) and self.notes() == other.notes()
        return dict.__eq__(self, other)

    def __ne__(self, other: object) -> bool:
        return not self == other

    __hash__ = None  # type: ignore[assignment]


class MalformedValue(ValueError):
    """A captured value that does not convert (counted as a malformed line)."""


class Problem(str):
    """A value that did not convert, as the sentence a line's values note among their problems, knowing the column it was
    for: that column's NaN is no NaN the log printed (rows.step_row), so it never makes a run 'diverged'."""

    def __new__(cls, text: str, column: str | None = None) -> Problem:
        self = super().__new__(cls, text)
        self.column = column
        return self


# --------------------------------------------------------------------------------------------
# literal prefilters: a line that lacks every literal a regex requires cannot match it, and a
# substring test is ~20x cheaper than a regex call under a time limit


# required_literals and required_prefix of each regex seen (they parse it with Python's re parser: as long as
# compiling it); kept with a set's disk cache entry (load_file), so a set read before is not parsed again
_DERIVED: dict[str, tuple[str, ...] | str | None] = {}


def _remembered(tag: str) -> Callable[[Callable[[str], Any]], Callable[[str], Any]]:
    """A function of a regex's text whose results are kept in _DERIVED under `tag` + the text."""

    def wrap(fn: Callable[[str], Any]) -> Callable[[str], Any]:
        @functools.wraps(fn)
        def cached(pattern: str) -> Any:
            key = tag + pattern
            if key not in _DERIVED:
                _DERIVED[key] = fn(pattern)
            return _DERIVED[key]

        return cached

    return wrap


def _parsed(pattern: str) -> tuple[Any, Any, Any] | None:
    """(re's constants module, its parse tree of `pattern`) or None for regex-only syntax."""
    if sys.version_info >= (3, 11):
        import re._constants as c
        import re._parser as p
    else:  # pragma: no cover
        import sre_constants as c
        import sre_parse as p
    try:
        return c, p.parse(pattern)
    except Exception:  # regex-only syntax: no prefilter, the regex still decides
        return None


@_remembered("L")
def required_literals(pattern: str) -> tuple[str, ...] | None:
    """Literals of which at least one occurs in every string `pattern` matches; None if unknown."""
    found = _parsed(pattern)
    if found is None:
        return None
    c, parsed = found
    if parsed.state.flags & c.SRE_FLAG_IGNORECASE:
        return None
    literals = _literals(list(parsed), c)
    return tuple(sorted(literals)) if literals and min(map(len, literals)) >= 3 else None


@_remembered("P")
def required_prefix(pattern: str) -> str | None:
    """The literal text every string `pattern` matches starts with, when the regex anchors it (`^  ...`)."""
    found = _parsed(pattern)
    if found is None:
        return None
    c, tree = found
    parsed = list(tree)
    if not parsed or parsed[0] != (c.AT, c.AT_BEGINNING) and parsed[0] != (c.AT, c.AT_BEGINNING_STRING):
        return None
    if tree.state.flags & (c.SRE_FLAG_IGNORECASE | c.SRE_FLAG_MULTILINE):
        return None
    return _leading(parsed[1:], c) or None


def _literals(items: list, c: Any) -> set[str] | None:
    """Best any-of literal set required by a sequence of parsed regex items."""
    candidates: list[set[str]] = []
    run: list[str] = []

    def flush() -> None:
        if run:
            candidates.append({"".join(run)})
            run.clear()

    for op, av in items:
        if op is c.LITERAL:
            run.append(chr(av))
            continue
        before = "".join(run)
        flush()
        sub: set[str] | None = None
        if op is c.SUBPATTERN:
            if av[1] & c.SRE_FLAG_IGNORECASE:
                return None
            sub = _literals(list(av[-1]), c)
        elif op in (c.MAX_REPEAT, c.MIN_REPEAT) and av[0] >= 1:
            sub = _literals(list(av[2]), c)
        elif op is c.BRANCH:
            branches = [_literals(list(b), c) for b in av[1]]
            if all(branches):
                sub = set().union(*branches)
            # (the parser joins the alternatives' common first letters into the text before them, `s/it|s/epoch`
            # into `s/` then `it|epoch`: that text and each alternative's own first letters are one literal)
            heads = [_leading(list(b), c) for b in av[1]]
            if before and all(heads):
                candidates.append({before + h for h in heads})
        if sub:
            candidates.append(sub)
    flush()
    if not candidates:
        return None
    return max(candidates, key=lambda s: (min(map(len, s)), -len(s)))


def _leading(items: list, c: Any) -> str:
    """The literal text a sequence of parsed regex items starts with ('' when none)."""
    text = []
    for op, av in items:
        if op is not c.LITERAL:
            break
        text.append(chr(av))
    return "".join(text)


# --------------------------------------------------------------------------------------------
# value conversion


def to_number(text: str, allow_suffix: bool = False) -> float:
    """Parse a logged number: 1,234.5  1.06E+01  '6.222'  11.5K (with allow_suffix)  nan  -inf."""
    try:
        return float(text)  # the common case, fast: "12137.8", " 1.064275E+01 ", "nan"
    except ValueError:
        pass
    m = _NUMBER.match(text)
    if m and _JUNK_AFTER.match(text, m.end()):
        # "1.18245#E+01", "108#38.6": a number glued to junk is not its prefix (it would read 1.18245, 108)
        raise MalformedValue(f"not a number: {text!r}")
    if m:
        suffix = m.group("suffix")
        if suffix and not allow_suffix:
            rest = text[m.end("num") :].strip()
            # "12.5B" with suffixes off is not a number we understand
            if rest[:1].isalpha():
                raise MalformedValue(f"unexpected unit suffix in {text!r}")
        value = float(m.group("num").replace(",", "").replace("_", ""))
        return value * _SUFFIX.get(suffix, 1.0) if allow_suffix else value
    if _NAN.match(text):
        return math.nan
    m = _INF.match(text)
    if m:
        return -math.inf if m.group("sign") == "-" else math.inf
    raise MalformedValue(f"not a number: {text!r}")


# (time.asctime()'s and time.ctime()'s `Wed Jun  6 16:01:16 2018`, its day padded with a blank)
_TS_FORMATS = (
    "%m/%d/%Y %H:%M:%S",
    "%m-%d-%Y %H:%M:%S",
    "%m/%d/%Y %I:%M:%S %p",
    "%m/%d/%y %H:%M:%S",
    "%Y%m%d %H:%M:%S",
    "%d/%m/%Y %H:%M:%S.%f",
    # the day first where no month reads (teach's logger: datefmt "%d/%m/%y %H:%M:%S", `[13/12/22 11:13:56]`)
    "%d/%m/%y %H:%M:%S",
    "%d/%m/%Y %H:%M:%S",
    "%a %b %d %H:%M:%S %Y",
    "%a %d %b %Y %H:%M:%S",
    "%d %b %Y %H:%M:%S",
)
# CenterNet's logger stamp, the date and the time of day joined by dashes to the minute
_DASHED_MINUTE = regex.compile(r"^\d{4}-\d\d-\d\d-\d\d-\d\d$")
# absl/glog prefixes (JAX, MaxText) print no year: "I0811 21:54:55.531340" -> "0811 21:54:55.531340"; nor does
# MMEngine's MMLogger ('%m/%d %H:%M:%S': mmengine/logging/logger.py): "12/05 10:02:52"
_NO_YEAR = regex.compile(r"^\d{4} \d\d:\d\d:\d\d(?:\.\d+)?$")
_NO_YEAR_SLASH = regex.compile(r"^(?P<m>\d\d)[/-](?P<d>\d\d) (?P<t>\d\d:\d\d:\d\d(?:\.\d+)?)$")
# the year in two digits (MMSR's and EDVR's datefmt '%y-%m-%d %H:%M:%S', then '.%(msecs)03d')
_SHORT_YEAR = regex.compile(r"^\d\d-\d\d-\d\d \d\d:\d\d:\d\d(?:\.\d+)?$")
# The year given to year-less timestamps: a leap year, so that 0229 reads. Their absolute value is
# meaningless; differences between lines are right unless the log crosses a New Year.
NO_YEAR = 2000


_RUN_TOGETHER = regex.compile(r"\d{8}-\d\d:\d\d:\d\d$")
# the seconds after a dot, '%Y-%m-%d %H:%M.%S' (d3rlpy's structlog stamp)
_DOTTED_SECONDS = regex.compile(r"\d{4}-\d\d-\d\d \d\d:\d\d\.\d\d$")
_UNDERSCORED = regex.compile(r"\d{4}_\d\d_\d\d_\d\d_\d\d_\d\d$")


def to_timestamp(text: str) -> float:
    """Seconds since the epoch (naive times read as UTC) from the usual log timestamp shapes.

    A year-less absl/glog time ("0811 21:54:55.531340", month and day then the time) is read in the
    year NO_YEAR: good for the time between lines, not for the date."""
    t = text.strip().strip("[]")
    if _DASHED_MINUTE.match(t):  # (before fromisoformat, which reads its last dashes as an offset)
        return datetime.strptime(t, "%Y-%m-%d-%H-%M").replace(tzinfo=timezone.utc).timestamp()
    if _RUN_TOGETHER.match(t):  # ('%Y%m%d-%H:%M:%S': the date's digits run together, a dash before the time)
        t = f"{t[:4]}-{t[4:6]}-{t[6:8]} {t[9:]}"
    if _DOTTED_SECONDS.match(t):
        t = f"{t[:16]}:{t[17:]}"
    if _UNDERSCORED.match(t):  # ('%Y_%m_%d_%H_%M_%S')
        t = f"{t[:4]}-{t[5:7]}-{t[8:10]} {t[11:13]}:{t[14:16]}:{t[17:19]}"
    if t[10:12] == ", ":
        t = f"{t[:10]} {t[12:]}"  # (a date and its time as two items: `2024-03-23, 02:14:26`)
    if t[6:8] == ", " and t[:3] in _MONTHS:
        t = f"{t[:6]} {t[8:]}"  # (`Mar 29, 16:21:59`, strftime('%b %d, %H:%M:%S'): the syslog form below)
    t = t.replace(",", ".")
    if _SYSLOG.match(t):
        # syslog's month, day and time, no year (rsyslog's RSYSLOG_TraditionalFileFormat "%TIMESTAMP% %HOSTNAME%
        # %syslogtag%%msg%", journalctl -o short): read in NO_YEAR, good for the time between lines
        return _utc(f"{NO_YEAR} {t}", "%Y %b %d %H:%M:%S", text)
    units = _DAY_UNITS.match(t)
    if units is not None:
        # the day of the month and the time, no month (HugeCTR's MESSAGE_, include/common.hpp: "[" setw(2)
        # tm_mday "d" tm_hour "h" tm_min "m" tm_sec "s]"), read from the first of January of NO_YEAR: good for the
        # time between lines unless the log crosses a month's end
        d, h, m, sec = (int(units[k]) for k in "dhms")
        start = datetime(NO_YEAR, 1, 1, tzinfo=timezone.utc).timestamp()
        return start + ((d * 24 + h) * 60 + m) * 60.0 + sec
    if _SHORT_YEAR.match(t):
        # (or the month first, where the middle field is no month: a datefmt of '%m-%d-%y %H:%M:%S', `06-21-22
        # 19:04:16`; the day first where neither reads)
        for fmt in ("%y-%m-%d %H:%M:%S", "%m-%d-%y %H:%M:%S"):
            try:
                return _utc(t, fmt, text)
            except MalformedValue:
                continue
        return _utc(t, "%d-%m-%y %H:%M:%S", text)
    slashed = _NO_YEAR_SLASH.match(t) if t[2:3] in "/-" else None  # (or '%m-%d %H:%M:%S')
    if slashed is not None:
        t = f"{slashed['m']}{slashed['d']} {slashed['t']}"
    if _TIME_OF_DAY_UNDERSCORED.match(t):
        t = t.replace("_", ":")  # ('%H_%M_%S')
    if _TIME_OF_DAY.match(t):
        # a time of day alone (torch_xla test_utils.py now(): datetime.now().strftime('%H:%M:%S')), read on the
        # first day of NO_YEAR: good for the time between lines unless the log crosses midnight
        t = f"{NO_YEAR}-01-01 {t}"
    if t[10:11] in ":," and t[4:5] in "-/" and t[13:14] == ":":
        # a date joined to its time by a colon (sockeye/log.py: "%Y-%m-%d:%H:%M:%S") or a comma (open_clip's
        # setup_logging: datefmt='%Y-%m-%d,%H:%M:%S')
        t = f"{t[:10]} {t[11:]}"
    if t[4:5] == " " and _NO_YEAR.match(t):
        return _utc(f"{NO_YEAR}{t}", "%Y%m%d %H:%M:%S", text)
    dt = None
    for candidate in (t, t.replace("/", "-")):
        try:
            dt = datetime.fromisoformat(candidate)
            break
        except ValueError:
            continue
    if dt is None:
        for fmt in _TS_FORMATS:
            try:
                dt = datetime.strptime(t, fmt)
                break
            except ValueError:
                continue
    if dt is None:
        raise MalformedValue(f"not a timestamp: {text!r}")
    if dt.tzinfo is None:
        dt = dt.replace(tzinfo=timezone.utc)
    return dt.timestamp()


def _utc(t: str, fmt: str, text: str) -> float:
    """Seconds since the epoch of `t` read by `fmt` (and a fraction of a second after it where `t` prints one), as
    UTC; MalformedValue naming the printed `text` where it does not read."""
    try:
        return datetime.strptime(t, f"{fmt}.%f" if "." in t else fmt).replace(tzinfo=timezone.utc).timestamp()
    except ValueError:
        raise MalformedValue(f"not a timestamp: {text!r}") from None


_UNITS_DURATION = regex.compile(
    r"^(?:(?P<d>\d+)d)?\s*(?:(?P<h>\d+)h)?\s*(?:(?P<m>\d+)m)?\s*(?:(?P<s>\d+)s)?$"
)
_TIME_OF_DAY = regex.compile(r"^\d\d:\d\d:\d\d(?:\.\d+)?$")
_TIME_OF_DAY_UNDERSCORED = regex.compile(r"^\d\d_\d\d_\d\d$")
_MONTHS = frozenset(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"))
_SYSLOG = regex.compile(
    r"^(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec) [ \d]\d \d\d:\d\d:\d\d(?:\.\d+)?$"
)
_DAY_UNITS = regex.compile(r"^(?P<d>\d\d)d(?P<h>\d\d)h(?P<m>\d\d)m(?P<s>\d\d)s$")


def to_duration(text: str) -> float:
    """tqdm intervals: 'MM:SS', 'H:MM:SS', 'D days, H:MM:SS'; a duration in units (dnnlib.util.format_time of
    NVlabs' StyleGAN2/3: '4m 26s', '2h 03m 10s', '1d 06h 06m')."""
    t = text.strip()
    units = _UNITS_DURATION.match(t) if t[-1:] in "dhms" else None
    if units is not None and any(units.groups()):
        d, h, m, s = (int(units[k] or 0) for k in "dhms")
        return ((d * 24 + h) * 60 + m) * 60.0 + s
    days = 0
    if "," in t:
        head, t = t.split(",", 1)
        days = int(head.split()[0])
    parts = t.strip().split(":")
    try:
        nums = [float(p) for p in parts]
    except ValueError:
        raise MalformedValue(f"not a duration: {text!r}") from None
    seconds = 0.0
    for n in nums:
        seconds = seconds * 60 + n
    return days * 86400 + seconds


def to_bool(text: str) -> bool:
    t = text.strip().strip("'\"").lower()
    if t in ("true", "1", "yes", "on"):
        return True
    if t in ("false", "0", "no", "off"):
        return False
    raise MalformedValue(f"not a boolean: {text!r}")


@dataclass(frozen=True)
class FieldSpec:
    """How one captured group (or one key of a key/value line) becomes a canonical value."""

    source: str  # group name or key
    column: str  # canonical name after scope resolution
    type: str = "float"
    scale: float = 1.0
    offset: float = 0.0  # added after scaling (Composer prints epoch + 1)
    suffix: bool = False
    invert: bool = False
    scope: str | None = None
    missing: tuple[str, ...] = ()  # printed values that mean "not known" (nanoGPT's -100.00 mfu)
    aggregate: str = "first"  # how rows of one step combine: first | sum | mean | last | max
    # a value averaged over several steps: window = N steps, "log_interval", or "epoch" (running
    # average since the epoch began); smoothing = "mean" (a plain window) or "ema" (tqdm-style)
    window: int | str | None = None
    smoothing: str | None = None
    alpha: float | None = None  # the EMA's weight of the newest value (tqdm's smoothing, 0.3 by default)
    list: bool = False  # the value is a printed list "[a, b, c]": one value per step, in order
    # a bool read from a name: true when the printed value matches this regex in full, else false
    # (NeMo's activation: swiglu/geglu/... are gated MLPs, gelu is not)
    true_when: str | None = None
    # the group of the same line whose number is how many steps the value covers (`Ran 100 train steps in 12.3
    # secs`): the value is read per step, divided by that line's own count
    per: str | None = None

    @cached_property
    def _true_when(self) -> regex.Pattern:
        return regex.compile(self.true_when or "")

    def convert_list(self, text: str) -> list[Any]:
        """The items of a printed list, each converted; an item that does not convert is NaN."""
        items = [t for t in text.strip().strip("[]()").split(",") if t.strip()]
        out: list[Any] = []
        for item in items:
            try:
                out.append(self.convert(item))
            except MalformedValue:
                out.append(math.nan)
        return out

    # a value that carries its unit ("12.3ms", "41%", "1.2GB"): time | percent | memory | count (keymap.py)
    units: str | None = None

    @cached_property
    def _fast(self) -> Callable[[str], Any] | None:
        """A conversion for the common case (a plain number) that gives what `convert` gives, or raises
        ValueError and leaves the case to `convert`; None when the field has no such case."""
        if self.missing or self.units is not None or self.invert or self.list:
            return None
        scale, offset = self.scale, self.offset
        if self.type == "float":
            return lambda text: float(text) * scale + offset
        if self.type == "int" and scale == 1.0:
            whole = int(offset)
            return lambda text: int(text) + whole
        return None

    def convert(self, text: str) -> Any:
        """The canonical value of `text`; None when the log says the value is unset (None, N/A, ...)."""
        fast = self._fast
        if fast is not None:
            try:
                return fast(text)
            except ValueError:
                pass
        if self.missing and text.strip().strip("'\"") in self.missing:
            return None
        if self.units is not None:
            if text.strip().strip("'\"") in ("None", "null", "", "N/A", "n/a"):
                return None
            try:
                value = keymap_mod.to_quantity(text, self.units) * self.scale + self.offset
            except ValueError as exc:
                raise MalformedValue(str(exc)) from None
            return int(round(value)) if self.type == "int" and math.isfinite(value) else value
        if self.type == "float" and not self.invert:
            try:
                return float(text) * self.scale + self.offset  # hot path: plain numbers
            except ValueError:
                pass
        if text.strip().strip("'\"") in ("None", "null", "", "N/A", "n/a"):
            return None
        if self.type == "str":
            return text.strip().strip("'\"")
        if self.type == "bool":
            if self.true_when is not None:
                return self._true_when.fullmatch(text.strip()) is not None
            return to_bool(text)
        if self.type == "timestamp":
            return to_timestamp(text)
        if self.type == "duration":
            return to_duration(text) * self.scale
        if self.type == "int" and self.scale == 1.0 and not self.invert:
            digits = text.strip().strip("'\"").replace(",", "").replace("_", "")
            if digits.lstrip("-+").isdigit():
                return int(digits) + int(self.offset)  # exact, even past 2**53 (HF prints sys.maxsize epochs)
        value = to_number(text, self.suffix) * self.scale + self.offset
        if self.invert:
            value = 1.0 / value if value else math.nan
        if self.type == "int":
            if not math.isfinite(value):
                raise MalformedValue(f"not an integer: {text!r}")
            return int(round(value))
        return value


@dataclass
class LineSpec:
    """One [[line]] of a pattern set, compiled."""

    set_name: str
    name: str
    kind: str
    regex_src: str  # the regex as written; `regex` is it compiled (at load for a user set, on first use for a shipped one)
    fields: dict[str, FieldSpec]
    pairs_src: str | None = None
    step: str = (
        "optimizer"  # what the line's step counter counts: optimizer | micro | epoch (rows once an epoch)
    )
    event: str | None = None
    hint: str | None = None
    literals: tuple[str, ...] | None = None  # derived from the regex: one must occur in a matching line
    prefix: str | None = None  # derived from the regex: the text a matching line starts with (`^  key ...`)
    interval: bool = False  # values are averages over the log interval (Megatron)
    note: str | None = None  # what a reader of the numbers must know (shown in the summary)
    continues: str | None = None  # a block line: its values join the last row of this [[line]]
    # a line without its own step: its values join the previous or the next step record (same rank)
    attach: str | None = None
    # attach = "next" | "step": the attached line's values replace the step record's own (a more exact
    # figure than the record's, e.g. Colossal-AI's measured "Step time" over its bar's moving average)
    overrides: bool = False
    # a display redrawn in place (Rich's live progress bar): a file of the console keeps only some of its
    # frames, so the log holds few of the run's steps; resolve says how many, with the line's note
    redrawn: bool = False
    # a tqdm bar whose values are its postfix, which set_postfix draws apart from the bar's position: resolve
    # reads each step's values from the redraw drawn with that step (steps/bars.postfix_steps)
    postfix: bool = False
    source_file: str = ""
    complete_src: str | None = None  # what a whole (not hard-wrapped) line contains
    list_columns: tuple[str, ...] = ()  # columns filled from list fields (one row per item)
    # keys that `fields` does not name are mapped through this synonym table (keymap.py) ...
    keymap: keymap_mod.KeyMap | None = None
    # ... and a step line keeps a numeric key the table does not know as the column <extra><key>
    extra: str | None = None
    # a step line whose step is a position within an epoch (beside an epoch_index): what it counts from, 0 (the
    # batch index, timm's `[  0/12]`) or 1 (the batches done, MMEngine's `[50/50]`); the steps stage numbers the
    # optimizer step epoch x len + the batches done
    counts_from: int | None = None
    # a step line whose counter says it counts the whole run (`global iteration 20/3402`): its total is the steps
    # planned even beside an epoch's counter, never a loader's length
    whole_run: bool = False
    # a step line whose counter says it counts an epoch's batches (`Batch 100/1563`): its total is the loader's
    # length, never the steps planned, though no epoch is printed beside it
    within_epoch: bool = False
    trusted_chars: int = 0  # lines up to this long are matched without the time limit (shipped sets)
    # where a key map line's values were in a text, by the text's layout (its digits masked): see match
    _layouts: dict[str, list[tuple[str | None, int, int, int, int]] | None] = field(
        default_factory=dict, repr=False
    )
    # a copy read after the chosen sets, for the training script's own prints beside a framework (compose.py)
    guest: bool = False
    # what the key model made of the keys this line's fields read, for a set written from the log itself (its
    # fields name the columns): ("mapped" | "kept" | "skipped", printed key, keymap.KeyUse), noted once per log as
    # a key map line notes its own (the summary's generic block)
    key_uses: tuple[tuple[str, str, str], ...] = ()

    # the time this pattern's regex calls took on the current log, and the calls (REGEX_BUDGET_S): counted
    # only for untrusted calls (a user set's, or a line over trusted_chars); Matcher resets them per log
    spent: float = field(default=0.0, repr=False)
    calls: int = field(default=0, repr=False)

    def _limit(self, text: str) -> float | None:
        return None if len(text) <= self.trusted_chars else REGEX_TIMEOUT_S

    def reset_budget(self) -> None:
        self.spent, self.calls = 0.0, 0

    # The compiled regexes. A shipped set's are compiled when first used (a log reads a few sets of the dozens
    # shipped: compiling all of them was a third of a small log's analysis); a user set's at load (_line), so
    # that a bad regex is a one-line error then. Once compiled, the attribute is a plain instance attribute.
    @cached_property
    def regex(self) -> regex.Pattern:
        return _compile(self.regex_src, self.qualname, sized=False)

    @cached_property
    def pairs(self) -> regex.Pattern | None:
        return None if self.pairs_src is None else _compile(self.pairs_src, self.qualname, sized=False)

    @cached_property
    def complete(self) -> regex.Pattern | None:
        return None if self.complete_src is None else _compile(self.complete_src, self.qualname, sized=False)

    def _charge(self, started: float) -> None:
        """Add one timed regex call (begun at `started`) to the pattern's spending on this log; past the
        budget, stop the analysis."""
        self.spent += perf_counter() - started
        self.calls += 1
        if self.spent > REGEX_BUDGET_S + REGEX_ALLOWANCE_S * self.calls:
            raise PatternError(
                f"{self.source_file}: pattern {self.qualname} {over_budget(self.spent, self.calls)}"
            )

    @property
    def qualname(self) -> str:
        """The pattern's name in rows and messages: <set>.<line>."""
        return f"{self.set_name}.{self.name}"

    def needles(self) -> tuple[str, ...]:
        """Text of which a matching line must hold one (the hint, else the literals); () when unknown."""
        if self.hint is not None:
            return (self.hint,)
        return self.literals or ()

    def match(self, text: str, layout: str | None = None) -> LineValues | None:
        """Return the canonical values of `text` (empty when it matches without values), None when not.
        `layout`: the text with its digits masked, when the caller has it (Matcher: once for all patterns).

        A value that does not convert becomes NaN and is described in the values' `problems`.
        """
        if self.hint is not None and self.hint not in text:
            return None
        if self.literals is not None and not any(lit in text for lit in self.literals):
            return None
        if self._by_layout:
            return self._claimed(self._match_by_layout(text, layout))
        limit = self._limit(text)
        if limit is None:  # a shipped pattern on an ordinary line: no clock (it costs more than the match)
            return self._claimed(self._match(text, None))
        started = perf_counter()
        values = self._match(text, limit)
        self._charge(started)
        return self._claimed(values)

    def _claimed(self, values: LineValues | None) -> LineValues | None:
        """A config line read through a key map is matched only when it states a fact the map knows: its shape
        (`key: value`, `k=v k=v`, a dict) is every log's, and a line of it that names no known key is left to
        the patterns after it (the training script's own step prints among them) and counted unmatched."""
        if values is None or values or self.keymap is None or self.kind not in ("config", "summary"):
            return values
        return None if not values.problems else values

    def _match(self, text: str, limit: float | None) -> LineValues | None:
        try:
            m = self.regex.search(text, timeout=limit)
        except TimeoutError:
            raise PatternError(
                f"{self.source_file}: pattern {self.set_name}.{self.name} took longer than "
                f"{REGEX_TIMEOUT_S}s on one line (catastrophic backtracking?); fix its regex"
            ) from None
        if m is None:
            return None
        groups = m.groupdict()
        raw = [(k, v) for k, v in groups.items() if v is not None and k not in ("key", "value")]
        if groups.get("key") is not None and groups.get("value") is not None:
            raw.append((groups["key"].strip(), groups["value"]))
        if self.pairs is not None:
            try:
                ki, vi = self._pair_groups
                for found in self.pairs.findall(text, timeout=limit):
                    raw.append((found[ki].strip(), found[vi]))
            except TimeoutError:
                raise PatternError(
                    f"{self.source_file}: the pairs regex of {self.set_name}.{self.name} took too long "
                    "on one line; fix it"
                ) from None
        return self._values(raw)

    @cached_property
    def _by_layout(self) -> bool:
        """A line is read by layout when its regexes treat every digit alike: no literal digit outside `\\d`
        and `{m,n}` (a backreference, a `[0-5]`, a digit in a group's name: not by layout). Then two texts that
        differ only digit for digit (step 10 and step 11, a timestamp's seconds) match alike, their values at
        the same places: the second is read from the first's spans, without a search. A key map line (the
        generic reading: a search and a findall of a long alternation, ~20 us a line) gains most; an event
        line tried by three patterns, each a search, a third."""
        if self.list_columns:
            return False
        sources = [self.regex_src] + ([self.pairs_src] if self.pairs_src is not None else [])
        return not any(regex.search(r"\d", _digits_alike(src)) for src in sources)

    def _match_by_layout(self, text: str, layout: str | None = None) -> LineValues | None:
        if layout is None:
            layout = text.translate(DIGITS)
        try:
            spans = self._layouts[layout]
        except KeyError:
            spans = self._spans(text)
            if len(self._layouts) >= MAX_LAYOUTS:
                self._layouts.clear()
            self._layouts[layout] = spans
        if spans is None:
            return None
        return self._values(
            [
                (name if name is not None else text[ks:ke].strip(), text[vs:ve])
                for name, ks, ke, vs, ve in spans
            ]
        )

    def _spans(self, text: str) -> list[tuple[str | None, int, int, int, int]] | None:
        """Where match's raw (key, value) texts are in `text`, in its order: (group name, or None when the key
        is read from the text at ks:ke, ks, ke, vs, ve); None when the line does not match."""
        limit = self._limit(text)
        started = perf_counter() if limit is not None else 0.0
        try:
            m = self.regex.search(text, timeout=limit)
            if m is None:
                if limit is not None:
                    self._charge(started)
                return None
            spans: list[tuple[str | None, int, int, int, int]] = [
                (k, -1, -1, *m.span(k))
                for k, v in m.groupdict().items()
                if v is not None and k not in ("key", "value")
            ]
            if m.groupdict().get("key") is not None and m.groupdict().get("value") is not None:
                spans.append((None, *m.span("key"), *m.span("value")))
            if self.pairs is not None:
                for pm in self.pairs.finditer(text, timeout=limit):
                    spans.append((None, *pm.span("key"), *pm.span("value")))
        except TimeoutError:
            raise PatternError(
                f"{self.source_file}: pattern {self.set_name}.{self.name} took longer than "
                f"{REGEX_TIMEOUT_S}s on one line (catastrophic backtracking?); fix its regex"
            ) from None
        if limit is not None:
            self._charge(started)
        return spans

    def _values(self, raw: list[tuple[str, str]]) -> LineValues:
        """The canonical values of a match's (key or group, printed value) texts."""
        values = LineValues()
        line = None
        if self.keymap is not None:  # the key model reads a line's keys together (which one is the loss)
            line = self.keymap.line(tuple(k for k, _ in raw if k not in self.fields), self.kind)
        counts = dict(raw) if self._per_groups else None
        for key, text_value in raw:
            spec = self.fields.get(key)
            if spec is None:
                if key in self._per_groups:
                    continue
                if self.keymap is not None or self.extra is not None:
                    self._map_key(key, text_value, values, line)
                continue
            try:
                value = spec.convert_list(text_value) if spec.list else spec.convert(text_value)
            except MalformedValue as exc:
                # Keep the line and the other values; the field becomes NaN and the line is flagged.
                values.note("problems", Problem(f"{self.set_name}.{self.name}: {key!r}: {exc}", spec.column))
                value = math.nan if spec.type in ("float", "int", "duration") else None
            if spec.per is not None and value is not None:
                value = _per_count(value, (counts or {}).get(spec.per))
            if value is not None:
                values[spec.column] = value
                if spec.window is not None and spec.window != "log_interval":
                    values.note("windowed", spec.column)
        fill_aliases(values)  # memory_gib from memory_max_allocated_gib
        return values

    @cached_property
    def _per_groups(self) -> frozenset[str]:
        """The groups that hold a count of steps another field's value covers (FieldSpec.per)."""
        return frozenset(spec.per for spec in self.fields.values() if spec.per is not None)

    @cached_property
    def _pair_groups(self) -> tuple[int, int]:
        """Where `pairs.findall` puts the key and the value in each tuple it returns."""
        assert self.pairs is not None
        return self.pairs.groupindex["key"] - 1, self.pairs.groupindex["value"] - 1

    def is_partial(self, text: str) -> bool:
        """True when the line lacks what a whole line of this pattern contains (it may be hard-wrapped)."""
        if self.complete is None:
            return False
        limit = self._limit(text)
        started = perf_counter() if limit is not None else 0.0
        try:
            partial = self.complete.search(text, timeout=limit) is None
        except TimeoutError:
            raise PatternError(
                f"{self.source_file}: the complete regex of {self.set_name}.{self.name} took too long; fix it"
            ) from None
        if limit is not None:
            self._charge(started)
        return partial

    def _map_key(self, key: str, text: str, values: LineValues, line: keymap_mod.LineKeys | None) -> None:
        """A key `fields` does not name: through the key model, else kept as an extra column, else dropped
        (said in the notes: the summary's generic block lists every key and what it became)."""
        skipped, mapping, why = keymap_mod.resolve(key, text, line, self.extra, values)
        if skipped is not None:
            values.note("skipped", (key.strip(), skipped))
            return
        if mapping is not None:
            try:
                value, unit = mapping.convert_unit(text)
            except keymap_mod.UnitError:
                # a unit the column cannot hold (lingua's `mem: 61%` is a share of the device, not GiB):
                # not this column's value; kept below as x_<key>_<unit> like an unknown key
                value = mapping = None
            except ValueError as exc:
                if self.kind in ("config", "summary"):
                    # a config echo's value that is no number of its kind (`world_size: auto`, `seq_len:
                    # ${SEQ}`) states no figure: no fact, rather than a NaN one standing for a printed figure
                    return
                problem = Problem(f"{self.set_name}.{self.name}: {key!r}: {exc}", mapping.column)
                values.note("problems", problem)
                value, unit = (math.nan if mapping.type != "bool" else None), None
            if mapping is not None and self.kind in ("config", "summary") and _unset(value, mapping):
                return  # a config's "unset" (Lightning's max_epochs: -1, transformers' max_steps: -1): no fact
            if mapping is not None:
                if value is not None:
                    values[mapping.column] = value
                    # a known quantity with no column of its own is an x_ column: kept
                    what = "kept" if mapping.kind == "known" else "mapped"
                    values.note(what, (key.strip(), mapping.use(unit)))
                return
        if self.extra is None or self.kind not in ("step", "progress"):
            return
        try:
            number, unit = keymap_mod.split_quantity(text)
        except ValueError:
            return  # not a number: not kept
        base, factor = keymap_mod.scaled_key(key)  # `kl(1e-3):0.5` is kept as x_kl = 0.0005
        column = keymap_mod.column_name(self.extra, base, unit)
        if column not in values:
            values[column] = number * factor
            values.note("kept", (key.strip(), keymap_mod.kept_use(column, why, unit, factor)))


def _unset(value: Any, mapping: keymap_mod.Mapping) -> bool:
    """A count a config gives as negative: the convention for "not set" (-1), never a count of anything; a plan of
    no epochs or no steps (`epoch=0`, the epoch a resumable script starts from) plans nothing, and no devices
    (`--gpus 0`, the id of the one to use) runs on none."""
    if mapping.type != "int" or not isinstance(value, int):
        return False
    return value < 0 or (
        value == 0 and mapping.column in ("num_epochs", "train_iters", "gpu_count", "world_size")
    )


@dataclass
class Sample:
    line: str
    expect: Row  # the values the line must give
    pattern: str | None = None


@dataclass(frozen=True)
class Convention:
    """How a framework computes the TFLOP/s or MFU it prints (`[format.reported]`): the formulas that may
    reproduce it (the one that does is named), whether it counts activation recomputation, and a fixed peak
    it divides by whatever the GPU, if it does."""

    framework: str
    formulas: tuple[str, ...]
    counts_recompute: bool = False
    peak_tflops: float | None = None
    note: str = ""


def _convention(table: Table, default_framework: str) -> Convention:
    peak = table.get("peak_tflops")
    return Convention(
        framework=str(table.get("framework", default_framework)),
        formulas=tuple(table["formulas"]),
        counts_recompute=bool(table.get("counts_recompute", False)),
        peak_tflops=float(peak) if peak is not None else None,
        note=str(table.get("note", "")),
    )


def _conventions(fmt: Table, title: str) -> dict[str | None, Convention]:
    """`[format.reported]` (for every reported column) and `[format.reported.columns.<column>]` overrides."""
    table = fmt.get("reported")
    if not table:
        return {}
    out: dict[str | None, Convention] = {None: _convention(table, title)}
    for column, override in (table.get("columns") or {}).items():
        out[column] = _convention({**{k: v for k, v in table.items() if k != "columns"}, **override}, title)
    return out


@dataclass(frozen=True)
class Composition:
    """Two frameworks in one log, one running on the other (Megatron-DeepSpeed: Megatron's training
    loop on DeepSpeed's engine). The host's step line is the step record; the guest's lines join it."""

    name: str
    title: str
    host: str
    guest: str
    why: str = ""


@dataclass
class PatternSet:
    name: str
    title: str
    detect: list[regex.Pattern]
    lines: list[LineSpec]
    samples: list[Sample]
    source_file: str
    priority: int = 0
    description: str = ""
    # "family": a framework's format; "common": joins every log, never detected alone; "fallback": a generic
    # reading, detected only when no family set scores (patterns/generic.toml)
    role: str = "family"
    # sets this one hosts when both appear in a log: guest set name -> the composition's name and title
    composes: dict[str, Composition] = field(default_factory=dict)
    # how the framework computes the figures it reports, for the cross-check (None: every reported column)
    reported: dict[str | None, Convention] = field(default_factory=dict)
    # per detect regex, literals of which one must occur in a line it hits (None: no prefilter)
    detect_literals: list[tuple[str, ...] | None] | None = None
    # detect_hits by the text's layout (digits masked), when the detect regexes treat every digit alike
    _hits: dict[str, bool] = field(default_factory=dict, repr=False)
    # a shipped set (its detect regexes run untimed on lines up to TRUSTED_CHARS); a user set's detect
    # regexes share one time budget per detection pass (REGEX_BUDGET_S), reset by detect()
    trusted: bool = False
    # what decides the set's reading (its TOML, the key maps it names, the code): its disk cache key
    content_key: str = ""
    detect_spent: float = field(default=0.0, repr=False)
    detect_calls: int = field(default=0, repr=False)

    def match(self, text: str) -> tuple[LineSpec, LineValues] | None:
        """The first line pattern that matches `text`, with its values."""
        for spec in self.lines:
            values = spec.match(text)
            if values is not None:
                return spec, values
        return None

    def detect_hits(self, text: str, layout: str | None = None) -> bool:
        """Whether a detect regex hits `text` (whose digits-masked `layout` the caller may pass)."""
        if not self._detect_by_layout:
            return self._detect_hits(text)
        if layout is None:  # texts that differ digit for digit are hit alike (see LineSpec.match)
            layout = text.translate(DIGITS)
        hit = self._hits.get(layout)
        if hit is None:
            if len(self._hits) >= MAX_LAYOUTS:
                self._hits.clear()
            hit = self._hits[layout] = self._detect_hits(text)
        return hit

    @cached_property
    def _detect_by_layout(self) -> bool:
        return not any(
            regex.search(r"\d", regex.sub(r"\\d|\{\d*,?\d*\}", "", rx.pattern)) for rx in self.detect
        )

    def _detect_hits(self, text: str) -> bool:
        lits = self.detect_literals or [None] * len(self.detect)
        timed = not self.trusted or len(text) > TRUSTED_CHARS
        for rx, need in zip(self.detect, lits, strict=False):
            if need is not None and not any(lit in text for lit in need):
                continue
            started = perf_counter() if timed else 0.0
            try:
                hit = rx.search(text, timeout=REGEX_TIMEOUT_S)
            except TimeoutError:
                raise PatternError(
                    f"{self.source_file}: a detect regex of {self.name} took too long on one line; fix it"
                ) from None
            if timed:
                self._charge_detect(started)
            if hit:
                return True
        return False

    def _charge_detect(self, started: float) -> None:
        self.detect_spent += perf_counter() - started
        self.detect_calls += 1
        if self.detect_spent > REGEX_BUDGET_S + REGEX_ALLOWANCE_S * self.detect_calls:
            raise PatternError(
                f"{self.source_file}: the detect regexes of {self.name} "
                f"{over_budget(self.detect_spent, self.detect_calls)}"
            )


def over_budget(spent: float, calls: int) -> str:
    """The rest of the sentence that stops a pattern past its time budget (REGEX_BUDGET_S)."""
    return (
        f"spent {spent:.1f}s in its regex on {calls:,} lines of this log, over its budget of "
        f"{REGEX_BUDGET_S:g}s + {REGEX_ALLOWANCE_S * 1000:g} ms a line (catastrophic backtracking?); make it "
        "cheaper: anchor it, add a hint, avoid nested quantifiers"
    )


# --------------------------------------------------------------------------------------------
# loading and validation: the shape of a file is checked against pattern_set.schema.json
# (pattern_schema.py); what follows checks what a schema cannot say, and compiles


_COUNT = regex.compile(r"\{(\d*)(?:(,)(\d*))?\}")  # a counted repeat: {m}, {m,}, {,n}, {m,n}
# what follows a group's `(`: `?:`, `?P<name>`, a look-around, an atomic group, a branch reset, inline flags,
# a comment, a back reference by name (none of it weighs anything)
_GROUP_HEAD = regex.compile(r"\?(?:P?<(?![=!])\w+>|[-a-zA-Z]*:|<?[=!]|[>|]|#[^)]*|P=\w+|[-a-zA-Z]*)")


def expanded_size(pattern: str) -> int:
    """What a regex weighs once its counted repeats are multiplied out: each atom (a character, an escape, a
    class) weighs 1, a repeat `{m,n}` multiplies what it repeats by n (by m for `{m,}`), a group weighs its
    branches' sum. An upper bound on the characters the regex module expands counted repeats of literals
    into when it compiles (EXPANDED_LIMIT); `*`, `+`, `?` multiply by 1 (they expand nothing). A pattern
    that may turn verbose mode on (`(?x)`) is weighed with its `# ...` comments and without, the larger
    (a `(` in a comment is no group)."""
    size = _expanded_size(pattern, comments=False)
    if _VERBOSE.search(pattern) is not None:
        size = max(size, _expanded_size(pattern, comments=True))
    return size


_VERBOSE = regex.compile(r"\(\?[-a-zA-Z]*x")


def _expanded_size(pattern: str, comments: bool) -> int:
    stack = [[0, 0]]  # per open group: [weight of its finished items, weight of its last item]
    i, n = 0, len(pattern)
    while i < n:
        c = pattern[i]
        top = stack[-1]
        if c == "{" and (m := _COUNT.match(pattern, i)) is not None and (m[1] or m[3]):
            low, comma, high = m.groups()
            top[1] *= int(high) if high else max(int(low), 1) if comma else int(low)
            i = m.end()
            continue
        if c == "(":
            stack.append([0, 0])
            if (head := _GROUP_HEAD.match(pattern, i + 1)) is not None:
                i = head.end() - 1
        elif c == ")" and len(stack) > 1:
            done, last = stack.pop()
            parent = stack[-1]
            parent[0] += parent[1]
            parent[1] = done + last
        elif c == "|":
            top[0] += top[1]
            top[1] = 0
        elif c in "*+?":
            pass  # a repeat that expands nothing, or a lazy/possessive mark
        elif c == "#" and comments:  # verbose mode: a comment to the end of the line
            end = pattern.find("\n", i)
            i = n if end < 0 else end
        elif c.isspace() and comments:
            pass  # verbose mode: blanks are nothing (`( ... ) {60}` repeats the group)
        else:
            top[0] += top[1]
            top[1] = 1
            if c == "\\":  # an escape: `\x`, or `\p{..}` `\N{..}` `\x{..}` (their braces are no count)
                i += 1
                if i + 1 < n and pattern[i] in "pPNxu" and pattern[i + 1] == "{":
                    i = pattern.find("}", i) if "}" in pattern[i:] else n
            elif c == "[":  # a class is one atom: skip to its closing bracket
                i = _class_end(pattern, i)
        i += 1
    return sum(done + last for done, last in stack)


def _class_end(pattern: str, i: int) -> int:
    """Where the character class that opens at pattern[i] (a `[`) closes: its `]` (len(pattern) when none)."""
    n = len(pattern)
    i += 1
    if i < n and pattern[i] == "^":
        i += 1
    if i < n and pattern[i] == "]":
        i += 1
    while i < n and pattern[i] != "]":
        if pattern[i] == "\\":
            i += 1
        elif pattern.startswith("[:", i):  # a POSIX class inside: [[:alpha:]]
            end = pattern.find(":]", i + 2)
            i = end + 1 if end >= 0 else i
        i += 1
    return i


def _compile(pattern: str, where: str, sized: bool = True) -> regex.Pattern:
    """Compile a set's regex; `sized`: first refuse one that expands too much (EXPANDED_LIMIT; the shipped
    sets skip it: tests/test_regex_budget.py holds them far under it, and it is a tenth of their load
    time)."""
    size = expanded_size(pattern) if sized else 0
    if size > EXPANDED_LIMIT:
        shown = pattern if len(pattern) <= 200 else pattern[:200] + "..."
        raise PatternError(
            f"{where}: `{shown}` is {size:,} characters long once its nested counted repeats are multiplied "
            f"out (the limit is {EXPANDED_LIMIT:,}): the regex module expands a count such as `z{{60}}` into "
            "60 z's when it compiles, and nested counts multiply; use `+` or `*`, or smaller counts"
        )
    try:
        return regex.compile(pattern, regex.VERSION0)
    except regex.error as exc:
        raise PatternError(f"{where}: invalid regex ({exc})") from None


def _field(source: str, spec: Table, where: str, step_kind: str, sized: bool = True) -> FieldSpec:
    column, scope = spec["column"], spec.get("scope")
    if column in SCOPED_COLUMNS:
        if scope is None:
            raise PatternError(
                f"{where}: column {column!r} is a throughput; say whether it is per GPU or for the whole "
                f'job with scope = "per_gpu" or "global"'
            )
        column = scoped_name(column, scope)
    elif scope is not None:
        raise PatternError(f"{where}: scope only applies to {', '.join(SCOPED_COLUMNS)}")
    if step_kind == "micro" and column == "step":
        column = "micro_step"
    vtype = spec.get("type", "float")
    if spec.get("list") and vtype not in ("float", "int"):
        raise PatternError(f"{where}: list applies to float or int fields")
    true_when = spec.get("true_when")
    if true_when is not None:
        if vtype != "bool":
            raise PatternError(f'{where}: true_when applies to type = "bool" fields')
        if sized:  # a user set's bad regex: one clear error at load
            _compile(true_when, f"{where}: true_when")
    window, smoothing, alpha = spec.get("window"), spec.get("smoothing"), spec.get("alpha")
    per = spec.get("per")
    if per is not None and (not isinstance(per, str) or vtype != "float"):
        raise PatternError(
            f"{where}: per names the group of the line that holds a count of steps (a float field)"
        )
    if alpha is not None and smoothing != "ema":
        raise PatternError(f'{where}: alpha needs smoothing = "ema"')
    return FieldSpec(
        source=source,
        column=column,
        type=vtype,
        scale=float(spec.get("scale", 1.0)),
        offset=float(spec.get("offset", 0.0)),
        suffix=spec.get("suffix", False),
        invert=spec.get("invert", False),
        scope=scope,
        missing=tuple(spec.get("missing", ())),
        aggregate=spec.get("aggregate", "first"),
        window="unknown" if smoothing is not None and window is None else window,
        smoothing=smoothing,
        alpha=None if alpha is None else float(alpha),
        list=spec.get("list", False),
        units=spec.get("units"),
        true_when=true_when,
        per=per,
    )


def _per_count(value: float, count: str | None) -> float:
    """A value over the steps `count` says it covers: per step (NaN where the count is no positive number)."""
    try:
        n = float(count.replace(",", "")) if count is not None else math.nan
    except ValueError:
        n = math.nan
    return value / n if n > 0 else math.nan


def _group_field(group: str, kind: str, step_kind: str, where: str) -> FieldSpec | None:
    """A named group without a fields entry fills the canonical column of its name; `_name` is unused."""
    if group in ("key", "value") or group.startswith("_"):
        return None
    if group not in (FACTS if kind in ("config", "summary") else STEP_COLUMNS):
        raise PatternError(
            f"{where}: regex: group {group!r} names no field and no canonical column (list it in fields, "
            "or prefix it with _ to keep it unused)"
        )
    column = "micro_step" if (step_kind == "micro" and group == "step") else group
    vtype = "int" if group in ("step", "micro_step", "progress_n", "progress_total") else "float"
    return FieldSpec(source=group, column=column, type="timestamp" if group == "timestamp" else vtype)


def _line(
    ld: Table,
    set_name: str,
    source_file: str,
    where: str,
    sized: bool = True,
    folders: Sequence[Path] | None = None,
) -> LineSpec:
    """One [[line]]; `sized` (a user set's): its regexes are compiled now, else when first used (the shipped
    sets, whose regexes tests/test_regex_budget.py compiles and whose group names it checks: group_names)."""
    kind, step_kind = ld["kind"], ld.get("step", "optimizer")
    compiled: dict[str, regex.Pattern] = {}
    if sized:
        compiled = {
            key: _compile(ld[key], f"{where}: {key}", sized)
            for key in ("regex", "pairs", "complete")
            if key in ld
        }

    def names(key: str) -> list[str]:
        return list(compiled[key].groupindex) if sized else group_names(ld[key])

    if "pairs" in ld and not {"key", "value"} <= set(names("pairs")):
        raise PatternError(f"{where}: pairs needs the named groups `key` and `value`")
    fields = {
        source: _field(source, spec, f"{where}: fields.{source}", step_kind, sized)
        for source, spec in ld.get("fields", {}).items()
    }
    for group in names("regex"):
        if group not in fields and (fs := _group_field(group, kind, step_kind, where)) is not None:
            fields[group] = fs
    attach, continues, overrides = ld.get("attach"), ld.get("continues"), ld.get("overrides", False)
    if attach is not None and (kind != "step" or continues is not None):
        raise PatternError(f"{where}: attach applies to step lines that do not continue a block")
    if attach == "step" and not any(fs.column == "step" for fs in fields.values()):
        raise PatternError(f'{where}: attach = "step" needs the step number the line prints (a step field)')
    if overrides and attach not in ("next", "step"):
        raise PatternError(f'{where}: overrides applies to attach = "next" or "step" lines')
    list_columns = tuple(fs.column for fs in fields.values() if fs.list)
    if list_columns and (kind != "step" or attach is not None or continues is not None):
        raise PatternError(f"{where}: list fields apply to step lines that neither attach nor continue")
    if "extra" in ld and kind not in ("step", "progress"):
        raise PatternError(f"{where}: extra applies to step lines")
    if ld.get("postfix") and (kind != "step" or not any(fs.column == "step" for fs in fields.values())):
        raise PatternError(
            f"{where}: postfix applies to step lines whose step is the bar's position (a step field)"
        )
    if ld.get("redrawn") and (kind != "step" or not ld.get("note")):
        raise PatternError(
            f"{where}: redrawn applies to step lines with a note (what the log holds, what reads it all)"
        )
    spec = LineSpec(
        set_name=set_name,
        name=ld["name"],
        kind=kind,
        regex_src=ld["regex"],
        fields=fields,
        pairs_src=ld.get("pairs"),
        step=step_kind,
        event=ld.get("event"),
        hint=ld.get("hint"),
        literals=required_literals(ld["regex"]),
        prefix=required_prefix(ld["regex"]),
        interval=ld.get("interval", False),
        note=ld.get("note"),
        continues=continues,
        attach=attach,
        overrides=overrides,
        redrawn=ld.get("redrawn", False),
        postfix=ld.get("postfix", False),
        source_file=source_file,
        complete_src=ld.get("complete"),
        list_columns=list_columns,
        keymap=keymap_mod.load(keymap_mod.resolve_path(ld["keymap"], source_file, where, folders))
        if "keymap" in ld
        else None,
        extra=ld.get("extra"),
        counts_from=ld.get("counts_from"),
        whole_run=ld.get("whole_run", False),
        within_epoch=ld.get("within_epoch", False),
    )
    spec.__dict__.update(compiled)  # the compiled regexes in place of the lazy attributes
    return spec


_GROUP = regex.compile(r"\(\?P?<([A-Za-z_]\w*)>")


def group_names(pattern: str) -> list[str]:
    """The named groups of a regex, in their order, read from its text (as `groupindex` has them, without
    compiling it): `(?P<name>` and `(?<name>` not escaped, outside a character class."""
    names: list[str] = []
    for m in _GROUP.finditer(_without_classes(pattern)):
        if m.group(1) not in names:
            names.append(m.group(1))
    return names


def _without_classes(pattern: str) -> str:
    """The regex with its escapes and character classes blanked (`\\(?P<` and a `(?P<` inside `[...]` are
    no group)."""
    out, i, n = [], 0, len(pattern)
    while i < n:
        c = pattern[i]
        if c == "\\":
            out.append("  ")
            i += 2
            continue
        if c == "[":
            end = _class_end(pattern, i)
            out.append(" " * (end + 1 - i))
            i = end + 1
            continue
        out.append(c)
        i += 1
    return "".join(out)


def parse_pattern_set(
    data: Table, source_file: str, validate: bool = True, folders: Sequence[Path] | None = None
) -> PatternSet:
    """Validate the TOML data of one pattern set against the schema and compile it. `validate=False` is for
    the shipped sets, which tests/test_pattern_schema.py holds to the schema (a third of their load time), and
    tests/test_regex_budget.py under the compile limit. `folders`: the pattern folders its key maps may lie in
    (keymap.resolve_path; by default the set's own)."""
    problem = pattern_schema.problem(data, source_file) if validate else None
    if problem is not None:
        raise PatternError(problem)
    fmt = data["format"]
    name = fmt["name"]
    detect = [
        _compile(p, f"{source_file}: [format] detect[{i}]", validate) for i, p in enumerate(fmt["detect"])
    ]
    lines: list[LineSpec] = []
    for i, ld in enumerate(data["line"]):
        where = f"{source_file}: {pattern_schema.where(data, 'line', i)}"
        if any(spec.name == ld["name"] for spec in lines):
            raise PatternError(f"{where}: the name is used twice")
        lines.append(_line(ld, name, source_file, where, validate, folders))
    names = {spec.name: spec for spec in lines}
    for spec in lines:
        if spec.continues is not None:
            head = names.get(spec.continues)
            if head is None or head.kind != "step" or head.continues is not None:
                raise PatternError(
                    f'{source_file}: [[line]] "{spec.name}": continues must name a step [[line]] of this set '
                    "that starts a block"
                )
            spec.kind = "step"
    return PatternSet(
        name=name,
        title=fmt.get("title", name),
        detect=detect,
        lines=lines,
        samples=[Sample(s["line"], s.get("expect", {}), s.get("pattern")) for s in data["sample"]],
        source_file=source_file,
        priority=fmt.get("priority", 0),
        description=fmt.get("description", ""),
        role=fmt.get("role", "family"),
        composes={
            guest: Composition(c["name"], c.get("title", c["name"]), name, guest, c.get("why", ""))
            for guest, c in fmt.get("composes", {}).items()
        },
        reported=_conventions(fmt, str(fmt.get("title", name))),
        detect_literals=[required_literals(p) for p in fmt["detect"]],
    )


def load_file(
    path: str | os.PathLike[str], validate: bool = True, folders: Sequence[Path] | None = None
) -> PatternSet:
    """One set file (a regular file, at most tomlfile.MAX_TOML_BYTES). Its TOML as read and the literals and
    prefixes of its regexes are kept in the disk cache under the file's bytes (diskcache.py): the next load
    reads JSON instead of parsing TOML and regexes. `folders`: the pattern folders its key maps may lie in (by
    default the set's own)."""
    path = str(path)
    raw = read_toml_bytes(path, PatternError)
    data, entry = _toml_of(path, raw)
    ps = parse_pattern_set(data, path, validate, folders)
    ps.content_key = _content_key(path, data, raw, folders)
    if entry is None:
        patterns = [*data["format"]["detect"], *(ld["regex"] for ld in data["line"])]
        derived = {tag + p: _DERIVED[tag + p] for p in patterns for tag in "LP" if tag + p in _DERIVED}
        try:
            json.dumps(data)
        except (TypeError, ValueError):  # a TOML date or time: not kept (read from the TOML each time)
            return ps
        diskcache.put("set", diskcache.digest(raw), {"toml": data, "derived": derived})
    return ps


def _toml_of(path: str, raw: bytes) -> tuple[Table, Any]:
    """A set file's TOML (from the disk cache when these bytes were read before) and its cache entry (None when
    it was parsed now)."""
    entry = diskcache.get("set", diskcache.digest(raw))
    if isinstance(entry, dict) and isinstance(entry.get("toml"), dict):
        for key, value in (entry.get("derived") or {}).items():
            _DERIVED.setdefault(key, tuple(value) if isinstance(value, list) else value)
        return entry["toml"], entry
    return parse_toml(raw, path, PatternError), None


def _content_key(path: str, data: Table, raw: bytes, folders: Sequence[Path] | None = None) -> str:
    """The set's disk cache key (diskcache.py): its file's bytes and those of the key maps its lines name."""
    parts: list[bytes | str] = [raw]
    lines = data.get("line", [])
    for i, ld in enumerate(lines if isinstance(lines, list) else []):
        if isinstance(ld, dict) and "keymap" in ld:
            km = keymap_mod.resolve_path(ld["keymap"], path, f"{path}: [[line]] #{i + 1}", folders)
            parts += [str(km), read_toml_bytes(km, PatternError)]
    return diskcache.digest(*parts)


def content_digest(path: str | os.PathLike[str], folders: Sequence[Path] | None = None) -> str:
    """What reading with a set file depends on: its bytes and those of every key map it names (an edited key
    map changes it). A set that cannot be read, or names a key map it may not, is keyed by what the error
    says (loading it fails the same way)."""
    path = str(path)
    try:
        raw = read_toml_bytes(path, PatternError)
        if b"keymap" not in raw:  # no key map: its bytes alone (as _content_key has it), its TOML unread
            return diskcache.digest(raw)
        return _content_key(path, _toml_of(path, raw)[0], raw, folders)
    except PatternError as exc:
        return diskcache.digest("unreadable", str(exc))


# --------------------------------------------------------------------------------------------
# samples


def sample_failures(ps: PatternSet, whole_numbers: bool = False) -> list[str]:
    """Check every sample of a set; return one sentence per failing sample (empty when all pass).

    With `whole_numbers` (`logparse patterns test`), a numeric value must also be read from a whole number
    as a plain tokenizer of the line finds it (keymap.number_spans: `22,892` is one number), a check that
    does not depend on the set's regex: a set that reads 22 of `22,892 tok/s` fails even when its sample
    expects 22."""
    from ..read.reader import clean_text

    problems: list[str] = []
    for i, sample in enumerate(ps.samples, 1):
        text, _, _ = clean_text(sample.line)
        hit = ps.match(text)
        if hit is None:
            # a line that starts with its own counter ("75: 625.19, ..."): in the log it came from, whose head the
            # reader weighs (reader.leading_counters), that is no srun label but the record's text
            kept, _, _ = clean_text(sample.line, counters=True)
            if kept != text:
                text, hit = kept, ps.match(kept)
        if hit is None:
            problems.append(f"{ps.name} sample #{i}: matches no line pattern: {sample.line[:120]!r}")
            continue
        spec, values = hit
        if values.problems and not sample.expect.get("malformed", False):
            problems.append(f"{ps.name} sample #{i}: a value did not convert: {values.problems[0]}")
            continue
        if sample.pattern is not None and spec.name != sample.pattern:
            problems.append(f"{ps.name} sample #{i}: matched {spec.name!r}, expected {sample.pattern!r}")
            continue
        for key, want in sample.expect.items():
            if key == "malformed":
                continue
            got = values.get(key)
            if not _same(got, want):
                problems.append(f"{ps.name} sample #{i} ({spec.name}): {key} is {got!r}, expected {want!r}")
                break
        else:
            cut = _cut_number(spec, text) if whole_numbers else None
            if cut is not None:
                problems.append(f"{ps.name} sample #{i} ({spec.name}): {cut}")
    return problems


def _cut_number(spec: LineSpec, text: str) -> str | None:
    """The first numeric value `spec` reads from part of a printed number (None when every one is whole)."""

    spans = keymap_mod.number_spans(text)
    m = spec.regex.search(text)
    if m is None:
        return None
    read: list[tuple[str, int, int]] = []
    for name in m.groupdict():
        fs = spec.fields.get(name)
        if name.startswith("_") or (fs is not None and fs.type not in ("float", "int")):
            continue
        if fs is None and name not in ("value",):
            continue
        start, end = m.span(name)
        if start >= 0:
            read.append((name, start, end))
    if spec.pairs is not None:
        read += [(pm.group("key"), *pm.span("value")) for pm in spec.pairs.finditer(text)]
    for name, start, end in read:
        for a, b in spans:
            if a < end and b > start and (a < start or b > end):
                return f"{name!r} reads {text[start:end]!r} of the number {text[a:b]!r} printed there"
    return None


def _same(got: Any, want: Any) -> bool:
    if isinstance(want, bool) or isinstance(got, bool):
        return got is want or got == want
    if isinstance(want, (int, float)) and isinstance(got, (int, float)):
        if isinstance(want, float) and math.isnan(want):
            return math.isnan(got)
        return math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12)
    if want == "nan" and isinstance(got, float):
        return math.isnan(got)
    return got == want


# --------------------------------------------------------------------------------------------
# the registry


def shipped_dir() -> Path:
    """Where the shipped pattern sets are: inside the installed wheel, or the source tree."""
    package = Path(__file__).resolve().parent.parent  # logparse/
    installed = package / "builtin_patterns"
    return installed if installed.is_dir() else package.parent / "patterns"


def pattern_dirs(extra: Iterable[str] = ()) -> list[Path]:
    dirs = [shipped_dir()]
    env = os.environ.get("LOGPARSE_PATTERNS")
    if env:
        dirs += [Path(p) for p in env.split(os.pathsep) if p]
    dirs += [Path(p) for p in extra]
    return dirs


class LoadedSets(dict):  # type: ignore[type-arg]
    """The sets load_sets found, by name (a dict), and `skipped`: a sentence for each `*.toml` of a pattern folder
    that was not read (a FIFO, a device, a folder, a broken link), for the run's warnings."""

    skipped: tuple[str, ...] = ()


def set_files(folder: Path) -> tuple[list[Path], list[str]]:
    """The pattern-set files of a folder, each `*.toml` directly in it that is a regular file (a link to one
    too), in name order; and a sentence for each other `*.toml`, which is not read: opening a FIFO would wait
    for a writer, forever, and a device (a link to /dev/zero) never ends."""
    files, skipped = [], []
    for path in sorted(folder.glob("*.toml")):
        try:
            mode = path.stat().st_mode
        except OSError as exc:
            skipped.append(f"{path}: not read as a pattern set ({exc.strerror})")
            continue
        if stat.S_ISREG(mode):
            files.append(path)
        else:
            skipped.append(f"{path}: not read as a pattern set ({file_kind(mode)}: a set is a regular file)")
    return files, skipped


_LOADED: dict[tuple, tuple[LoadedSets, tuple]] = {}
_ORDERS: dict[tuple, tuple[dict[str, PatternSet], list[str]]] = {}


def load_sets(extra_dirs: Iterable[str] = (), check_samples: bool = True) -> LoadedSets:
    """All pattern sets, shipped first; a later folder's set with the same name overrides. Only regular
    `*.toml` files are read; the others are listed in the result's `skipped`.

    Loaded once per process for the same files (path, modification time and size, those of the key maps the
    sets name too): `logparse batch` analyzes many logs without compiling and checking every set again."""
    dirs = pattern_dirs(extra_dirs)
    for d in dirs:
        if not d.is_dir():
            raise PatternError(f"{d}: pattern folder does not exist")
    listed = [set_files(d) for d in dirs]
    files = [path for found, _ in listed for path in found]
    key = (check_samples, tuple(map(str, dirs)), *(keymap_mod.stamp(p) for p in files))
    kept = _LOADED.get(key)
    if kept is None or any(keymap_mod.stamp(p) != was for p, was in kept[1]):
        _LOADED.clear()
        sets = _load_sets(dirs, check_samples)
        sets.skipped = tuple(note for _, skipped in listed for note in skipped)
        used = {spec.keymap.source for ps in sets.values() for spec in ps.lines if spec.keymap is not None}
        kept = _LOADED[key] = (sets, tuple((p, keymap_mod.stamp(p)) for p in sorted(used)))
    return kept[0]


def _load_sets(dirs: list[Path], check_samples: bool) -> LoadedSets:
    sets = LoadedSets()
    shipped = shipped_dir().resolve()
    for d in dirs:
        trusted = d.resolve() == shipped
        for path in set_files(d)[0]:
            ps = load_file(path, validate=not trusted, folders=dirs)
            if trusted:
                ps.trusted = True
                for spec in ps.lines:
                    spec.trusted_chars = TRUSTED_CHARS
            # the samples are checked once per content (diskcache.py): an edited set is checked again
            if check_samples and diskcache.get("samples", ps.content_key) is not True:
                problems = sample_failures(ps)
                if problems:
                    raise PatternError(f"{path}: {problems[0]} (run `logparse patterns test {d}`)")
                diskcache.put("samples", ps.content_key, True)
            sets[ps.name] = ps
    return sets


def specificity_order(sets: dict[str, PatternSet]) -> list[str]:
    """Set names, more specific first (lnav's method): a set whose samples another set's patterns
    also match is the more specific one and is tried first."""
    key = tuple((name, id(ps)) for name, ps in sorted(sets.items()))
    if key not in _ORDERS:
        _ORDERS.clear()
        _ORDERS[key] = (dict(sets), _stored_order(sets))  # the sets are kept so their ids stay theirs
    return list(_ORDERS[key][1])


def _stored_order(sets: dict[str, PatternSet]) -> list[str]:
    """The specificity order, from the disk cache when these sets' contents were ordered before (it tries
    every set's samples on every other set: it compiles every regex of every set)."""
    if any(not ps.content_key for ps in sets.values()):  # a set not loaded from a file: no key
        return _specificity_order(sets)
    key = diskcache.digest(*(f"{name}:{ps.content_key}" for name, ps in sorted(sets.items())))
    stored = diskcache.get("order", key)
    if isinstance(stored, list) and sorted(stored) == sorted(sets):
        return stored
    order = _specificity_order(sets)
    diskcache.put("order", key, order)
    return order


def _specificity_order(sets: dict[str, PatternSet]) -> list[str]:
    from ..read.reader import clean_text

    names = sorted(sets)
    before: dict[str, set[str]] = {n: set() for n in names}
    for a in names:
        for b in names:
            if a == b:
                continue
            b_reads_a = any(_matches(sets[b], clean_text(s.line)[0]) for s in sets[a].samples)
            a_reads_b = any(_matches(sets[a], clean_text(s.line)[0]) for s in sets[b].samples)
            if b_reads_a and not a_reads_b:
                before[a].add(b)  # a is more specific: try a before b
    order: list[str] = []
    placed: set[str] = set()
    while len(order) < len(names):
        ready = [
            n for n in names if n not in placed and not any(n in before[m] for m in names if m not in placed)
        ]
        if not ready:  # a cycle: fall back to priority
            ready = [n for n in names if n not in placed]
        ready.sort(key=lambda n: (-sets[n].priority, n))
        order.append(ready[0])
        placed.add(ready[0])
    return order


def _matches(ps: PatternSet, text: str) -> bool:
    try:
        return ps.match(text) is not None
    except PatternError:
        return False


@dataclass
class Detection:
    name: str
    scores: dict[str, int]
    confidence: float  # share of all detect hits that went to the winner


_DETECT_INDEX: dict[tuple, tuple[list[tuple[str, list[str]]], Any, list[str]]] = {}


def _detect_index(families: dict[str, PatternSet]) -> tuple[list[tuple[str, list[str]]], Any, list[str]]:
    """(literal, the sets whose detect literals include it), one search for any of them, and the sets with a
    detect regex that has no literal (tried on every text); cached per set of sets."""
    key = tuple((name, id(ps)) for name, ps in sorted(families.items()))
    if key not in _DETECT_INDEX:
        by_needle: dict[str, list[str]] = {}
        always: list[str] = []
        for name, ps in sorted(families.items()):
            lits = ps.detect_literals or [None] * len(ps.detect)
            if any(need is None for need in lits):
                always.append(name)
                continue
            for need in lits:
                for lit in need or ():
                    if name not in by_needle.setdefault(lit, []):
                        by_needle[lit].append(name)
        longest = sorted(by_needle, key=len, reverse=True)
        # (literals alone: the standard module's alternation, 4x the regex module's speed on a log's head lines)
        rx = re.compile("|".join(map(re.escape, longest))) if longest else None
        _DETECT_INDEX.clear()
        _DETECT_INDEX[key] = (list(by_needle.items()), rx, always)
    return _DETECT_INDEX[key]


# a regex's tokens that treat every digit alike: `\d`, a count `{m,n}`, a character class (its `0-9` range is
# what may be taken out: Megatron's argument regex `[a-z0-9_]`), and any other escaped character kept as it is
_ALIKE = regex.compile(r"(?P<class>\[\^?\]?(?:\\.|[^\]\\])*\])|\\d|\{\d*,?\d*\}|\\.")
_WHOLE_DIGIT_RANGE = regex.compile(r"(?<!-)0-9(?!-)")  # (`[+-0-9]` is the range + to 0, then -, 9: kept)


def _digits_alike(src: str) -> str:
    r"""A regex's source without what treats every digit alike (a `\d`, a count, the `0-9` of a class): a digit
    left in it is one a text's digit may be told apart by (LineSpec._by_layout)."""

    def alike(m: regex.Match) -> str:
        if m.group("class") is not None:  # (a 0-9 that is a range of its own: no "-" before or after it)
            return _WHOLE_DIGIT_RANGE.sub("", m.group("class"))
        return "" if m.group(0) == "\\d" or m.group(0).startswith("{") else m.group(0)

    return _ALIKE.sub(alike, src)


def detect(texts: Iterable[str], sets: dict[str, PatternSet]) -> Detection | None:
    """Score each set by how many of `texts` its detect regexes hit; the best wins. A fallback set
    (the generic reading) wins only when no family set scores at all."""
    families = {name: ps for name, ps in sets.items() if ps.role == "family"}
    fallbacks = {name: ps for name, ps in sets.items() if ps.role == "fallback"}
    for ps in sets.values():  # each pass over a log's lines has its own time budget (REGEX_BUDGET_S)
        ps.detect_spent, ps.detect_calls = 0.0, 0
    scores = {name: 0 for name in families}
    spare = {name: 0 for name in fallbacks}
    needles, any_needle, always = _detect_index(families)
    scored = False
    for text in texts:
        layout = text.translate(DIGITS)
        # only the sets one of whose detect literals the text holds can hit it (detect_hits checks them too)
        candidates = always
        if any_needle is not None and any_needle.search(text) is not None:
            candidates = always + list(
                {name: None for lit, names in needles if lit in text for name in names}
            )
        for name in candidates:
            if families[name].detect_hits(text, layout):
                scores[name] += 1
                scored = True
        if not scored:  # a fallback's score counts only while no family has scored (see below)
            for name, ps in fallbacks.items():
                if ps.detect_hits(text, layout):
                    spare[name] += 1
    ranked = sorted(families, key=lambda n: (scores[n], families[n].priority), reverse=True)
    if not ranked or scores[ranked[0]] == 0:
        best = sorted(fallbacks, key=lambda n: (spare[n], fallbacks[n].priority), reverse=True)
        if not best or spare[best[0]] == 0:
            return None
        return Detection(best[0], {best[0]: spare[best[0]]}, 1.0)
    total = sum(scores.values())
    return Detection(ranked[0], scores, scores[ranked[0]] / total if total else 0.0)
