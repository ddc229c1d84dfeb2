"""Usage errors exit 2, input that cannot be analysed exits 1, each with one line `error: ...` on stderr (click's
convention, and the README's): an option given a value it cannot take is refused before any log is read, for
every command that takes it; the same value in a run folder's logparse.toml is that run's error in a batch."""

from __future__ import annotations

import json

import pandas as pd
import pytest

from logparse import api
from logparse.core.errors import OptionError, UsageError
from tests import synth
from tests.conftest import SAMPLES, run_apart

MEGATRON = str(SAMPLES / "megatron_llama2-7b_8xh100.log")

BAD = [
    (["--gpus", "0"], "--gpus must be at least 1 (got 0)"),
    (["--hw", "h1000"], "unknown hardware 'h1000'"),
    (["--format", "foo"], "unknown format 'foo'"),
    (["--model", "llama9"], "unknown model preset 'llama9'"),
    (["--peak-tflops", "inf"], "--peak-tflops must be a finite number (got inf)"),
    (["--peak-tflops", "nan"], "--peak-tflops must be a finite number (got nan)"),
    (["--gpu-hour-cost", "nan"], "--gpu-hour-cost must be a finite number"),
    (["--params", "1e400"], "--params must be a finite number (got inf)"),  # beyond a double: inf
    (["--seq-len", "0"], "--seq-len must be at least 1"),
    (["--global-batch", "-1"], "--global-batch must be at least 1"),
    (["--segment", str(2**64)], "--segment is too large"),  # no 64-bit count holds it
    (["--gpus", "2000000"], "--gpus must be 1 to 1,048,576 (got 2000000)"),  # no job has two million GPUs
    (["--hw", "h100", "--dtype", "fp8", "--peak-tflops", "0"], "--peak-tflops must be positive"),
    (["--window", "5"], "give the first and last step as A:B"),
    (["--last", "3", "--skip", "2"], "not several"),
    (["--formula", "palm", "--flops-per-token", "1e9"], "not both"),
    (["--gpus", "eight"], "'eight' is not a valid integer"),  # click's own checks: the same one line
    (["--bogus"], "No such option '--bogus'"),
]


@pytest.mark.parametrize(("args", "said"), BAD, ids=[" ".join(a) for a, _ in BAD])
def test_a_bad_option_value_is_a_usage_error(tmp_path, args, said):
    out = tmp_path / "out"
    res = run_apart(["analyze", MEGATRON, *args, "--out", str(out)])
    assert res.exit_code == 2, res.stderr
    (line,) = res.stderr.splitlines()
    assert line.startswith("error: ") and said in line, line
    assert not res.stdout and not out.exists()


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["parse", MEGATRON, "--hw", "h1000"], "unknown hardware"),
        (["parse", MEGATRON, "-o", "steps.txt"], "unknown output type"),
        (["compare", MEGATRON, "--peak-tflops", "nan"], "finite"),
        (["compare", MEGATRON, "--smooth", "1"], "--smooth"),
        (["batch", str(SAMPLES), "--model", "llama9"], "unknown model preset"),
        (["flops", "--model", "llama2-7b", "--seq-len", "0"], "--seq-len must be at least 1"),
        (["flops", "--params", "inf", "--seq-len", "4096"], "--params must be a finite number"),
        (["patterns", "explain", MEGATRON, "--format", "foo"], "unknown format"),
        (["analyze", MEGATRON, MEGATRON, "--hw", "h1000"], "unknown hardware"),  # once, not once a log
    ],
)
def test_every_command_refuses_a_bad_value_in_one_line_with_exit_2(tmp_path, monkeypatch, argv, said):
    monkeypatch.chdir(tmp_path)
    res = run_apart(argv)
    assert res.exit_code == 2, res.stderr
    (line,) = res.stderr.splitlines()
    assert line.startswith("error: ") and said in line, line
    assert list(tmp_path.iterdir()) == []  # nothing written: no batch index, no compare.png


def test_input_that_cannot_be_analysed_exits_1(tmp_path):
    readme = tmp_path / "notes.txt"
    readme.write_text("# How to train\n\nRun `python train.py` and watch the loss go down.\n")
    res = run_apart(["analyze", str(readme), "--out", str(tmp_path / "out")])
    assert res.exit_code == 1
    (line,) = res.stderr.splitlines()
    assert line.startswith("error: ")


def test_the_api_refuses_the_same_values_naming_the_keyword():
    with pytest.raises(OptionError, match="peak_tflops must be a finite number") as caught:
        api.check_options({"peak_tflops": float("inf")})
    assert isinstance(
        caught.value, TypeError
    )  # a value of the wrong kind or range: a TypeError to Python code
    with pytest.raises(UsageError, match="unknown hardware 'h1000'"):
        api.check_options({"hw": "h1000"})


def test_a_sidecars_bad_value_is_that_runs_error_and_the_batch_goes_on(tmp_path):
    """Each run folder's logparse.toml goes through the same table: a NaN price, an infinite peak, a GPU
    count no 64-bit integer holds and an unknown device each fail their own run, named in the index, while
    the run beside them is analysed; summary.json stays JSON (no bare NaN)."""
    text, _ = synth.megatron_log(synth.Spec(steps=40, warmup=5, seed=1))
    sidecars = {
        "nan_cost": "gpu_hour_cost = nan",
        "inf_peak": "peak_tflops = inf",
        "huge_gpus": f"gpus = {2**63}",
        "no_device": 'hw = "h1000"',
        "fine": 'hw = "h100"',
    }
    for name, toml in sidecars.items():
        (tmp_path / "runs" / name).mkdir(parents=True)
        (tmp_path / "runs" / name / "train.log").write_text(text)
        (tmp_path / "runs" / name / "logparse.toml").write_text(toml + "\n")
    out = tmp_path / "out"
    res = run_apart(["batch", str(tmp_path / "runs"), "--out", str(out), "--jobs", "1"])
    assert res.exit_code == 1
    index = pd.read_csv(out / "index.csv").set_index("run")
    assert len(index) == len(sidecars)
    errors = {run: str(index.loc[run, "error"]) for run in index.index if index.loc[run, "status"] != "ok"}
    ok = [run for run in index.index if index.loc[run, "status"] == "ok"]
    assert ok == ["fine_train"], errors
    assert "gpu_hour_cost: must be a finite number" in errors["nan_cost_train"]
    assert "peak_tflops: must be a finite number" in errors["inf_peak_train"]
    assert "gpus: " in errors["huge_gpus_train"] and str(2**63) not in errors["huge_gpus_train"]
    # a sidecar's values never reach the page: the key stands for the value
    assert "hw: names no hardware logparse knows" in errors["no_device_train"]
    assert "h1000" not in errors["no_device_train"]
    json.loads((out / "fine_train" / "summary.json").read_text(), parse_constant=pytest.fail)
