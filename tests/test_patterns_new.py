"""`logparse patterns new`: the set it writes goes where -o says (its folder made), reads a value's unit as the
generic reading does, and points the user at files that exist."""

from __future__ import annotations

import re

import pytest

from logparse import api
from logparse.patterns import keymap
from tests.conftest import ROOT, run_apart


def _loop(memory: str) -> str:
    """A custom loop's lines: a step counter, then key/value pairs, memory printed as `memory`."""
    return "".join(
        f"step {i} loss {2.5 - i / 100:.2f} lr 1e-4 mem {memory} time 0.{50 + i}s\n" for i in range(1, 7)
    )


@pytest.mark.parametrize(
    ("memory", "gib"),
    [
        # GB and MB are binary, as the code that prints them divides (synonyms.toml [rules] memory)
        ("61.2 GB", 61.2),
        ("61.2GB", 61.2),
        ("512 MB", 0.5),
        ("61.2 GiB", 61.2),
        ("3086", 3086 / 1024),  # a bare whole figure is MiB (mmengine's "memory: 3086")
    ],
)
def test_the_set_written_reads_units_as_the_generic_reading_does(tmp_path, write_log, memory, gib):
    log = write_log(_loop(memory))
    out = tmp_path / "sets" / "mine" / "mine.toml"  # a folder that does not exist yet
    res = run_apart(["patterns", "new", str(log), "-o", str(out)])
    assert res.exit_code == 0, res.stderr
    assert out.is_file()
    assert run_apart(["patterns", "test", str(out.parent)]).exit_code == 0
    mine = api.parse(log, patterns=(str(out.parent),), format="mine")
    generic = api.parse(log)
    assert list(mine["step"]) == list(range(1, 7))
    assert mine["memory_gib"].tolist() == pytest.approx([gib] * 6, rel=1e-12)
    assert generic["memory_gib"].tolist() == pytest.approx([gib] * 6, rel=1e-12)
    # the unit is not part of the next key: `time 0.51s` is the step time, 0.51 s
    assert mine["step_time_s"].tolist() == pytest.approx([0.5 + i / 100 for i in range(1, 7)])


def test_the_unit_after_a_value_is_the_generic_readings():
    """shapes.py reads a value's unit with keymap.UNIT_AFTER; patterns/generic.toml spells the same units."""
    generic = (ROOT / "patterns" / "generic.toml").read_text()
    assert f"(?:\\s?(?:{keymap.WORD_UNITS})|{keymap.LETTER_UNITS})" in generic
    for text, unit in (
        (" GB time", "GB"),
        ("s |", "s"),
        ("% x", "%"),
        (" ms", "ms"),
        (" s", None),
        ("sx", None),
    ):
        m = keymap.UNIT_AFTER.match(text)
        assert (m.group("unit") if m else None) == unit, text


def test_the_set_written_names_files_and_commands_that_exist(tmp_path, write_log):
    log = write_log(_loop("61.2 GB"))
    out = tmp_path / "mine.toml"
    assert run_apart(["patterns", "new", str(log), "-o", str(out)]).exit_code == 0
    header = "".join(line for line in out.read_text().splitlines(keepends=True) if line.startswith("#"))
    named = re.findall(r"\b((?:logparse|docs|patterns)/[\w./-]+\.(?:py|md|json|toml))\b", header)
    assert named, header
    for path in named:
        assert (ROOT / path).is_file(), path
    commands = re.findall(r"`logparse ([a-z]+ [a-z]+)", header)
    assert "patterns schema" in commands
    for command in commands:
        assert run_apart([*command.split(), "--help"]).exit_code == 0, command


def test_an_output_that_cannot_be_a_pattern_file_is_a_usage_error(tmp_path, write_log):
    log = write_log(_loop("61.2 GB"))
    for bad in (tmp_path / "mine.txt", tmp_path):
        res = run_apart(["patterns", "new", str(log), "-o", str(bad)])
        assert res.exit_code == 2 and res.stderr.startswith("error: ") and len(res.stderr.splitlines()) == 1
