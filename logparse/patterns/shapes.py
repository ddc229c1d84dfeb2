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
from ..core.schema import Row
from ..core.tomlfile import Table
from ..read.reader import ReadStats, read_records
from . import infer as infer_mod
from . import keymap as keymap_mod
from .keymap import NUMBER_TOKEN as _NUM
from .keymap import number_spans
from .sets import LineSpec, PatternSet, shipped_dir, to_duration, to_timestamp

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
    r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d:\d\d(?:\.\d+|,\d{3}(?![\d.,]))?(?:Z|[+-]\d\d:?\d\d)?"
    r"|\d\d/\d\d/\d{4},? \d\d:\d\d:\d\d(?:\.\d+|,\d{3}(?![\d.,]))?"
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
    """The TOML text of a starting pattern set for `path`, and notes on what it read: the inferred reading's set
    (infer.py: the log's step records, evaluations, checkpoint saves, each line's explicit fields), written out
    under `name`, with two of each line's own lines as samples whose values a plain tokenizer reads off the
    text (keymap.number_spans), not the set's regex."""
    if not regex.fullmatch(r"[a-z][a-z0-9_.-]*", name):
        raise UsageError(f"{name!r} is not a pattern set name: use lower-case letters, digits, _ . -")
    if name in sets and Path(sets[name].source_file).resolve().parent == shipped_dir().resolve():
        raise UsageError(f"{name!r} is the name of a shipped pattern set; pick another with --name")
    head = list(islice(read_records(path), infer_mod.HEAD_RECORDS))
    if not head:
        raise LogparseError(f"{path}: the file has no text lines")
    learnt = infer_mod.infer(infer_mod.file_sample(path, head))
    if learnt is None:
        raise LogparseError(
            f"{path}: no line shape repeats with a growing counter, so there is no step line to build a set "
            f"from; run `logparse patterns explain {path}` to see its shapes"
        )
    km = keymap_mod.load()
    ps = infer_mod.to_set(learnt, None, keep_names=True)  # its lines compiled: which line each example is
    lines_toml: list[str] = []
    samples_toml: list[str] = []
    notes: list[str] = []
    for line in learnt.table["line"]:
        lines_toml.append(_line_toml(line))
        left = sorted({f["column"] for f in line.get("fields", {}).values()} & UNWRITTEN)
        if left:
            notes.append(f"{line['name']}: {', '.join(left)} left out (a pattern set has no column for it)")
        used = learnt.keys.get(line["name"], [])
        if line.get("kind") == "step" and line.get("attach") is None:
            mapped = [f"{key} -> {column}" for _, key, column in used]
            notes.append(f"{line['name']}: {', '.join(mapped) or 'no values'}")
    for rec in learnt.records:
        for line_no, text in rec.shapes[0].examples[:2]:
            hit = ps.match(text)
            if hit is None:
                continue
            spec, _ = hit
            expect = {k: v for k, v in _expected(spec, text).items() if k not in UNWRITTEN}
            exp = ", ".join(f"{_key(k)} = {_toml_value(v)}" for k, v in expect.items())
            samples_toml.append(
                f'[[sample]]  # line {line_no} of {Path(path).name}\nline = "{_escape(text)}"\n'
                f'pattern = "{spec.name}"\nexpect = {{ {exp} }}'
            )
    config_toml, config_samples, config_notes = _config_lines(path, sets, km)
    lines_toml += config_toml
    samples_toml += config_samples
    notes += config_notes
    main = next(ld for ld in learnt.table["line"] if ld.get("kind") == "step" and ld.get("attach") is None)
    detect = _GROUP_NAME.sub("(?:", main["regex"])  # the main step line, its groups unnamed
    header = [
        f"# A starting pattern set for {Path(path).name}, written by `logparse patterns new` from the records its",
        "# own repeated lines show (what the generic reading reads). Check the columns and the scales, then",
        "# `logparse patterns test DIR`. Every key and column name: the JSON Schema `logparse patterns schema`",
        "# prints; how to write a set: docs/writing-a-pattern-set.md in the logparse repository.",
        "# Throughputs are taken as the whole job's unless the key says per GPU; edit scope if that is wrong.",
        "",
        "[format]",
        f'name = "{name}"',
        f'title = "{name} (from {Path(path).name})"',
        f"detect = [{_toml_str(detect)}]",
    ]
    text = "\n".join(header) + "\n\n" + "\n\n".join(lines_toml) + "\n\n" + "\n\n".join(samples_toml) + "\n"
    notes += _first_reads(text, path, learnt.records[0].shapes[0].examples)
    return text, notes


_GROUP_NAME = regex.compile(r"\(\?P<\w+>")


# what the inferred reading reads that a pattern set has no column for: the rank a line prints of itself (a set
# leaves ranks to the launcher's prefix) and the epochs planned (a set states them on a config line)
UNWRITTEN = frozenset(("rank", "epoch_total"))


def _line_toml(line: Table) -> str:
    """A [[line]] of an inferred set as TOML: its keys, then a field a line (those of UNWRITTEN columns left out,
    their groups unnamed)."""
    body = ["[[line]]"]
    for key in (
        "name",
        "kind",
        "event",
        "step",
        "attach",
        "counts_from",
        "whole_run",
        "within_epoch",
        "postfix",
        "note",
    ):
        if key in line:
            body.append(f"{key} = {_toml_value(line[key])}")
    rx = line["regex"]
    for group, spec in line.get("fields", {}).items():
        if spec.get("column") in UNWRITTEN:
            rx = rx.replace(f"(?P<{group}>", "(?:")
    body.append(f"regex = {_toml_str(rx)}")
    for group, spec in line.get("fields", {}).items():
        if spec.get("column") in UNWRITTEN:
            continue
        inner = ", ".join(f"{k} = {_toml_value(v)}" for k, v in spec.items())
        body.append(f"fields.{_key(group)} = {{ {inner} }}")
    return "\n".join(body)


def _expected(spec: LineSpec, text: str) -> Row:
    """What a sample line must give: each field's number as a plain tokenizer finds it in the text (a whole
    printed number, keymap.number_spans), converted as the field says; the place of each field's number comes
    from the line's regex, its value never does (a field whose group is no whole number is left out)."""
    m = spec.regex.search(text)
    out: Row = {}
    if m is None:
        return out
    whole = set(number_spans(text))
    for group, fs in spec.fields.items():
        if group not in m.groupdict() or m.group(group) is None:
            continue
        span = m.span(group)
        printed = text[span[0] : span[1]]
        if fs.type == "timestamp":
            out[fs.column] = to_timestamp(printed)
            continue
        if fs.type == "duration":  # a clock's text (`1d 06h 06m`, `0:01:35`), as sets.to_duration reads it
            out[fs.column] = to_duration(printed) * fs.scale
            continue
        if span not in whole:
            continue
        number = float(printed.replace(",", ""))
        if not math.isfinite(number):
            continue
        if fs.type == "int":
            out[fs.column] = int(printed.replace(",", "")) + int(fs.offset)
            continue
        value = number * fs.scale + fs.offset
        value = (1.0 / value if value else math.nan) if fs.invert else value
        if fs.per is not None:
            # over the steps the line counts: the count's place from the regex, its number from the tokenizer
            if m.groupdict().get(fs.per) is None or m.span(fs.per) not in whole:
                continue
            start, end = m.span(fs.per)
            n = float(text[start:end].replace(",", ""))
            value = value / n if n > 0 else math.nan
        out[fs.column] = value
    return out


def _shown(key: str, value: Any) -> str:
    if key == "timestamp" and isinstance(value, float):
        from datetime import datetime, timezone

        return datetime.fromtimestamp(value, timezone.utc).isoformat(timespec="milliseconds")
    return f"{value:.12g}" if isinstance(value, float) else str(value)  # the printed digits, not float noise


def _first_reads(text: str, path: str, examples: list[tuple[int, str]]) -> list[str]:
    """What the written set reads from the first lines of its main record, for the user to check by eye, and any
    sample whose values the set does not read from whole printed numbers (the tokenizer's reading)."""
    from ..core.tomlfile import tomllib  # tomli before Python 3.11
    from .sets import parse_pattern_set, sample_failures

    try:
        ps = parse_pattern_set(tomllib.loads(text), path)
    except Exception as exc:  # the writer's own bug: say so rather than write a set that cannot load
        raise LogparseError(f"{path}: the pattern set written for this log does not load ({exc})") from None
    out = ["what it reads from the first lines (check these against the log):"]
    for line_no, example in examples[:3]:
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
