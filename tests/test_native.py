"""_native.fit (the fast lane's shape test in C) answers as the shape's regex and Python's conversions do.

fit may leave a line to the regex (code 2); when it answers, the answer must be the regex's (0: no fullmatch) and
the values Python's (1: int(), float(), numpy's datetime64[us] of each group's text, bit for bit). The truth here
is the `re` module, int(), float() and numpy, over the lines of shipped and fixture logs, the same lines with
characters changed at random, and lists of texts those functions treat in unusual ways.
"""

from __future__ import annotations

import random
import struct
import warnings
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from logparse.frame import chunks, fastlane
from logparse.frame.fastlane import Lane, Native
from logparse.frame.matcher import Matcher
from logparse.patterns.sets import load_sets
from logparse.read.reader import ReadStats

from . import synth

pytestmark = pytest.mark.skipif(
    fastlane._native is None, reason="logparse.frame._native is not built (no C compiler at install)"
)

ROOT = Path(__file__).resolve().parent.parent
SETS = load_sets()


def _fit(native: Native, lines: list[str]) -> tuple[np.ndarray, np.ndarray]:
    codes, values, _ = native.fit(lines, np.arange(len(lines), dtype=np.int64))
    return codes, values


def _bits(value: float) -> bytes:
    return struct.pack("<d", value)


# ---------------------------------------------------------------------------------------------------------------
# conversions: a shape "<" int "|" float ">" read by hand-made Native, against int() and float()

INTS = [
    "7",
    " 7",
    "7 ",
    "\t7",
    "+7",
    "-7",
    "-0",
    "+0",
    "007",
    "1_000",
    "\u0663",
    "\xa07",
    "7\xa0",
    "",
    " ",
    "+",
    "-",
    "--7",
    "7-",
    "1e3",
    "0x10",
    "999999999999999999",
    "1000000000000000000",
    "9223372036854775807",
    "12345678901234567890",
    " -123 ",
    "1 2",
]
FLOATS = [
    "1e5",
    "1E+05",
    ".5",
    "5.",
    ".",
    "e5",
    "1e",
    "1e+",
    "1e-",
    "1ex",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "infinity",
    "1_0",
    "0.1",
    "0.30000000000000004",
    "123456789012345678901234567890",
    "1e400",
    "-1e400",
    "1e-400",
    "4.9e-324",
    "2.4703282292062327e-324",
    "2.2250738585072014e-308",
    "-0.0",
    "0",
    "-0",
    "9007199254740993",
    "1.7976931348623157e308",
    "1.8e308",
    " 3.25 ",
    "\t3.25",
    "3.25\xa0",
    "+.5e-3",
    "1.000000E-04",
    "6746.4",
    "0.000000000000000000000000000001",
    "1" * 40 + "e-40",
    "0." + "0" * 30 + "1e30",
    "1.e5",
    "12e",
    "\u0663.5",
    "1e0000000000000000000000005",
    "100000000000000000000000",
    "1e22",
    "1e23",
    "123456789012345e-22",
    "1234567890123456e-22",
    "8.98846567431158e307",
]


def _python_int(text: str) -> int | None:
    try:
        value = int(text)
    except ValueError:
        return None
    return value if -(2**63) <= value < 2**63 else None


def _python_float(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


def _check_conversions(ints: list[str], floats: list[str]) -> int:
    """fit over "<i|f>" lines: each answer (code 0 or 1) as the regex and int()/float() give it; the lines
    answered 1."""
    native = Native(("<", "|", ">"), b"if", ((0, "i", "i", 1.0, 0.0), (1, "f", "f", 1.0, 0.0)))
    lines = [f"<{i}|{f}>" for i in ints for f in floats]
    codes, values = _fit(native, lines)
    answered = 0
    for line, code, row in zip(lines, codes.tolist(), values, strict=True):
        i_text, f_text = line[1:-1].split("|", 1)
        assert code in (1, 2), (line, code)  # (every line fits "<[^|]*|[^>]*>": none may be answered 0)
        if code == 2:
            continue
        answered += 1
        want_i, want_f = _python_int(i_text), _python_float(f_text)
        assert want_i is not None and want_f is not None and np.isfinite(want_f), line
        assert int(row[0]) == want_i, line
        assert _bits(row[1:2].view(np.float64)[0]) == _bits(want_f), line
    return answered


def test_ints_and_floats_are_what_int_and_float_make_of_them():
    answered = _check_conversions(INTS, FLOATS)
    # every pair of texts Python reads is answered, not left to it, but those with an underscore, a character past
    # ASCII or an int of more than 18 digits (fit would otherwise do nothing)
    ints = [t for t in INTS if _python_int(t) is not None]
    floats = [t for t in FLOATS if _python_float(t) is not None and np.isfinite(_python_float(t))]
    ints = [t for t in ints if t.isascii() and "_" not in t and len(t.strip().lstrip("+-")) <= 18]
    floats = [t for t in floats if t.isascii() and "_" not in t]
    assert answered == len(ints) * len(floats) > 300


def test_random_floats_printed_every_way_read_as_float_reads_them():
    rng = random.Random(24)
    texts = []
    for _ in range(4000):
        value = rng.choice(
            [rng.random(), rng.uniform(-1e6, 1e6), 10 ** rng.uniform(-300, 300), rng.expovariate(1)]
        )
        form = rng.choice(["{:.6E}", "{:.12g}", "{!r}", "{:.3f}", "{:.17e}", "{:.1f}", "{:.20f}", "{:e}"])
        texts.append(form.format(value))
    native = Native(("<", ">"), b"f", ((0, "f", "f", 1.0, 0.0),))
    codes, values = _fit(native, [f"<{t}>" for t in texts])
    floats = values[:, 0].view(np.float64)
    # every text is answered but those longer than fit's 127-character buffer ("{:.20f}" of a number past 1e107)
    assert all((code == 1) == (len(text) < 128) for text, code in zip(texts, codes.tolist(), strict=True))
    assert (codes == 1).mean() > 0.9
    for text, code, got in zip(texts, codes.tolist(), floats.tolist(), strict=True):
        if code == 1:
            assert _bits(got) == _bits(float(text)), text


def test_timestamps_are_numpys_microseconds():
    texts = [
        "2024-09-03 16:20:22",
        "2024-09-03 16:20:22.123456",
        "2024-02-29 00:00:00",
        "2023-02-29 00:00:00",
        "2000-02-29 23:59:59",
        "1900-02-29 00:00:00",
        "2024-01-01 24:00:00",
        "2016-12-31 23:59:60",
        "2024-13-01 00:00:00",
        "2024-00-10 00:00:00",
        "2024-04-31 00:00:00",
        "0000-01-01 00:00:00",
        "0001-01-01 00:00:00",
        "9999-12-31 23:59:59.999999",
        "1969-12-31 23:59:59.500000",
        "1970-01-01 00:00:00",
        "2024-09-03T16:20:22",
        "2024-09-03 16:20:22.123",
        "2024-09-03 16:20:22,123456",
        " 2024-09-03 16:20:22",
        "2024-9-03 16:20:22",
        "\u0662024-09-03 16:20:22",
        "1582-10-10 12:00:00",
    ]
    native = Native(("[", "]"), b"t", ((0, "ts", "t", 1.0, 0.0),))
    codes, values = _fit(native, [f"[{t}]" for t in texts])
    for text, code, micros in zip(texts, codes.tolist(), values[:, 0].tolist(), strict=True):
        assert code in (1, 2), text
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # (numpy's note on a text that names no time zone)
                want = int(np.array([text], dtype="datetime64[us]").astype(np.int64)[0])
        except ValueError:
            want = None
        read = fastlane._ISO.fullmatch(text + "\n") is not None and want is not None
        # answered exactly when _column reads it (ISO, a valid date), but year 0, which Python's datetime refuses
        assert (code == 1) == (read and text.isascii() and not text.startswith("0000")), text
        if code == 1:
            assert micros == want, text


# ---------------------------------------------------------------------------------------------------------------
# shapes learned from real lines: fit against the regex and LaneShape.convert, on the lines and on mutations


def _learned(lines: list[str], sets: list) -> list[fastlane.LaneShape]:
    matcher = Matcher(sets)
    worker = chunks._Worker(matcher, False, Lane(matcher))
    for line in lines:
        worker.line(line, ReadStats())
    assert worker.lane is not None
    return [shape for group in worker.lane.shapes.values() for shape in group if shape.native is not None]


MUTATIONS = list("0123456789.eE+-_ \t|:[]nafi,/x") + [
    "\u0663",
    "\xa0",
    "\xe9",
    "\n",
    "[default",
    "[default3]:",
]


def _mutants(line: str, rng: random.Random, n: int) -> list[str]:
    out = []
    for _ in range(n):
        chars = list(line)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(chars) + 1)
            what = rng.random()
            if what < 0.4 and at < len(chars):
                chars[at] = rng.choice(MUTATIONS)
            elif what < 0.7:
                chars.insert(at, rng.choice(MUTATIONS))
            elif at < len(chars):
                del chars[at]
        out.append("".join(chars))
    return out


def _agree(shape: fastlane.LaneShape, lines: list[str]) -> np.ndarray:
    """fit's codes for `lines`, each answer checked against the regex and LaneShape.convert."""
    assert shape.native is not None
    codes, values, again = shape.native.fit(lines, np.arange(len(lines), dtype=np.int64))
    for k, (line, code) in enumerate(zip(lines, codes.tolist(), strict=True)):
        m = shape.regex.fullmatch(line)
        if code == 0:
            assert m is None, (line, shape.regex.pattern)
        elif code == 1:
            assert m is not None, (line, shape.regex.pattern)
            # another rank's "[<role>" after the line's first character (own_record's look), for a prefixed shape
            assert bool(again[k]) == (shape.prefixed and line.find(shape.tag, 1) >= 0), line
            want = shape.convert([m.groups()])
            assert want is not None, line
            got, ranks = shape.native.columns(values[k : k + 1])
            assert list(got) == list(want), line
            for column in want:
                assert np.asarray(got[column]).dtype == np.asarray(want[column]).dtype, (line, column)
                assert np.asarray(got[column]).tobytes() == np.asarray(want[column]).tobytes(), (line, column)
            assert ranks == ([int(m.group(1))] if shape.prefixed else None), line
    return codes


def _log_lines(ranks: int) -> list[str]:
    lines = []
    for path in sorted((ROOT / "sample_logs").glob("megatron*.log")):
        lines += path.read_text(errors="replace").splitlines()
    text, _ = synth.megatron_log(synth.Spec(steps=300, seed=3, all_ranks=ranks > 1, gpus=8))
    return lines + text.splitlines()


@pytest.mark.parametrize("ranks", [1, 8])
def test_learned_shapes_answer_as_their_regexes_and_conversions(ranks):
    lines = _log_lines(ranks)
    shapes = _learned(lines, [SETS["megatron"], *(s for s in SETS.values() if s.role == "common")])
    assert shapes and (ranks == 1 or any(shape.prefixed for shape in shapes))
    rng = random.Random(ranks)
    real, mutated = [], []
    for shape in shapes:
        fitting = [line for line in lines if shape.regex.fullmatch(line)]
        real.append(_agree(shape, fitting))
        mutants = [m for line in rng.sample(fitting, min(40, len(fitting))) for m in _mutants(line, rng, 25)]
        mutated.append(_agree(shape, mutants))
    assert (np.concatenate(real) == 1).mean() > 0.9  # the log's lines are read by fit, not left to the regex
    codes = np.concatenate(mutated)
    assert (codes == 0).sum() > 100 and (codes == 1).sum() > 100


def test_every_shipped_logs_shapes_answer_as_their_regexes():
    """Every shape the lane learns from the shipped and fixture logs (each pattern set on its own log)."""
    paths = sorted(
        [*(ROOT / "sample_logs").glob("*.log"), *(ROOT / "tests" / "data" / "public").glob("*.log")]
    )
    sets = list(SETS.values())
    seen = 0
    rng = random.Random(7)
    for path in paths:
        lines = path.read_text(errors="replace").splitlines()
        for shape in _learned(lines, sets):
            fitting = [line for line in lines if shape.regex.fullmatch(line)]
            _agree(shape, fitting + [m for line in fitting[:5] for m in _mutants(line, rng, 10)])
            seen += 1
    assert seen >= 10


# ---------------------------------------------------------------------------------------------------------------
# scan: what a range's bytes hold, as the decoded text and the reader's regex say


def test_scan_finds_what_the_text_holds():
    from logparse.read.reader import _MAYBE_REMNANT

    rng = random.Random(5)
    alphabet = [
        b"a",
        b" ",
        b"\n",
        b"\r",
        b"\x1b",
        b"<",
        b"[",
        b"]",
        b"m",
        b"0",
        b"7",
        b";",
        b"\xd9\xa3",
        b"\xff",
    ]
    blocks = [b"", b"\n", b"[0m", b"x[12;3m", b"[\xd9\xa3m", b"abc\ndefgh\n", b"[\xff", "[\u0663m".encode()]
    blocks += [b"".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40))) for _ in range(3000)]
    sure = 0
    for block in blocks:
        longest, control, lt, remnant = fastlane._native.scan(block)
        text = block.decode("utf-8", errors="replace")
        assert longest == max(len(line) for line in block.split(b"\n")), block
        assert longest >= max(len(line) for line in text.split("\n")), block
        assert control == ("\r" in text or "\x1b" in text), block
        assert lt == ("<" in text), block
        want = _MAYBE_REMNANT.search(text) is not None
        if remnant == 2:
            assert not block.isascii(), block  # (only a byte past ASCII leaves it to the regex)
        else:
            sure += 1
            assert remnant == want, block
    assert sure > 2000


def test_again_finds_another_ranks_prefix_after_the_first_character():
    """fit's `again` for a shape of torchrun's prefix: "[<role>" after the line's first character, as own_record
    looks for it (str.find from 1), on lines that fit (a text group may hold another rank's output)."""
    native = Native(("[default", "]:x=", " y=", ""), b"r-i", ((2, "y", "i", 1.0, 0.0),))
    lines = [
        "[default0]:x=abc y=5",
        "[default0]:x=[default1]:zz y=5",
        "[default0]:x=[defaul y=5",
        "[default12]:x=q[default y=7",
        "[default0]:x= y=1[default",  # (the int group does not convert: left to Python, again not looked at)
    ]
    codes, values, again = native.fit(lines, np.arange(len(lines), dtype=np.int64))
    assert codes.tolist() == [1, 1, 1, 1, 2]
    assert again.tolist() == [line.find("[default", 1) >= 0 for line in lines[:4]] + [False]
    assert values[:4, 0].tolist() == [0, 0, 0, 12] and values[:4, 2].tolist() == [5, 5, 5, 7]


def test_fit_refuses_what_it_cannot_read_as_a_regex_would():
    """A shape fit cannot walk (a literal count that is not one more than the groups, a kind it does not know, an
    empty literal between groups, a digit group followed by a digit) and a line index outside the list are a
    ValueError or IndexError, never a reading."""
    codes, values = np.empty(1, dtype=np.uint8), np.empty((1, 2), dtype=np.int64)
    at = np.zeros(1, dtype=np.int64)
    for literals, kinds in (
        (("a",), b"i"),
        (("a", "b"), b"x"),
        (("a", "", "c"), b"ii"),
        (("[default", "5]:", ""), b"ri"),
        (("[default", "", ""), b"r-"),
    ):
        with pytest.raises(ValueError):
            fastlane._native.fit(["a1b"], at, literals, kinds, codes, values)
    with pytest.raises(IndexError):
        fastlane._native.fit(["a1b"], np.array([1], dtype=np.int64), ("a", "b"), b"i", codes, values)


def test_texts_are_what_percent_formatting_makes():
    """_native.texts (steps.csv's floats) gives '%.12g' % value for every float64, "" for NaN: random values of
    every magnitude, subnormals, signed zeros, infinities, and the values printed at 12 digits' edge."""
    rng = np.random.default_rng(12)
    values = np.concatenate(
        [
            rng.standard_normal(20000) * 10.0 ** rng.integers(-320, 300, 20000),
            np.frombuffer(
                rng.bytes(8 * 20000), dtype=np.float64
            ),  # (any bit pattern: NaNs of every payload too)
            [0.0, -0.0, np.inf, -np.inf, np.nan, 5e-324, 1.7976931348623157e308, 0.1, 2 / 3, 999999999999.5],
            [
                float(f"{d}e{e}")
                for d in ("9.999999999995", "1.0000000000005", "123456789012.5")
                for e in (-5, 0, 7)
            ],
        ]
    )
    want = ["" if v != v else "%.12g" % v for v in values.tolist()]  # noqa: UP031 (the % formatting is the truth)
    assert fastlane._native.texts(values, 12) == want
    three = ["" if v != v else "%.3g" % v for v in values[:100].tolist()]  # noqa: UP031
    assert fastlane._native.texts(values[:100], 3) == three


def test_rows_join_as_str_join_does():
    """_native.rows (steps.csv's lines) gives "".join(",".join(row) + end for row in zip(*fields, strict=True)) for ASCII
    texts, a str enum's by its text as str.join takes it; None (the caller joins) for a text past ASCII."""
    from enum import Enum

    class Phase(str, Enum):
        STABLE = "stable"

    rng = random.Random(3)
    fields = [
        [rng.choice(["", "1", "2.5e-05", "megatron.iteration", '"q,"']) for _ in range(500)] for _ in range(7)
    ]
    fields.append([Phase.STABLE] * 500)
    for end in ("\n", ",128,x\n"):
        assert fastlane._native.rows(fields, end) == "".join(
            ",".join(row) + end for row in zip(*fields, strict=True)
        )
    assert fastlane._native.rows([["a"], ["\u00e9"]], "\n") is None
    assert fastlane._native.rows([["a", "b"], ["c"]], "\n") is None  # (lists of unequal length: the caller's)
    assert fastlane._native.rows([[], []], "\n") == ""


def test_decimals_a_log_printed_are_formatted_as_percent_formatting_does():
    """The quick path of _native.texts and rows (a float that a decimal of at most `precision` digits rounds to,
    written without Python's formatter) gives '%.<p>g' % value: decimals of 0 to 15 places at every magnitude
    from 1e-6 to 1e14, the edges of the plain notation (1e-4, 1e12), halves, and the same negated."""
    rng = np.random.default_rng(24)
    parts = [np.round(rng.random(6000) * 10.0 ** rng.integers(-6, 15, 6000), d) for d in range(16)]
    edges = [
        1e-4,
        9.9999e-5,
        1.00001e-4,
        1e12,
        999999999999.0,
        999999999999.5,
        1e11,
        0.1 + 0.2,
        123456789012.0,
    ]
    values = np.concatenate([*parts, edges, [12345678901.25, 5e-5, 2.5, 0.00015, 1e15, 4503599627370497.0]])
    values = np.r_[values, -values]
    for p in (1, 3, 6, 12, 15, 17):
        want = ["%.*g" % (p, v) for v in values.tolist()]  # noqa: UP031 (the % formatting is the truth)
        assert fastlane._native.texts(values, p) == want
        assert fastlane._native.rows([("f", values, p)], "\n") == "".join(w + "\n" for w in want)


def test_rows_write_number_columns_as_str_and_percent_formatting_do():
    ints = np.array([0, -1, 7, np.iinfo(np.int64).max, np.iinfo(np.int64).min], dtype=np.int64)
    floats = np.array([1.5, np.nan, -0.0, np.inf, 0.1 + 0.2])
    texts = ["a", "b,c", "", "d", "e"]
    want = "".join(
        f"{t},{i},{'' if f != f else '%.12g' % f};\n"  # noqa: UP031
        for t, i, f in zip(texts, ints.tolist(), floats.tolist(), strict=True)
    )
    assert fastlane._native.rows([texts, ("i", ints), ("f", floats, 12)], ";\n") == want
    # anything else is left to the caller: another dtype, an unknown kind, a length that differs
    for field in (("i", ints.astype(np.uint64)), ("i", floats), ("f", ints, 12), ("f", floats.astype(np.float32), 12),
                  ("x", ints), ("f", floats, 0), ("i", ints[:2])):  # fmt: skip
        assert fastlane._native.rows([texts, field], "\n") is None


def test_rows_write_stamps_as_numpy_does():
    """A ("t", microseconds) column of _native.rows is numpy's datetime_as_string(unit="us") + "+00:00": random
    instants of 1970-9999, the ends, leap days and the turns of centuries; NaT empty; an instant outside those
    years is left to the caller (None)."""
    rng = np.random.default_rng(33)
    days = np.array(
        ["1970-01-01", "2000-02-29", "2000-03-01", "2100-02-28", "2100-03-01", "2400-02-29"], "datetime64[D]"
    )
    edges = np.r_[
        days.astype("datetime64[us]").astype(np.int64),
        np.datetime64("9999-12-31T23:59:59.999999").astype(np.int64),
    ]
    us = np.r_[
        rng.integers(0, 253402300800000000, 50000), edges[1:] - 1, edges
    ]  # (the microsecond before 1970: outside)
    want = "".join(f"{s}+00:00\n" for s in np.datetime_as_string(us.astype("datetime64[us]"), unit="us"))
    assert fastlane._native.rows([("t", us)], "\n") == want
    nat = np.array([np.iinfo(np.int64).min, 0], dtype=np.int64)
    assert fastlane._native.rows([("t", nat), ["a", "b"]], "\n") == ",a\n1970-01-01T00:00:00.000000+00:00,b\n"
    for outside in (-1, 253402300800000000):
        assert fastlane._native.rows([("t", np.array([outside], dtype=np.int64))], "\n") is None


@pytest.mark.parametrize("size", [0, 1, 2, 20, 21, 22, 1000])
def test_running_medians_are_pandas_rolling_medians(size):
    """_native.medians (phases' running median of the log speed) is pandas' centred rolling median with
    min_periods=1, value for value: random values, many ties, short series, windows of 1 to 41."""
    rng = np.random.default_rng(size)
    for values in (
        rng.normal(size=size),
        rng.integers(0, 4, size).astype(float),
        np.round(rng.normal(size=size), 1),
    ):
        for window in (1, 3, 21, 41):
            want = pd.Series(values).rolling(window, center=True, min_periods=1).median().to_numpy()
            out = np.empty(size)
            fastlane._native.medians(values, window, out)
            assert np.array_equal(out, want)
    with pytest.raises(ValueError):
        fastlane._native.medians(np.array([1.0, np.nan]), 3, np.empty(2))
    with pytest.raises(ValueError):
        fastlane._native.medians(np.ones(3), 2, np.empty(3))
