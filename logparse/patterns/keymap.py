"""Key maps: a synonym table (data, ``logparse/synonyms.toml``) from the keys custom training loops
print to canonical step columns and run facts, and values read with their units.

A ``[[line]]`` with ``keymap = "builtin"`` (or a path to a table of the same shape, relative to its
pattern file) maps every key its ``key``/``value`` groups or ``pairs`` find that ``fields`` does not
name: ``tok/s`` -> tokens_per_s, ``dt_ms`` -> step_time_s x 0.001, ``mfu 41.2%`` -> 0.412. With
``extra = "x_"`` a step line keeps a numeric key the table does not know as a column ``x_<key>``.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import regex

from ..core.bounded import FileRefused, read_bounded
from ..core.errors import PatternError
from ..core.tomlfile import MAX_TOML_BYTES, Table, parse_toml

BUILTIN = Path(__file__).resolve().parent / "synonyms.toml"
UNITS = ("time", "percent", "memory", "count")
TYPES = ("float", "int", "bool")

# a number, optionally with thousands separators, then a unit glued on or after one space
_QUANTITY = regex.compile(
    r"""^\s*['"]?\s*(?P<num>[-+]?(?:\d{1,3}(?:,\d{3})+(?:\.\d*)?|\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)
    \s*(?P<unit>µs|us|ms|secs?|seconds?|s|mins?|m|hrs?|h|%|[KMGTPkmgtp]i?[Bb]|B|[KMGBT])?\s*['"]?\s*$""",
    regex.VERBOSE,
)
_NONFINITE = regex.compile(r"^\s*['\"]?\s*(?P<sign>[-+]?)(?P<what>nan|inf(?:inity)?)\s*['\"]?\s*$", regex.I)
# a unit at the end of a key: dt_ms, time(ms), mfu_%, mem_gb, "step time (s)"
_KEY_UNIT = regex.compile(
    r"^(?P<base>.+?)(?:_\(?|\()(?P<unit>ms|us|s|sec|secs|min|h|%|pct|percent|[kmgt]i?b)\)?$"
)
# a time unit per step as the key (what a value-then-unit pair gives: `2862.9 ms/step`, `0.097s/it`), or a
# bare time unit (`| 12.34 ms |`, llm.c's train_gpt2.py): read as the key `s/<per>` (or `time`) in that unit
_PER_UNIT = regex.compile(r"^(?P<unit>µs|us|ms|s|sec|secs|min)(?:/(?P<per>step|it|iter|iteration|batch))?$")
# a key printed with the scale its value is printed in: verl's `lr(1e-4):0.010` is lr = 0.010 x 1e-4
_SCALED = regex.compile(r"^(?P<base>.+?)\s*\(\s*(?P<factor>[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?)\s*\)$")

# a number: not glued to a word before it (fp16, v2), a sign only after a separator, units may follow; thousands
# separators are part of it (22,892 is one number). This tokenizer is also the reading that `patterns new`'s (shapes.py)
# sample values come from and that `patterns test` holds every sample to (whole_numbers), independent of the
# regex it writes.
NUMBER_TOKEN = regex.compile(
    r"(?<![\w.])(?:(?<=^|[\s=:(\[,{|;])[-+])?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\d,])|\d+(?:\.\d*)?|\.\d+)"
    r"(?:[eE][-+]?\d+)?(?!\d)"
)

# The unit a value carries where a line prints it after the value, as the generic reading takes it (its `pairs`,
# patterns/generic.toml, spells the same two lists): a word unit glued on or after one space (`12.3ms`,
# `61.2 GB`), a one-letter one glued on (`1.2s`, `41%`, `12K`), and nothing of a word after it. `patterns new`
# (shapes.py) reads a line's units with it, so the set it writes converts a value as the generic reading does.
WORD_UNITS = r"ms|us|µs|secs?|mins?|[KMGTkmgt]i?[Bb]"
LETTER_UNITS = r"s|m|h|%|[KMGBT]"
UNIT_AFTER = regex.compile(rf"^(?:\s?(?P<unit>{WORD_UNITS})|(?P<unit>{LETTER_UNITS}))(?![\w.%/])")


def number_spans(text: str) -> list[tuple[int, int]]:
    """Where the numbers of a line are, each whole (`22,892`, `1.5e-04`, `-3`), found by the tokenizer alone;
    a trailing dot ends a sentence or a dotted leader (`1000.`, `44......`), not the number."""
    return [(m.start(), m.end() - m.group().endswith(".")) for m in NUMBER_TOKEN.finditer(text)]



TIME = {
    "µs": 1e-6,
    "us": 1e-6,
    "ms": 1e-3,
    "s": 1.0,
    "sec": 1.0,
    "secs": 1.0,
    "second": 1.0,
    "seconds": 1.0,
    "m": 60.0,
    "min": 60.0,
    "mins": 60.0,
    "h": 3600.0,
    "hr": 3600.0,
    "hrs": 3600.0,
}
GIB = 2.0**30
MEMORY = {  # bytes per unit; the column is GiB
    "b": 1.0,
    "k": 1e3,
    "kb": 1e3,
    "m": 1e6,
    "mb": 1e6,
    "g": 1e9,
    "gb": 1e9,
    "t": 1e12,
    "tb": 1e12,
    "kib": 2.0**10,
    "mib": 2.0**20,
    "gib": GIB,
    "tib": 2.0**40,
}
COUNT = {"k": 1e3, "m": 1e6, "b": 1e9, "g": 1e9, "t": 1e12}


class UnitError(ValueError):
    """A value whose unit does not fit its column (raised as a malformed value)."""


def normalize(key: str) -> str:
    """The form keys are looked up in: lower case, spaces and dashes as underscores, no brackets or
    trailing colon around it ("Grad-Norm:" -> grad_norm, "Tokens per Sec" -> tokens_per_sec)."""
    k = key.strip().strip("'\"[]{}:=,;|").strip().lower()
    k = regex.sub(r"\s*/\s*", "/", k)  # "Tokens / Sec" (the Annotated Transformer) is tokens/sec
    k = regex.sub(r"[\s-]+", "_", k)
    return k


def scaled_key(key: str) -> tuple[str, float]:
    """(base key, factor) of a key that names the scale of its value: 'lr(1e-4)' -> ('lr', 1e-4); any other
    key -> (key, 1.0). A unit in brackets (`time(ms)`) is not a scale."""
    m = _SCALED.match(key.strip())
    if m is None:
        return key, 1.0
    factor = float(m.group("factor"))
    return (m.group("base"), factor) if factor not in (0.0, 1.0) else (key, 1.0)


def column_name(prefix: str, key: str, unit: str | None = None) -> str:
    """The column a kept (unknown) key fills: x_<key>, with any unit it carried."""
    base = regex.sub(r"[^a-z0-9]+", "_", normalize(key)).strip("_") or "value"
    if unit:
        base += "_" + regex.sub(r"[^a-z0-9]+", "pct" if unit == "%" else "_", unit.lower()).strip("_")
    return prefix + base


def split_quantity(text: str) -> tuple[float, str | None]:
    """(number, unit) of a printed value: '12.3ms' -> (12.3, 'ms'), '123,456' -> (123456.0, None)."""
    m = _QUANTITY.match(text)
    if m is None:
        n = _NONFINITE.match(text)
        if n is None:
            raise ValueError(f"not a number: {text!r}")
        v = math.nan if n.group("what").lower() == "nan" else math.inf
        return (-v if n.group("sign") == "-" else v), None
    return float(m.group("num").replace(",", "")), m.group("unit")


def to_quantity(text: str, units: str | None, key_unit: str | None = None) -> float:
    """The canonical value of a printed quantity: seconds, fractions, GiB, plain counts."""
    try:
        value, unit = float(text), None  # the common case, fast
    except ValueError:
        value, unit = split_quantity(text)
    u = unit or key_unit
    if units == "time":
        if u is None:
            return value
        scale = TIME.get(u) or TIME.get(u.lower())
        if scale is None:
            raise UnitError(f"{text!r} is not a duration")
        return value * scale
    if units == "percent":
        if u in ("%", "pct", "percent"):
            return value * 0.01
        if u is not None:
            raise UnitError(f"{text!r} is not a percentage or fraction")
        return value * 0.01 if value > 1 else value  # a bare number above 1 is a percentage
    if units == "memory":
        if u is None:
            return value  # GiB unless the value or the key says otherwise
        per = MEMORY.get(u.lower())
        if per is None:
            raise UnitError(f"{text!r} is not an amount of memory")
        return value * per / GIB
    if u is not None:
        per = COUNT.get(u.lower()) if units == "count" else None
        if per is None:
            raise UnitError(f"unexpected unit in {text!r}")
        return value * per
    return value


@dataclass(frozen=True)
class Mapping:
    """Where one printed key goes."""

    column: str
    kind: str  # "step" (a step column) or "config" (a run fact)
    units: str | None = None
    type: str = "float"
    key_unit: str | None = None  # a unit the key itself names (dt_ms, mem_gb, mfu_%)
    invert: bool = False  # the key is a rate whose inverse is the column (`1.2 it/s` -> 0.833 s a step)
    factor: float = 1.0  # the scale the key names (`lr(1e-4)`)

    def convert(self, text: str) -> Any:
        t = text.strip().strip("'\"")
        if t in ("None", "null", "", "N/A", "n/a", "-"):
            return None
        if self.type == "bool":
            low = t.lower()
            if low in ("true", "1", "yes", "on"):
                return True
            if low in ("false", "0", "no", "off"):
                return False
            raise ValueError(f"not a boolean: {text!r}")
        value = to_quantity(t, self.units, None if self.invert else self.key_unit)
        if self.invert:
            value = 1.0 / value if value else math.nan
        value *= self.factor
        if self.type == "int":
            if not math.isfinite(value) or abs(value - round(value)) > 1e-9 * max(1.0, abs(value)):
                raise ValueError(f"not an integer: {text!r}")
            return int(round(value))
        return value


@dataclass
class KeyMap:
    """A synonym table: normalized key -> Mapping, per line kind."""

    source: str
    step: dict[str, Mapping] = field(default_factory=dict)
    config: dict[str, Mapping] = field(default_factory=dict)
    ignore: frozenset[str] = frozenset()
    inverse: dict[str, Mapping] = field(default_factory=dict)  # rates whose inverse is a step column
    _seen: dict[tuple[str, bool], Mapping | None] = field(default_factory=dict, repr=False)
    _ignored: dict[str, bool] = field(default_factory=dict, repr=False)

    def lookup(self, key: str, kind: str) -> Mapping | None:
        """The mapping of a printed key for a step (or progress/event) line or a config line."""
        config = kind in ("config", "summary")
        try:
            return self._seen[(key, config)]
        except KeyError:
            pass
        found = self._lookup(key, config)
        if len(self._seen) < 100_000:  # printed keys repeat line after line
            self._seen[(key, config)] = found
        return found

    def _lookup(self, key: str, config: bool) -> Mapping | None:
        base, factor = scaled_key(key)
        if factor != 1.0:
            hit = self._lookup(base, config)
            return None if hit is None else replace(hit, factor=hit.factor * factor)
        table = self.config if config else self.step
        k = normalize(key)
        hit = table.get(k)
        if hit is not None:
            return hit
        if not config:
            if k in self.inverse:
                return self.inverse[k]
            m = _PER_UNIT.match(k)
            if m is not None:
                hit = table.get(f"s/{m.group('per')}" if m.group("per") else "time")
                if hit is not None and hit.units == "time":
                    return replace(hit, key_unit=m.group("unit"))
        m = _KEY_UNIT.match(k)
        if m is not None:
            hit = table.get(m.group("base").rstrip("_"))
            if hit is not None and hit.units is not None:
                unit = m.group("unit")
                return Mapping(
                    hit.column, hit.kind, hit.units, hit.type, "%" if unit in ("pct", "percent") else unit
                )
        return None

    def ignored(self, key: str) -> bool:
        hit = self._ignored.get(key)
        if hit is None:
            hit = normalize(key) in self.ignore
            if len(self._ignored) < 100_000:
                self._ignored[key] = hit
        return hit


_CACHE: dict[tuple[str, bytes], KeyMap] = {}


def load(path: str | Path = BUILTIN) -> KeyMap:
    """Read and check a synonym table (cached per file and content). It is read as a pattern set is: a regular
    file, at most tomlfile.MAX_TOML_BYTES."""
    p = Path(path)
    try:
        raw = read_bounded(p, MAX_TOML_BYTES)
    except FileRefused as exc:
        raise PatternError(f"{p}: {exc.reason}; not read") from None
    except OSError as exc:
        raise PatternError(f"{p}: cannot read the key map ({exc.strerror})") from None
    key = (str(p), hashlib.sha256(raw).digest())
    if key not in _CACHE:
        _CACHE[key] = parse(parse_toml(raw, p, PatternError), str(p))
    return _CACHE[key]


def stamp(path: str | Path) -> tuple[str, int, int] | None:
    """What load() keys a table by (None when the file is gone): a set that names it is loaded again when it
    changes."""
    try:
        st = Path(path).stat()
    except OSError:
        return None
    return (str(path), st.st_mtime_ns, st.st_size)


def parse(data: Table, source: str) -> KeyMap:
    from ..core.schema import FACTS, SCOPED_COLUMNS, SCOPES, STEP_COLUMNS, scoped_name

    step_ok = set(STEP_COLUMNS) | {scoped_name(b, s) for b in SCOPED_COLUMNS for s in SCOPES}
    km = KeyMap(source=source)
    unknown = set(data) - {"step", "config", "ignore", "inverse"}
    if unknown:
        raise PatternError(
            f"{source}: unknown table(s) {sorted(unknown)}; use [step.<column>], [config.<fact>], "
            "[inverse.<column>], [ignore]"
        )
    for kind, allowed, table in (
        ("step", step_ok, km.step),
        ("config", set(FACTS), km.config),
        ("inverse", step_ok, km.inverse),
    ):
        for column, spec in data.get(kind, {}).items():
            where = f"{source}: [{kind}.{column}]"
            if column not in allowed:
                raise PatternError(f"{where}: unknown {'column' if kind == 'step' else 'fact'} {column!r}")
            if not isinstance(spec, dict) or not isinstance(spec.get("keys"), list):
                raise PatternError(f"{where}: needs keys = [...]")
            extra = set(spec) - {"keys", "units", "type", "note"}
            if extra:
                raise PatternError(f"{where}: unknown key(s) {sorted(extra)}")
            units = spec.get("units")
            if units is not None and units not in UNITS:
                raise PatternError(f"{where}: units must be one of {', '.join(UNITS)}")
            vtype = spec.get("type", "float")
            if vtype not in TYPES:
                raise PatternError(f"{where}: type must be one of {', '.join(TYPES)}")
            for j, k in enumerate(spec["keys"], 1):
                # (the key by its place in the list, not as written: an error names no value of the file)
                nk = normalize(str(k))
                if nk in table and table[nk].column != column:
                    raise PatternError(f"{where}: keys #{j} is already mapped to {table[nk].column!r}")
                if kind == "inverse" and nk in km.step:
                    raise PatternError(f"{where}: keys #{j} is already mapped to {km.step[nk].column!r}")
                table[nk] = Mapping(column, "step" if kind == "inverse" else kind, units, vtype, invert=kind == "inverse")
    ignore = data.get("ignore", {}).get("keys", [])
    km.ignore = frozenset(normalize(str(k)) for k in ignore)
    return km


def resolve_path(
    value: Any, pattern_file: str, where: str, folders: Iterable[str | Path] | None = None
) -> Path:
    """The file a ``keymap = ...`` option names: "builtin", or a path relative to the pattern file.

    A key map is a pattern-set file: it must lie in one of the pattern `folders` the sets are loaded from
    (by default the set's own folder), or below one, once symlinks are resolved. A set could otherwise make
    logparse read any file the user can read (a batch's run folder may hold a set) and quote its path and
    its parse errors into the index. The error names neither the path nor the value."""
    if not isinstance(value, str) or not value:
        raise PatternError(f'{where}: keymap must be "builtin" or a path to a synonym table')
    if value == "builtin":
        return BUILTIN
    p = Path(value)
    path = p if p.is_absolute() else Path(pattern_file).resolve().parent / p
    allowed = [Path(pattern_file).parent] if folders is None else [Path(f) for f in folders]
    real = Path(os.path.realpath(path))
    if not any(real.is_relative_to(os.path.realpath(f)) for f in allowed):
        raise PatternError(
            f"{where}: keymap: names a file outside the pattern folders (symlinks followed), not read: a key map "
            "is a pattern-set file, kept in a subfolder of the set's folder (each *.toml directly in a pattern "
            "folder is read as a set)"
        )
    return path
