"""Line shapes: group a log's lines by their text with the numbers masked, find the shapes that carry a
growing step counter, say what the generic reading would make of them (`logparse patterns explain` on a
log no set recognises), and write a starting pattern set from them (`logparse patterns new`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from itertools import islice
from pathlib import Path
from typing import Any

import regex

from ..core.errors import LogparseError, UsageError
from ..core.schema import SCOPED_COLUMNS, Row
from ..read.reader import ReadStats, read_records
from . import keymap as keymap_mod
from .keymap import NUMBER_TOKEN as _NUM
from .keymap import number_spans
from .sets import PatternSet, shipped_dir, to_timestamp

MAX_RECORDS = 200_000  # lines read to find the shapes
MIN_LINES = 3  # a step shape repeats at least this often
_WS = regex.compile(r"\s+")
_WORD = regex.compile(r"([A-Za-z][\w/.%-]*(?:\s[A-Za-z][\w/%-]*){0,3})\W*$")
# a rate unit after a value, which names it (`2862.9 ms/step`, `22,892 tok/s`, `1.2 it/s`): the value's key
_RATIO = regex.compile(
    r"^\s?((?:[mµu]?s|secs?)/(?:step|it|iter|iteration|batch)|(?:it|iters?|steps?|batch(?:es)?)/s(?:ec)?"
    r"|(?:tok(?:en)?s?|samples?|seqs?|sequences|examples|img|images)/s(?:ec)?(?:/(?:gpu|device))?"
    r"|[A-Za-z][A-Za-z_]*/(?:s|sec|step|it|iter|iteration|batch))(?![\w/])"
)
# a timestamp at the start of a line (the generic set's: Python logging, MM/DD/YYYY, ISO with an offset), which
# `patterns new` makes the line's clock
TS_RX = (
    r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)?"
    r"|\d\d/\d\d/\d{4},? \d\d:\d\d:\d\d(?:[.,]\d+)?"
)
_TS_START = regex.compile(rf"^\[?({TS_RX})")
# counter words, most telling first
COUNTER_WORDS = ("step", "iter", "iteration", "it", "global_step", "steps", "iters", "update", "batch")
NUMBER_RX = r"[-+]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?|(?i:nan|[-+]?inf)"
INT_RX = r"\d+"


@dataclass
class Shape:
    """Lines that differ only in their numbers (and the width of their spaces)."""

    key: str  # the shape, numbers as #
    literals: list[str]  # text around the numbers: len = numbers + 1
    count: int = 0
    first_line: int = 0
    example: str = ""
    examples: list[tuple[int, str]] = field(default_factory=list)
    values: list[list[str]] = field(default_factory=list)  # per number position, the printed texts
    counter: int | None = None  # the position of a growing integer counter
    counter_word: str | None = None

    def label(self, i: int) -> str:
        """The key of number i: the rate unit printed after it ('ms/step' in '2862.9 ms/step'), else the key
        printed before it ('loss' in '| loss 2.3'); '' when none."""
        ratio = _RATIO.match(self.literals[i + 1])
        if ratio:
            return ratio.group(1)
        lit = self.literals[i]
        if i > 0:
            # the previous number's unit is not part of this key
            unit = _RATIO.match(lit) or keymap_mod.UNIT_AFTER.match(lit)
            lit = lit[unit.end() :] if unit else lit
            if not lit.strip():
                return ""
        m = _WORD.search(lit)
        return m.group(1).strip() if m else ""

    def unit(self, i: int) -> str | None:
        if _RATIO.match(self.literals[i + 1]):
            return None  # the rate unit is the key (label)
        m = keymap_mod.UNIT_AFTER.match(self.literals[i + 1])
        return m.group("unit") if m else None


def split(text: str) -> tuple[list[str], list[str]]:
    """(literals, numbers) of a line: literals[0] number[0] literals[1] ... literals[-1]."""
    literals, numbers, at = [], [], 0
    for m in _NUM.finditer(text):
        literals.append(text[at : m.start()])
        numbers.append(m.group())
        at = m.end()
    literals.append(text[at:])
    return literals, numbers


def shape_key(literals: list[str]) -> str:
    return "#".join(_WS.sub(" ", lit) for lit in literals).strip()


def read_shapes(path: str, limit: int = MAX_RECORDS) -> tuple[dict[str, Shape], int]:
    """Every shape of the first `limit` records, and the number of records read."""
    stats = ReadStats()
    shapes: dict[str, Shape] = {}
    n = 0
    for rec in islice(read_records(path, stats), limit):
        n += 1
        text = rec.text.strip()
        if not text:
            continue
        literals, numbers = split(text)
        key = shape_key(literals)
        sh = shapes.get(key)
        if sh is None:
            sh = shapes[key] = Shape(key, literals, first_line=rec.line, example=text)
            sh.values = [[] for _ in numbers]
        sh.count += 1
        if len(sh.examples) < 3:
            sh.examples.append((rec.line, text))
        for i, v in enumerate(numbers):
            sh.values[i].append(v)
    if n == 0:
        raise LogparseError(f"{path}: the file has no text lines")
    for sh in shapes.values():
        _find_counter(sh)
    return shapes, n


def _growing(texts: list[str]) -> bool:
    if len(texts) < MIN_LINES or not all(t.lstrip("+-").isdigit() for t in texts):  # 1,000 is no counter
        return False
    vals = [int(t) for t in texts]
    ups = sum(b > a for a, b in zip(vals, vals[1:], strict=False))
    return ups >= 0.9 * (len(vals) - 1) and len(set(vals)) >= MIN_LINES


def _find_counter(sh: Shape) -> None:
    """The position of the shape's step counter: a growing integer, best one named like a counter."""
    if sh.count < MIN_LINES:
        return
    growing = [i for i, texts in enumerate(sh.values) if _growing(texts)]
    if not growing:
        return
    for word in COUNTER_WORDS:
        for i in growing:
            label = sh.label(i).lower().split()[-1:] if sh.label(i) else []
            if label and label[0].strip(":=[]#") == word:
                sh.counter, sh.counter_word = i, word
                return
    sh.counter = growing[0]


def step_shapes(shapes: dict[str, Shape]) -> list[Shape]:
    """Shapes that carry a growing counter and at least one other number, commonest first; those whose
    counter is named like one (step, iter, ...) when there are any."""
    found = [
        sh for sh in shapes.values() if sh.counter is not None and len(sh.values) >= 2 and _has_values(sh)
    ]
    named = [sh for sh in found if sh.counter_word is not None]
    return sorted(named or found, key=lambda sh: (-sh.count, sh.first_line))


def _has_values(sh: Shape) -> bool:
    return any(i != sh.counter and sh.label(i) for i in range(len(sh.values)))


# ------------------------------------------------------------------------------------------------
# explain


def explain_unrecognised(path: str, sets: dict[str, PatternSet], reason: str) -> str:
    """What a log no set recognises looks like, and how to read it."""
    shapes, n = read_shapes(path)
    km = keymap_mod.load()
    ranked = sorted(shapes.values(), key=lambda sh: (-sh.count, sh.first_line))
    out = [f"{path}: {n:,} lines; {reason}", "most common line shapes (# = a number):"]
    for sh in ranked[:15]:
        out.append(f"  {sh.count:8,d}  {sh.key[:150]}")
    steps = step_shapes(shapes)
    if not steps:
        out.append(
            "no shape repeats with a growing counter, so nothing here looks like a per-step line; "
            "a pattern set has to be written by hand (see README: writing a pattern set)"
        )
        return "\n".join(out)
    out.append("lines that look like step lines (a number that grows from line to line):")
    for sh in steps[:5]:
        vals = sh.values[sh.counter]
        named = f"after {sh.label(sh.counter)!r}" if sh.label(sh.counter) else "unnamed"
        out.append(
            f"  {sh.count:8,d}  {sh.key[:120]}\n            counter: number {sh.counter + 1} ({named}), "
            f"{vals[0]}..{vals[-1]}; e.g. line {sh.first_line}: {sh.example[:120]!r}"
        )
    generic = sets.get("generic")
    pairs = next((s.pairs for s in generic.lines if s.name == "step"), None) if generic is not None else None
    out.append("keys in those lines and where the generic reading's synonym table puts them:")
    for sh in steps[:3]:
        described = []
        for key, column in describe_keys(sh, km, pairs):
            described.append(f"{key} -> {column}")
        out.append(f"  {sh.key[:60]}: " + ("; ".join(described) or "(no key/value pairs found)"))
    word = steps[0].counter_word
    if word not in ("step", "iter", "iteration", "it"):
        out.append(
            "the generic set reads a counter named step, iter, iteration or it followed by key/value pairs; "
            f"this log's counter is {'named ' + repr(word) if word else 'not named'}, so it is not read generically"
        )
    stem = "mine"
    out.append(
        f"to read it, write a pattern set from these shapes and check it:\n"
        f"  logparse patterns new {path} -o {stem}.toml\n"
        f"  logparse patterns test .   (in the folder of {stem}.toml)\n"
        f"  logparse analyze {path} --patterns . --format {stem}"
    )
    return "\n".join(out)


def describe_keys(sh: Shape, km: keymap_mod.KeyMap, pairs: Any = None) -> list[tuple[str, str]]:
    """(printed key, where it goes) for the numbers of a step shape's example line."""
    found: list[tuple[str, str]] = []
    if pairs is not None:
        raw = [(m.group("key").strip(), m.group("value")) for m in pairs.finditer(sh.example)]
    else:
        raw = [(sh.label(i), sh.values[i][0]) for i in range(len(sh.values)) if sh.label(i)]
    for key, value in raw:
        if km.ignored(key):
            found.append((key, "the step counter"))
            continue
        mapping = km.lookup(key, "step")
        if mapping is not None:
            found.append((key, mapping.column))
            continue
        try:
            _, unit = keymap_mod.split_quantity(value)
        except ValueError:
            continue
        found.append((key, f"kept as {keymap_mod.column_name('x_', key, unit)}"))
    return found


# ------------------------------------------------------------------------------------------------
# new pattern set


@dataclass
class Field:
    group: str
    column: str
    scale: float = 1.0
    type: str = "float"
    scope: str | None = None
    invert: bool = False

    def value(self, text: str) -> Any:
        """The value of a printed number (the tokenizer's, separators and all), as the sample expects it."""
        if self.type == "int":
            return int(text.replace(",", ""))
        v, _ = keymap_mod.split_quantity(text)
        if self.invert:
            v = 1.0 / v if v else math.nan
        return v * self.scale if self.scale != 1.0 else v

    def toml(self) -> str:
        parts = [f'column = "{self.column}"']
        if self.scope:
            parts.append(f'scope = "{self.scope}"')
        if self.type != "float":
            parts.append(f'type = "{self.type}"')
        if self.scale != 1.0:
            parts.append(f"scale = {self.scale!r}")
        if self.invert:
            parts.append("invert = true")
        return "{ " + ", ".join(parts) + " }"


def _scale(mapping: keymap_mod.Mapping, unit: str | None, texts: list[str]) -> float:
    """The factor from a printed value in `unit` (or the key's own unit) to its column: one of that unit in
    the column's units, by the generic reading's own conversion (keymap.to_quantity), so that `mem 61.2 GB`
    is 61.2 GiB in the set written as in the generic reading (GB is binary: synonyms.toml [rules] memory)."""
    if texts:  # a bare whole memory figure is MiB (keymap.Mapping.for_value)
        mapping = mapping.for_value(texts[0])
    u = unit or mapping.key_unit
    if mapping.units == "percent":
        if u in ("%", "pct", "percent"):
            return 0.01
        finite = [keymap_mod.split_quantity(t)[0] for t in texts if _finite(t)]
        return 0.01 if finite and max(finite) > 1 else 1.0
    if u is None:
        return 1.0
    try:
        return keymap_mod.to_quantity(f"1{u}", mapping.units)
    except ValueError:  # a unit that does not fit the column: the value as printed, as before
        return 1.0


def _finite(t: str) -> bool:
    try:
        return math.isfinite(keymap_mod.split_quantity(t)[0])
    except ValueError:
        return False


def _scoped(column: str) -> tuple[str, str | None]:
    for base in SCOPED_COLUMNS:
        if column == base:
            return base, "global"
        if column in (f"{base}_per_gpu",):
            return base, "per_gpu"
    if column == "reported_tflops_per_gpu":
        return "reported_tflops", "per_gpu"
    return column, None


def _ident(text: str) -> str:
    s = regex.sub(r"[^a-z0-9]+", "_", keymap_mod.normalize(text)).strip("_")
    return s if s and s[0].isalpha() else f"n_{s}" if s else "n"


def _line_spec(sh: Shape, km: keymap_mod.KeyMap) -> tuple[str, list[Field], list[str | None]]:
    """The regex of a step shape and its fields (one per number; None for a number left unused)."""
    fields: list[Field] = []
    groups: list[str | None] = []
    used: set[str] = set()
    stamp = _stamp_numbers(sh)
    if stamp:
        fields.append(Field("timestamp", "timestamp", type="timestamp"))
        used.add("timestamp")
    for i, texts in enumerate(sh.values):
        label, unit = sh.label(i), sh.unit(i)
        f: Field | None = None
        if i < stamp:
            groups.append(None)  # part of the timestamp
            continue
        if i == sh.counter:
            f = Field("step", "step", type="int")
        elif sh.counter is not None and i == sh.counter + 1 and sh.literals[i].strip() == "/":
            f = Field("progress_total", "progress_total", type="int")
        elif label:
            mapping = km.lookup(label, "step")
            if mapping is not None and mapping.column not in {x.column for x in fields}:
                column, scope = _scoped(mapping.column)
                scale = 1.0 if mapping.invert else _scale(mapping, unit, texts)
                f = Field(_ident(label), column, scale * mapping.factor, scope=scope, invert=mapping.invert)
                if mapping.type == "int":
                    f.type = "int"
            elif mapping is None and not km.ignored(label):
                f = Field(_ident(label), keymap_mod.column_name("x_", label, unit))
        if f is not None:
            name = f.group
            k = 2
            while name in used or name in ("key", "value"):
                name, k = f"{f.group}_{k}", k + 1
            f.group = name
            used.add(name)
            fields.append(f)
            groups.append(name)
        else:
            groups.append(None)
    parts = [r"^\s*"]
    for i, lit in enumerate(sh.literals):
        if 0 < i < stamp or (i == 0 and stamp):
            if i == 0:  # the timestamp's numbers and the text between them: one group
                parts.append(_literal_rx(lit.strip()) + f"(?P<timestamp>{TS_RX})")
            continue
        if i == stamp and stamp:
            lit = lit[_stamp_tail(sh) :]  # the end of the timestamp (an offset, fractional seconds) is in it
        text = lit.lstrip() if i == 0 else lit
        text = text.rstrip() if i == len(sh.literals) - 1 else text
        parts.append(_literal_rx(text))
        if i < len(groups):
            g = groups[i]
            counter = g in ("step", "progress_total")
            parts.append(f"(?P<{g}>{INT_RX if counter else NUMBER_RX})" if g else f"(?:{NUMBER_RX})")
    parts.append(r"\s*$")
    return "".join(parts), fields, groups


def _stamp_numbers(sh: Shape) -> int:
    """How many of the shape's first numbers a timestamp at the start of its lines holds (0: none)."""
    m = _TS_START.match(sh.example)
    if m is None or sh.literals[0].strip() not in ("", "["):
        return 0
    return sum(1 for _, end in number_spans(sh.example) if end <= m.end(1))


def _stamp_tail(sh: Shape) -> int:
    """How much of the literal after the timestamp's last number still belongs to it (`+08:00` after seconds)."""
    m = _TS_START.match(sh.example)
    assert m is not None
    last_end = [end for _, end in number_spans(sh.example) if end <= m.end(1)][-1]
    return m.end(1) - last_end


def _literal_rx(text: str) -> str:
    out = []
    for piece in regex.split(r"(\s+)", text):
        if not piece:
            continue
        out.append(r"\s+" if piece.isspace() else regex.escape(piece, special_only=True))
    return "".join(out)


def _toml_str(s: str) -> str:
    """A TOML literal string when it can be one (regexes stay readable), else a basic string."""
    if "'''" not in s and not s.endswith("'") and "\n" not in s:
        return f"'''{s}'''"
    return '"' + _escape(s) + '"'


def _escape(s: str) -> str:
    return s.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n").replace("\t", "\\t")


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    if isinstance(v, (int, float)):
        return repr(v)
    return '"' + _escape(str(v)) + '"'


def new_pattern_set(path: str, name: str, sets: dict[str, PatternSet]) -> tuple[str, list[str]]:
    """The TOML text of a starting pattern set for `path`, and notes on what it read."""
    if not regex.fullmatch(r"[a-z][a-z0-9_.-]*", name):
        raise UsageError(f"{name!r} is not a pattern set name: use lower-case letters, digits, _ . -")
    if name in sets and Path(sets[name].source_file).resolve().parent == shipped_dir().resolve():
        raise UsageError(f"{name!r} is the name of a shipped pattern set; pick another with --name")
    shapes, n = read_shapes(path)
    steps = step_shapes(shapes)
    if not steps:
        raise LogparseError(
            f"{path}: no line shape repeats with a growing counter, so there is no step line to build a set "
            f"from; run `logparse patterns explain {path}` to see its shapes"
        )
    km = keymap_mod.load()
    notes: list[str] = []
    lines_toml: list[str] = []
    samples_toml: list[str] = []
    detect: list[str] = []
    taken: set[str] = set()
    for sh in steps[:6]:
        rx, fields, groups = _line_spec(sh, km)
        named = [f.column for f in fields if f.column not in ("step", "progress_total", "timestamp")]
        main = next((c for c in named if not c.startswith("x_")), named[0] if named else "values")
        lname = _ident(f"step_{main}")
        while lname in taken:
            lname += "_"
        taken.add(lname)
        if not detect:
            detect.append(regex.sub(r"\(\?P<\w+>", "(?:", rx))
        body = [
            "[[line]]",
            f'name = "{lname}"',
            'kind = "step"',
            'step = "optimizer"',
            f"# {sh.count} lines like line {sh.first_line}; the counter is number {sh.counter + 1}"
            + (f" (after {sh.counter_word!r})" if sh.counter_word else ""),
            f"regex = {_toml_str(rx)}",
        ]
        for f in fields:
            body.append(f"fields.{f.group} = {f.toml()}")
        lines_toml.append("\n".join(body))
        for line_no, text in sh.examples[:2]:
            literals, numbers = split(text)
            expect = {}
            stamp = _TS_START.match(text) if groups and groups[0] is None and fields[0].column == "timestamp" else None
            if stamp is not None:
                expect["timestamp"] = to_timestamp(stamp.group(1))
            for f, g in ((f, g) for g in groups if g for f in fields if f.group == g):
                idx = groups.index(g)
                if _finite(numbers[idx]) or f.type == "int":
                    expect[f.column if not f.scope or f.scope == "global" else f"{f.column}_per_gpu"] = (
                        f.value(numbers[idx])
                    )
            exp = ", ".join(f"{_key(k)} = {_toml_value(v)}" for k, v in expect.items())
            samples_toml.append(
                f'[[sample]]  # line {line_no} of {Path(path).name}\nline = "{_escape(text)}"\n'
                f'pattern = "{lname}"\nexpect = {{ {exp} }}'
            )
        mapped = [
            f"{(sh.label(groups.index(f.group)) if f.group in groups else '') or f.group} -> {f.column}"
            for f in fields
            if f.column != "step"
        ]
        notes.append(f"{lname}: {sh.count} lines, {', '.join(mapped) or 'no values'}")
    config_toml, config_samples, config_notes = _config_lines(path, sets, km)
    lines_toml += config_toml
    samples_toml += config_samples
    notes += config_notes
    header = [
        f"# A starting pattern set for {Path(path).name}, written by `logparse patterns new` from its most common",
        "# line shapes. Check the columns and the scales, then `logparse patterns test DIR`. Every key and column",
        "# name: the JSON Schema `logparse patterns schema` prints; how to write a set: docs/writing-a-pattern-set.md",
        "# in the logparse repository.",
        "# Throughputs are taken as the whole job's unless the key says per GPU; edit scope if that is wrong.",
        "",
        "[format]",
        f'name = "{name}"',
        f'title = "{name} (from {Path(path).name})"',
        f"detect = [{_toml_str(detect[0])}]",
    ]
    text = "\n".join(header) + "\n\n" + "\n\n".join(lines_toml) + "\n\n" + "\n\n".join(samples_toml) + "\n"
    notes += _first_reads(text, path, steps[0])
    return text, notes


def _shown(key: str, value: Any) -> str:
    if key == "timestamp" and isinstance(value, float):
        from datetime import datetime, timezone

        return datetime.fromtimestamp(value, timezone.utc).isoformat(timespec="milliseconds")
    return f"{value:.12g}" if isinstance(value, float) else str(value)  # the printed digits, not float noise


def _first_reads(text: str, path: str, sh: Shape) -> list[str]:
    """What the written set reads from the first lines of its main shape, for the user to check by eye, and any
    sample whose values the set does not read from whole printed numbers (the tokenizer's reading)."""
    from ..core.tomlfile import tomllib  # tomli before Python 3.11
    from .sets import parse_pattern_set, sample_failures

    try:
        ps = parse_pattern_set(tomllib.loads(text), path)
    except Exception as exc:  # the writer's own bug: say so rather than write a set that cannot load
        raise LogparseError(f"{path}: the pattern set written for this log does not load ({exc})") from None
    out = ["what it reads from the first lines (check these against the log):"]
    for line_no, example in sh.examples[:3]:
        hit = ps.match(example)
        values = {} if hit is None else {k: v for k, v in hit[1].items() if not k.startswith("__")}
        shown = ", ".join(f"{k}={_shown(k, v)}" for k, v in values.items())
        out.append(f"  line {line_no}: {shown or 'nothing'}")
    out += [f"warning: {p}" for p in sample_failures(ps, whole_numbers=True)]
    return out


def _key(k: str) -> str:
    return k if regex.fullmatch(r"[A-Za-z0-9_-]+", k) else f'"{k}"'


def _config_lines(
    path: str, sets: dict[str, PatternSet], km: keymap_mod.KeyMap
) -> tuple[list[str], list[str], list[str]]:
    """Config lines of the stated-facts set (patterns/stated.toml, read in every log) that give facts in this log
    through the synonym table, with explicit fields for its keys."""
    stated = sets.get("stated")
    if stated is None:
        return [], [], []
    specs = [s for s in stated.lines if s.kind == "config" and s.keymap is not None]
    seen: dict[str, dict[str, str]] = {s.name: {} for s in specs}
    first: dict[str, tuple[int, str, Row]] = {}
    for rec in islice(read_records(path), MAX_RECORDS):
        for spec in specs:
            values = spec.match(rec.text)
            if values is None:
                continue
            mapped = dict(values.mapped)
            if values.problems:
                break
            if mapped:
                seen[spec.name].update(mapped)
                if spec.name not in first:
                    first[spec.name] = (
                        rec.line,
                        rec.text,
                        {k: v for k, v in values.items() if not k.startswith("__")},
                    )
            break
    lines, samples, notes = [], [], []
    for spec in specs:
        keys = seen[spec.name]
        if not keys:
            continue
        body = [
            "[[line]]",
            f'name = "{spec.name}"',
            'kind = "config"',
            f"regex = {_toml_str(spec.regex.pattern)}",
        ]
        if spec.pairs is not None:
            body.append(f"pairs = {_toml_str(spec.pairs.pattern)}")
        for key, fact in keys.items():
            mapping = km.lookup(key, "config")
            vtype = mapping.type if mapping is not None else "int"
            body.append(f'fields.{_key(key)} = {{ column = "{fact}", type = "{vtype}" }}')
        lines.append("\n".join(body))
        line_no, text, expected = first[spec.name]
        exp = ", ".join(f"{_key(k)} = {_toml_value(v)}" for k, v in expected.items())
        samples.append(
            f'[[sample]]  # line {line_no} of {Path(path).name}\nline = "{_escape(text)}"\n'
            f'pattern = "{spec.name}"\nexpect = {{ {exp} }}'
        )
        notes.append(f"{spec.name}: {', '.join(f'{k} -> {v}' for k, v in keys.items())}")
    return lines, samples, notes
