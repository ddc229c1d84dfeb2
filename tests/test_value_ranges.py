"""A number no column can hold is left out and said, never wrapped: a step counter of 2**63 became
-9223372036854775808 (int64 wraps), 2**64 stopped the log on an internal error. A count is whole, at least 0 and
at most 2**53 (a float64, which holds a column with a gap, is exact up to there); a step line whose step counter
is out of that range is left out whole, any other value alone. The one-pass reading and the ranges' (the fast
lane, the C extension's numbers) leave out the same."""

from __future__ import annotations

import math
import re

import pandas as pd
import pytest

from logparse import api
from logparse.frame.assemble import parse_log
from logparse.patterns.sets import load_sets

from . import synth

STEPS = 400


@pytest.fixture(scope="module")
def hostile(tmp_path_factory):
    """A Megatron log of 400 steps where step 150's counter is 2**63, step 220's 2**64, step 300's 2**53 + 1,
    and step 350's consumed samples 2**64; the line of each."""
    text, _ = synth.megatron_log(synth.Spec(steps=STEPS, seed=7))
    lines = text.split("\n")
    where = {}

    def change(step: int, old: str, new: str) -> None:
        at = next(i for i, line in enumerate(lines) if f" iteration {step:8d}/" in line)
        lines[at] = re.sub(old, new, lines[at], count=1)
        where[step] = at + 1

    change(150, r"iteration +150/", f"iteration {2**63}/")
    change(220, r"iteration +220/", f"iteration {2**64}/")
    change(300, r"iteration +300/", f"iteration {2**53 + 1}/")
    change(350, r"consumed samples: +\d+", f"consumed samples: {2**64}")
    path = tmp_path_factory.mktemp("ranges") / "train.log"
    path.write_text("\n".join(lines))
    return path, where


def test_a_step_counter_out_of_range_leaves_its_line_out_and_says_so(hostile):
    path, where = hostile
    run = api.resolve(str(path))
    steps = run.steps["step"].tolist()
    # the three lines whose step cannot be a count are left out; every other step is read as printed
    assert steps == [s for s in range(1, STEPS + 1) if s not in (150, 220, 300)]
    assert min(steps) >= 0 and max(steps) <= STEPS  # nothing wrapped
    assert run.restarts == []  # a counter left out is no counter that went back
    found = [w for w in run.warnings if w.code == "out_of_range"]
    assert len(found) == 1 and found[0].line == where[150]
    assert f"line {where[150]}" in found[0] and str(2**63) in found[0] and found[0].startswith("4 lines")


def test_another_count_out_of_range_is_left_out_alone(hostile):
    path, where = hostile
    steps = api.resolve(str(path)).steps.set_index("step")
    assert math.isnan(steps.at[350, "consumed_samples"])  # the value left out, the step kept
    assert steps.at[349, "consumed_samples"] == 349 * 128  # (the global batch: 128 samples a step)


def test_the_ranges_and_the_fast_lane_leave_out_what_one_pass_does(hostile):
    path, _ = hostile
    sets = load_sets()
    one = parse_log(str(path), sets)
    ranges = parse_log(str(path), sets, jobs=1, chunk_bytes=30_000)
    pd.testing.assert_frame_equal(ranges.rows, one.rows)
    assert [str(w) for w in ranges.warnings] == [str(w) for w in one.warnings]
    assert one.rows["step"].dtype == "int64" and one.rows["consumed_samples"].isna().sum() == 1


def test_a_negative_count_is_left_out(write_log):
    text, _ = synth.megatron_log(synth.Spec(steps=60, seed=2))
    text = re.sub(r"(iteration +40/ +60 \| consumed samples: +)\d+", r"\g<1>-5120", text, count=1)
    run = api.resolve(str(write_log(text)))
    steps = run.steps.set_index("step")
    assert math.isnan(steps.at[40, "consumed_samples"]) and steps.at[41, "consumed_samples"] == 41 * 128
    assert [w.code for w in run.warnings].count("out_of_range") == 1


def test_the_cli_reports_a_step_of_2_to_the_64_in_one_line(hostile, tmp_path):
    from .conftest import run_apart

    path, where = hostile
    res = run_apart(["analyze", str(path), "--hw", "h100", "--out", str(tmp_path / "out")])
    assert res.exit_code == 0, res.stderr
    assert f"first on line {where[150]}" in res.stdout
    assert "-9223372036854775808" not in (tmp_path / "out" / "steps.csv").read_text()
