"""patterns: every shipped sample parses to its values; bad pattern files fail with the file and field."""

from __future__ import annotations

import math
import time

import pytest

from logparse.core.errors import PatternError
from logparse.patterns import sets as patterns
from tests.conftest import TOY_SET

SHIPPED = sorted(patterns.shipped_dir().glob("*.toml"))


def _samples():
    for path in SHIPPED:
        ps = patterns.load_file(path)
        for i, sample in enumerate(ps.samples):
            yield pytest.param(ps, sample, id=f"{ps.name}-{i + 1}")


def test_the_shipped_sets_are_there():
    assert {p.stem for p in SHIPPED} >= {"megatron", "deepspeed", "hf_trainer", "common"}


@pytest.mark.parametrize("ps,sample", list(_samples()))
def test_every_sample_parses_to_its_stated_values(ps, sample):
    from logparse.read.reader import clean_text

    text, _, _ = clean_text(sample.line)
    hit = ps.match(text)
    assert hit is not None, f"no pattern of {ps.name} matches {sample.line!r}"
    spec, values = hit
    if sample.pattern:
        assert spec.name == sample.pattern
    for key, want in sample.expect.items():
        got = values.get(key)
        assert got is not None, f"{key} missing from {values}"
        if isinstance(want, float):
            assert math.isclose(got, want, rel_tol=1e-9, abs_tol=1e-12), (key, got, want)
        else:
            assert got == want, (key, got, want)


def test_scope_and_units_of_key_fields():
    sets = patterns.load_sets()
    _, v = sets["megatron"].match(
        " iteration        2/  317892 | consumed samples:           64 | elapsed time per iteration (ms): 10154.3 |"
        " samples per second: 3.151 | tokens per gpu per second(tgs): 1613.503 |"
    )
    assert v["step_time_s"] == pytest.approx(10.1543)  # ms -> s
    assert v["samples_per_s"] == 3.151 and "samples_per_s_per_gpu" not in v  # cluster-wide
    assert v["tokens_per_s_per_gpu"] == 1613.503 and "tokens_per_s" not in v  # per GPU
    spec, v = sets["deepspeed"].match(
        "[2022-08-29 06:58:56,176] [INFO] [timer.py:198:stop] 0/20, RunningAvgSamplesPerSec=232.7, "
        "CurrSamplesPerSec=227.4, MemAllocated=0.36GB, MaxMemAllocated=15.06GB"
    )
    assert spec.step == "micro" and v["micro_step"] == 20 and "step" not in v


def _write(tmp_path, body: str, name: str = "mine.toml"):
    path = tmp_path / name
    path.write_text(body)
    return path


GOOD = TOY_SET.replace('name = "iteration"', 'name = "step"')  # its line pattern is toy.step


def test_a_user_set_loads_from_a_folder_and_overrides_by_name(tmp_path, monkeypatch):
    _write(tmp_path, GOOD)
    sets = patterns.load_sets([str(tmp_path)])
    assert "toy" in sets and "megatron" in sets
    monkeypatch.setenv("LOGPARSE_PATTERNS", str(tmp_path))
    assert "toy" in patterns.load_sets()
    _write(tmp_path, GOOD.replace('name = "toy"', 'name = "megatron"'))
    assert patterns.load_sets([str(tmp_path)])["megatron"].source_file.startswith(str(tmp_path))


def test_a_wrong_sample_is_caught_and_named(tmp_path):
    path = _write(tmp_path, GOOD.replace("step_time_s = 1.5", "step_time_s = 15"))
    problems = patterns.sample_failures(patterns.load_file(path))
    assert problems and "step_time_s is 1.5, expected 15" in problems[0]
    with pytest.raises(PatternError, match="mine.toml"):
        patterns.load_sets([str(tmp_path)])


@pytest.mark.parametrize(
    "change,message",
    [
        (("[format]", "[formt]"), "missing the \\[format\\] table"),
        (
            ('kind = "step"', 'kind = "steps"'),
            '\\[\\[line\\]\\] "step": kind: the value is not one of step, config',
        ),
        (('column = "step_time_s"', 'column = "step_tme_s"'), "fields.ms: unknown column for a step line"),
        (("(?P<ms>", "(?P<ms"), '\\[\\[line\\]\\] "step": regex: invalid regex'),
        (("regex = ", "regex = 1 #"), "regex: must be a string, not an integer"),
        (("scale = 0.001", "scale = 'x'"), "fields.ms.scale: must be a number, not a string"),
        (('name = "step"', 'name = ""'), "\\[\\[line\\]\\] #1: name: must not be empty"),
        (("[[sample]]", "[[sampel]]"), "at least one \\[\\[sample\\]\\]"),
        (("detect = [", "detect = 3 #["), "\\[format\\] detect: must be a list, not an integer"),
        (("= 1.5 }", "= 1.5 "), "not valid TOML"),
    ],
)
def test_malformed_pattern_files_name_the_file_and_the_field(tmp_path, change, message):
    path = _write(tmp_path, GOOD.replace(*change))
    with pytest.raises(PatternError, match=message) as info:
        patterns.load_file(path)
    assert "mine.toml" in str(info.value)


def test_a_throughput_without_scope_is_refused(tmp_path):
    body = GOOD.replace(
        'fields.ms = { column = "step_time_s", scale = 0.001 }', 'fields.ms = { column = "tokens_per_s" }'
    )
    with pytest.raises(PatternError, match="per GPU or for the whole job"):
        patterns.load_file(_write(tmp_path, body))


TRAX_SET = """\
[format]
name = "mytrax"
detect = ['^Step +\\d+: Ran ']

[[line]]
name = "step"
kind = "step"
regex = '^Step +(?P<step>\\d+): Ran (?P<_n>\\d+) train steps in (?P<t>[\\d.]+) secs'
fields.t = { column = "step_time_s", per = "_n" }

[[sample]]
line = "Step    100: Ran 99 train steps in 49.50 secs"
expect = { step = 100, step_time_s = 0.5 }
"""


def test_a_field_over_the_steps_its_line_counts_is_read_per_step(tmp_path):
    # google/trax trax/supervised/training.py Loop.run: 'Step % 6d: %s' % (step, 'Ran %d train steps in %0.2f secs'
    # % (n_steps, elapsed_time)), n_steps the steps since the last report
    spec = patterns.load_file(_write(tmp_path, TRAX_SET)).lines[0]
    assert spec.match("Step      1: Ran 1 train steps in 12.00 secs")["step_time_s"] == 12.0
    assert spec.match("Step    300: Ran 100 train steps in 25.00 secs")["step_time_s"] == 0.25
    values = spec.match("Step    300: Ran 0 train steps in 25.00 secs")  # no steps: no time per step
    assert math.isnan(values["step_time_s"]) and "_n" not in values
    with pytest.raises(PatternError, match="fields.t.per: must be a string"):
        patterns.load_file(_write(tmp_path, TRAX_SET.replace('per = "_n"', "per = 2")))
    with pytest.raises(PatternError, match="per names the group"):  # a count of steps divides no whole number
        patterns.load_file(_write(tmp_path, TRAX_SET.replace('per = "_n"', 'per = "_n", type = "int"')))


def test_a_catastrophic_regex_fails_fast_naming_file_and_pattern(tmp_path):
    body = GOOD.replace("regex = '^toy step (?P<step>\\d+) took (?P<ms>[\\d.]+) ms'", "regex = '(a+)+$'")
    ps = patterns.load_file(_write(tmp_path, body))
    start = time.monotonic()
    with pytest.raises(PatternError, match=r"mine.toml: pattern toy.step took longer"):
        ps.match("a" * 5000 + "b")
    assert time.monotonic() - start < 5


@pytest.mark.parametrize(
    "text,value",
    [
        ("1,234.5", 1234.5),
        ("1.064275E+01", 10.64275),
        ("'6.222'", 6.222),
        ("nan", None),
        ("-inf", -math.inf),
        ("-nan(ind)", None),
        ("0", 0.0),
    ],
)
def test_number_parsing(text, value):
    got = patterns.to_number(text)
    if value is None:
        assert math.isnan(got)
    else:
        assert got == value


def test_suffixes_only_where_declared():
    assert patterns.to_number("11.5K", allow_suffix=True) == 11500
    assert patterns.to_number("85.8G", allow_suffix=True) == pytest.approx(85.8e9)
    with pytest.raises(patterns.MalformedValue):
        patterns.to_number("11.5Kb")


def test_a_value_that_does_not_convert_is_flagged_not_dropped():
    ps = patterns.load_sets()["megatron"]
    _, values = ps.match(
        " iteration       20/  500 | consumed samples:   20480 | lm loss: bogus | grad norm: 1.5 |"
    )
    assert math.isnan(values["loss"]) and values["grad_norm"] == 1.5
    assert values.problems and "bogus" in values.problems[0]
    assert set(values) == {
        "step",
        "progress_total",
        "consumed_samples",
        "loss",
        "grad_norm",
    }  # no note is a column


@pytest.mark.parametrize(
    "regex_,literals",
    [
        (r"^toy step (?P<step>\d+) took", ("toy step ",)),
        (r"CUDA out of memory|OutOfMemoryError", ("CUDA out of memory", "OutOfMemoryError")),
        (r"(?:saving|successfully saved) checkpoint at", (" checkpoint at",)),
        (r"(?i)nccl error", None),  # case-insensitive: no prefilter
        (r"^  (?P<key>[a-z_]+) (?:\.+ | )(?P<value>.*)$", None),  # nothing literal enough
        # alternatives with common first letters, which the parser joins before the branch (`s/` then `it|epoch`)
        (r"\d+(?:s/it|s/epoch)\]", ("s/epoch", "s/it")),
    ],
)
def test_required_literals(regex_, literals):
    assert patterns.required_literals(regex_) == literals


def test_the_prefilter_never_hides_a_sample():
    # every shipped sample still matches with the derived literals in force (the samples test
    # above runs with them); and every derived literal really occurs in its samples' lines
    for path in SHIPPED:
        ps = patterns.load_file(path)
        for sample in ps.samples:
            hit = ps.match(
                sample.line.split("]:", 1)[-1] if sample.line.startswith("[default") else sample.line
            )
            if hit and hit[0].literals:
                assert any(lit in sample.line for lit in hit[0].literals)
