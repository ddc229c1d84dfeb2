"""The pattern-set schema (logparse/pattern_set.schema.json): valid, in step with schema.py, met by every
shipped set, and its errors are one line naming the file, the pattern and the key."""

from __future__ import annotations

import subprocess
import sys

import pytest
from jsonschema import Draft202012Validator

from logparse.core.errors import PatternError
from logparse.core.schema import (
    EVENT_KINDS,
    FACTS,
    LINE_KINDS,
    SCOPED_COLUMNS,
    SCOPES,
    STEP_COLUMNS,
    VALUE_TYPES,
    scoped_name,
)
from logparse.core.tomlfile import read_toml
from logparse.patterns import keymap
from logparse.patterns import schema as pattern_schema
from logparse.patterns import sets as patterns
from tests.conftest import TOY_SET

SCHEMA = pattern_schema.schema()
SHIPPED = sorted(patterns.shipped_dir().glob("*.toml"))

GOOD = TOY_SET  # a valid user set, changed one key at a time below


def test_the_schema_is_valid_json_schema_and_ships_in_the_package():
    Draft202012Validator.check_schema(SCHEMA)
    assert SCHEMA["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert pattern_schema.SCHEMA_FILE.parent.name == "patterns"  # logparse/patterns/, the package
    assert pattern_schema.SCHEMA_FILE.parent.parent.name == "logparse"


@pytest.mark.parametrize("path", SHIPPED, ids=lambda p: p.stem)
def test_every_shipped_set_validates_against_the_schema(path):
    data = read_toml(path)
    errors = [e.message for e in Draft202012Validator(SCHEMA).iter_errors(data)]
    assert errors == []


def _enum(name: str) -> set[str]:
    return set(SCHEMA["$defs"][name]["enum"])


@pytest.mark.parametrize(
    "definition,vocabulary",
    [
        (
            "step_column",
            set(STEP_COLUMNS)
            | set(SCOPED_COLUMNS)
            | {scoped_name(b, s) for b in SCOPED_COLUMNS for s in SCOPES},
        ),
        ("fact", set(FACTS)),
        ("event_kind", set(EVENT_KINDS)),
        ("line_kind", set(LINE_KINDS)),
        ("value_type", set(VALUE_TYPES)),
        ("scope", set(SCOPES)),
    ],
)
def test_the_schema_enums_are_those_of_schema_py(definition, vocabulary):
    # schema.py is the vocabulary; the JSON is static so that editors see the same names. When this
    # fails, copy the names below into $defs/<definition>/enum of logparse/pattern_set.schema.json.
    got = _enum(definition)
    assert got == vocabulary, f"add {sorted(vocabulary - got)}, remove {sorted(got - vocabulary)}"


def test_the_units_enum_is_that_of_keymap_py():
    units = SCHEMA["$defs"]["step_field"]["properties"]["units"]["enum"]
    assert set(units) == set(keymap.UNITS)


def _load(tmp_path, body: str):
    path = tmp_path / "mine.toml"
    path.write_text(body)
    return patterns.load_file(path)


def _error(tmp_path, body: str) -> str:
    with pytest.raises(PatternError) as info:
        _load(tmp_path, body)
    message = str(info.value)
    assert "\n" not in message and message.startswith(str(tmp_path / "mine.toml") + ": ")
    return message.removeprefix(str(tmp_path / "mine.toml") + ": ")


@pytest.mark.parametrize(
    "change,message",
    [
        # unknown keys, at every level
        (
            ("detect = [", "prioroty = 1\ndetect = ["),
            "[format]: unknown key 'prioroty' (allowed: name, title, description, detect, priority, role, "
            "composes, reported)",
        ),
        (
            ('kind = "step"', 'kind = "step"\nknd = 1'),
            "[[line]] \"iteration\": unknown key 'knd' (allowed: name, ",
        ),
        (
            ("scale = 0.001", "scale = 0.001, colum = 1"),
            "[[line]] \"iteration\": fields.ms: unknown key 'colum' ",
        ),
        (
            ("expect = {", "expct = 1\nexpect = {"),
            "[[sample]] #1: unknown key 'expct' (allowed: line, expect, pattern)",
        ),
        # wrong types
        (
            ("detect = [", 'priority = "high"\ndetect = ['),
            "[format] priority: must be an integer, not a string",
        ),
        (
            ("scale = 0.001", 'scale = "x"'),
            '[[line]] "iteration": fields.ms.scale: must be a number, not a string',
        ),
        (
            ("detect = ['^toy step']", "detect = 'a string'"),
            "[format] detect: must be a list, not a string",
        ),
        (
            ('kind = "step"', 'kind = "steps"'),
            '[[line]] "iteration": kind: the value is not one of step, config',
        ),
        # a regex group that names no field
        (
            ("(?P<ms>", "(?P<host>\\w+) (?P<ms>"),
            "[[line]] \"iteration\": regex: group 'host' names no field and no canonical column",
        ),
        # names from schema.py
        (
            ('column = "step_time_s"', 'column = "step_tme_s"'),
            "[[line]] \"iteration\": fields.ms: unknown column for a step line (did you mean 'step_time_s'?)",
        ),
        (
            ('kind = "step"', 'kind = "event"'),
            "[[line]] \"iteration\": missing key 'event' (one of checkpoint_save, ",
        ),
    ],
)
def test_a_broken_set_fails_with_one_line_naming_file_pattern_and_key(tmp_path, change, message):
    body = GOOD.replace(*change)
    assert body != GOOD
    assert _error(tmp_path, body).startswith(message)


def test_unit_on_a_field_is_refused_not_ignored(tmp_path):
    # `unit` was accepted and ignored; no shipped set used it. A unit is said with scale, or with units
    # for values that print their unit.
    message = _error(tmp_path, GOOD.replace("scale = 0.001", 'unit = "ms"'))
    assert message.startswith("[[line]] \"iteration\": fields.ms: unknown key 'unit'")
    assert "scale (ms: 0.001" in message


def test_the_reported_and_composes_tables_have_a_declared_shape(tmp_path):
    head = "detect = ['^toy step']"
    reported = (
        f"{head}\n[format.reported]\nframework = 'Toy'\nformulas = ['palm']\ncounts_recompute = false\n"
        "peak_tflops = 312.0\nnote = 'x'\n[format.reported.columns.reported_tflops_per_gpu]\n"
        "formulas = ['megatron']\ncounts_recompute = true\n"
        "[format.composes.deepspeed]\nname = 'toy-deepspeed'\ntitle = 'Toy on DeepSpeed'\nwhy = 'both'\n"
    )
    ps = _load(tmp_path, GOOD.replace(head, reported))
    assert ps.composes["deepspeed"].name == "toy-deepspeed"
    for change, message in [
        ("formulas = ['palm']", "[format.reported] formulas: must not be empty"),
        ("peak_tflops = 312.0", "[format.reported] peak_tflops: must be greater than 0"),
        ("note = 'x'", "[format.reported]: unknown key 'noet'"),
        ("columns.reported_tflops_per_gpu", "[format.reported] columns: 'reported_tflops_per_gpuu' is not"),
        (
            "counts_recompute = true",
            "[format.reported.columns.reported_tflops_per_gpu] counts_recompute: must be",
        ),
        ("name = 'toy-deepspeed'", "[format.composes.deepspeed]: missing key 'name'"),
    ]:
        broken = {
            "formulas = ['palm']": "formulas = []",
            "peak_tflops = 312.0": "peak_tflops = 0",
            "note = 'x'": "noet = 'x'",
            "columns.reported_tflops_per_gpu": "columns.reported_tflops_per_gpuu",
            "counts_recompute = true": "counts_recompute = 'yes'",
            "name = 'toy-deepspeed'": "nam = 'toy-deepspeed'",
        }[change]
        assert _error(tmp_path, GOOD.replace(head, reported.replace(change, broken))).startswith(message)


def test_a_field_is_a_table(tmp_path):
    message = _error(tmp_path, GOOD.replace('{ column = "step_time_s", scale = 0.001 }', '"step_time_s"'))
    assert message == (
        "[[line]] \"iteration\": fields.ms: must be a table, not 'step_time_s' "
        '(write fields.ms = { column = "step_time_s" })'
    )


def test_patterns_test_on_a_users_folder_is_one_line_error_and_exit_1(tmp_path):
    (tmp_path / "mine.toml").write_text(GOOD.replace("scale = 0.001", "scale = 0.001, colum = 1"))
    res = subprocess.run(
        [sys.executable, "-m", "logparse", "patterns", "test", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert res.returncode == 1
    assert "Traceback" not in res.stdout + res.stderr
    fails = [line for line in res.stdout.splitlines() if line.startswith("FAIL")]
    assert fails == [
        f"FAIL {tmp_path / 'mine.toml'}: [[line]] \"iteration\": fields.ms: unknown key 'colum' (allowed: column, "
        "type, scale, offset, suffix, invert, scope, units, missing, aggregate, window, smoothing, alpha, list, per)"
    ]
    assert res.stderr.strip().splitlines() == ["error: 1 pattern file(s) have failing samples"]


def test_patterns_schema_says_where_the_schema_is_and_copies_it(tmp_path):
    from click.testing import CliRunner

    from logparse.cli import cli

    res = CliRunner().invoke(cli, ["patterns", "schema"])
    assert res.exit_code == 0 and res.output.strip() == str(pattern_schema.SCHEMA_FILE)
    res = CliRunner().invoke(cli, ["patterns", "schema", "-o", str(tmp_path)])
    assert res.exit_code == 0 and "#:schema ./pattern_set.schema.json" in res.output
    assert (tmp_path / "pattern_set.schema.json").read_bytes() == pattern_schema.SCHEMA_FILE.read_bytes()
