"""compare: what RUN stands for, labels, the x axes, TensorBoard smoothing, the y range and the table."""

from __future__ import annotations

import json
import shutil

import numpy as np
import pandas as pd
import pytest

from logparse import api
from logparse.batch.compare import compare_runs, expand, smooth
from logparse.report.outputs import write_outputs
from tests import synth
from tests.conftest import SAMPLES, cut_before_its_first_step, run_apart

SEQ = 4096


@pytest.fixture(scope="module")
def two_runs(tmp_path_factory):
    """Two analyze folders: 8 GPUs x 128 sequences a step logged every step, and 16 GPUs x 256 sequences
    a step logged every 2nd step (rows standing for 2 steps)."""
    root = tmp_path_factory.mktemp("runs")
    folders = []
    for name, gpus, batch, interval in (("small", 8, 128, 1), ("big", 16, 256, 2)):
        text, _ = synth.megatron_log(
            synth.Spec(steps=80, gpus=gpus, global_batch=batch, log_interval=interval, warmup=5, seed=3)
        )
        log = root / f"{name}.log"
        log.write_text(text)
        write_outputs(api.analyze(str(log), hw="h100"), root / name)
        folders.append(root / name)
    return folders


def test_debiased_ema_by_hand():
    # w = 0.5: 0.5/0.5 = 1; (0.25 + 1)/0.75 = 1.6667; (0.625 + 1.5)/0.875 = 2.4286
    assert smooth([1, 2, 3], 0.5) == pytest.approx([1, 1.6667, 2.4286], abs=1e-4)
    # a NaN is skipped: it stays NaN and does not count towards the debias
    got = smooth([1, float("nan"), 2], 0.5)
    assert got[0] == 1 and np.isnan(got[1]) and got[2] == pytest.approx(1.25 / 0.75)
    assert list(smooth([4.0, 1.0, 7.0], 0)) == [4.0, 1.0, 7.0]


def test_different_gpu_counts_share_a_tokens_axis(two_runs, tmp_path):
    small, big = two_runs
    res = compare_runs([small, big], x="tokens", output=tmp_path / "c.png", metrics=["mfu"])
    assert set(res.curves["mfu"]) == {"small", "big"} and res.xlabel == "tokens (billions)"
    # x = cumulative tokens from each run's own tokens per step; the big run's rows stand for 2 steps
    s = res.curves["mfu"]["small"].set_index(pd.read_csv(small / "steps.csv")["step"])
    b = res.curves["mfu"]["big"].set_index(pd.read_csv(big / "steps.csv")["step"])
    assert json.loads((small / "summary.json").read_text())["tokens_per_step"] == pytest.approx(
        128 * SEQ, rel=1e-5
    )
    assert json.loads((big / "summary.json").read_text())["tokens_per_step"] == pytest.approx(
        256 * SEQ, rel=1e-5
    )
    assert s.loc[10, "x"] == 10 * 128 * SEQ and s.loc[80, "x"] == 80 * 128 * SEQ
    assert b.loc[10, "x"] == 10 * 256 * SEQ and b.loc[80, "x"] == 80 * 256 * SEQ
    # both in one panel, whose x axis spans both runs' tokens
    assert (res.png.read_bytes()[:4]) == b"\x89PNG"
    table = res.table.set_index("run")
    assert table.loc["small", "gpus"] == 8 and table.loc["big", "gpus"] == 16


def test_table_deltas_are_the_relative_differences_of_the_stable_figures(two_runs, tmp_path):
    small, big = two_runs
    res = compare_runs([small, big], output=tmp_path / "cmp.png")
    assert res.csv == tmp_path / "cmp.csv"
    table = pd.read_csv(res.csv).set_index("run")
    a = json.loads((small / "summary.json").read_text())["stable"]
    b = json.loads((big / "summary.json").read_text())["stable"]
    for col, key in (
        ("mfu", "mfu_mean"),
        ("tokens_per_s_per_gpu", "tokens_per_s_per_gpu"),
        ("step_time_s", "step_time_s"),
    ):
        assert table.loc["big", f"{col}_change"] == pytest.approx((b[key] - a[key]) / a[key], rel=1e-9)
        assert table.loc["small", f"{col}_change"] == 0
    assert table.loc["big", "stable_window"] == f"{b['start_step']}..{b['end_step']}"
    assert table.loc["small", "mfu"] == pytest.approx(a["mfu_mean"])


def test_smooth_zero_draws_the_raw_values_and_smoothing_draws_the_ema(two_runs, tmp_path):
    small, _ = two_runs
    raw_mfu = pd.read_csv(small / "steps.csv")["mfu"].to_numpy() * 100
    res = compare_runs([small], output=tmp_path / "raw.png", metrics=["mfu"], smoothing=0)
    drawn = res.drawn["mfu"]["small"]
    assert np.allclose(drawn[np.isfinite(drawn)], raw_mfu[np.isfinite(raw_mfu)])
    res = compare_runs([small], output=tmp_path / "sm.png", metrics=["mfu"], smoothing=0.6)
    drawn = res.drawn["mfu"]["small"]
    assert np.allclose(drawn[np.isfinite(drawn)], smooth(raw_mfu, 0.6)[np.isfinite(raw_mfu)])


def test_the_first_step_does_not_set_the_y_range(two_runs, tmp_path):
    small, _ = two_runs
    st = pd.read_csv(small / "steps.csv")["step_time_s"]
    res = compare_runs([small], output=tmp_path / "c.png", metrics=["step_time_s"])
    lo, hi = res.ylims["step_time_s"]
    assert st.iloc[0] > hi  # the first step (compilation) is far above
    assert lo < st.median() < hi


def test_same_named_runs_get_unique_labels_and_label_overrides(tmp_path):
    logs = []
    for d in ("a", "b"):
        (tmp_path / d).mkdir()
        logs.append(tmp_path / d / "train.log")
        shutil.copy(SAMPLES / "megatron_llama2-7b_8xh100.log", logs[-1])
    res = compare_runs(logs, output=tmp_path / "c.png", options={"hw": "h100"}, metrics=["mfu"])
    assert list(res.table["run"]) == ["a_train", "b_train"]
    # analyze folders both named train
    for d, log in zip(("a", "b"), logs, strict=True):
        write_outputs(api.analyze(str(log), hw="h100"), tmp_path / "out" / d / "train")
    folders = [tmp_path / "out" / d / "train" for d in ("a", "b")]
    res = compare_runs(folders, output=tmp_path / "d.png", metrics=["mfu"])
    assert list(res.table["run"]) == ["a_train", "b_train"]
    res = compare_runs(folders, output=tmp_path / "e.png", metrics=["mfu"], labels=["before", "after"])
    assert list(res.table["run"]) == ["before", "after"]
    assert set(res.curves["mfu"]) == {"before", "after"}


def test_batch_folder_and_index_csv_expand_to_the_same_runs(tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    shutil.copy(SAMPLES / "megatron_llama2-7b_8xh100.log", runs / "one.log")
    shutil.copy(SAMPLES / "megatron_resumed_8xh100.log", runs / "two.log")
    (runs / "broken.log").write_text(cut_before_its_first_step())
    out = tmp_path / "out"
    run_apart(["batch", str(runs), "--hw", "h100", "--out", str(out)])  # broken.log: a row with an error
    assert set(pd.read_csv(out / "index.csv")["status"]) == {"ok", "error"}
    assert expand(out) == expand(out / "index.csv") == [out / "one", out / "two"]
    a = compare_runs([out], output=tmp_path / "a.png", metrics=["mfu"])
    b = compare_runs([out / "index.csv"], output=tmp_path / "b.png", metrics=["mfu"])
    assert list(a.table["run"]) == list(b.table["run"]) == ["one", "two"]
    pd.testing.assert_frame_equal(a.table, b.table)


def test_a_run_without_a_metric_is_left_out_with_a_note(two_runs, tmp_path):
    small, _ = two_runs
    bare = tmp_path / "bare"
    shutil.copytree(small, bare)
    steps = pd.read_csv(bare / "steps.csv").drop(columns=["loss", "timestamp"])
    steps.to_csv(bare / "steps.csv", index=False)
    res = compare_runs([small, bare], x="time", output=tmp_path / "c.png")
    assert res.missing == {"loss": ["bare"]} and set(res.curves["loss"]) == {"small"}
    t = res.table.set_index("run")
    assert t.loc["bare", "notes"] == "no loss"
    assert t.loc["small", "time_from"].startswith("timestamps")
    assert t.loc["bare", "time_from"].startswith("cumulative step time")
    # without timestamps: cumulative step time x step span
    x = res.curves["mfu"]["bare"]["x"].to_numpy()
    assert x[-1] == pytest.approx(steps["step_time_s"].sum())


def test_time_axis_includes_the_restart_gap(tmp_path):
    res = compare_runs(
        [SAMPLES / "megatron_resumed_8xh100.log"],
        x="time",
        output=tmp_path / "c.png",
        options={"hw": "h100"},
        metrics=["mfu"],
    )
    a = api.analyze(str(SAMPLES / "megatron_resumed_8xh100.log"), hw="h100")
    x = res.curves["mfu"]["megatron_resumed_8xh100"]["x"].to_numpy()
    assert x[-1] > a.steps["step_time_s"].sum() + 600  # the gap counts in wall time
    ts = a.steps["timestamp"]  # UTC datetimes
    wall = (ts.iloc[-1] - ts.iloc[0]).total_seconds()
    assert x[-1] == pytest.approx(wall + a.steps["step_time_s"].iloc[0])


def test_cli_prints_the_table_and_writes_it_beside_the_png(two_runs, tmp_path):
    small, big = two_runs
    png = tmp_path / "cmp.png"
    res = run_apart(
        [
            "compare",
            str(small),
            str(big),
            "--x",
            "tokens",
            "--metric",
            "mfu",
            "--metric",
            "step_time_s",
            "--smooth",
            "0.3",
            "--label",
            "eight",
            "-o",
            str(png),
        ]
    )
    assert res.exit_code == 0, res.stderr
    assert png.exists() and (tmp_path / "cmp.csv").exists()
    lines = res.stdout.splitlines()
    assert lines[0].split()[:3] == ["run", "hardware", "GPUs"]
    assert lines[1].split()[0] == "eight" and lines[2].split()[0] == "big"
    assert "ref" in lines[1]
    bad = run_apart(["compare", str(small), "--label", "x", "--label", "y", "-o", str(png)])
    assert bad.exit_code == 2 and "2 labels for 1 runs" in bad.stderr


def test_target_tokens_gives_each_runs_days_to_train(tmp_path):
    """--target-tokens (offered by compare as by analyze) projects each run's time to that many tokens:
    1e12 tokens at the generator's true cluster rate, from a log and from an analyzed folder alike."""
    truth = json.loads((SAMPLES / "megatron_llama2-7b_8xh100.truth.json").read_text())
    days = 1e12 / truth["tokens_per_s"] / 86400  # hand calculation: about 150 days
    log = SAMPLES / "megatron_llama2-7b_8xh100.log"
    folder = tmp_path / "analyzed"
    assert (
        run_apart(["analyze", str(log), "--gpus", "8", "--hw", "h100", "--out", str(folder), "-q"]).exit_code
        == 0
    )
    png = tmp_path / "c.png"
    res = run_apart(
        [
            "compare",
            str(log),
            str(folder),
            "--label",
            "log",
            "--label",
            "folder",
            "--target-tokens",
            "1e12",
            "-o",
            str(png),
        ]
    )
    assert res.exit_code == 0, res.stderr
    table = pd.read_csv(tmp_path / "c.csv")
    assert table["days_to_target"].tolist() == pytest.approx([days, days], rel=0.005)
    header, first = res.stdout.splitlines()[:2]
    assert "days to 1e+12 tok" in header and f"{table['days_to_target'][0]:.1f}" in first
    without = run_apart(["compare", str(folder), "-o", str(png)])
    assert "days to" not in without.stdout and "days_to_target" not in pd.read_csv(tmp_path / "c.csv")
    bad = run_apart(["compare", str(folder), "--target-tokens", "0", "-o", str(png)])
    assert bad.exit_code == 2 and "--target-tokens must be positive" in bad.stderr


def test_ref_takes_a_label_the_run_as_given_or_its_position(two_runs, tmp_path, monkeypatch):
    """--ref names the reference run by its label, by the RUN as the user typed it (or another spelling of
    that path), or by its position in the table counted from 1; the table's changes are then against it."""
    small, big = two_runs
    monkeypatch.chdir(small.parent)
    png = str(tmp_path / "c.png")
    for ref, chosen in (("big", "big"), ("./big/", "big"), (str(big), "big"), ("2", "big"), ("1", "small")):
        res = run_apart(["compare", "small", "big", "--ref", ref, "-o", png])
        assert res.exit_code == 0, (ref, res.stderr)
        assert f"reference: {chosen}" in res.stdout, (ref, res.stdout)


def test_a_ref_that_names_no_run_or_two_is_a_usage_error_before_any_work(two_runs, tmp_path, monkeypatch):
    small, big = two_runs
    monkeypatch.chdir(small.parent)
    png = tmp_path / "c.png"
    # labels given in the other order: "2" is the first run's label and the second run's position
    for argv, said in (
        (["--ref", "3"], "no run has that label, path or position"),
        (["--ref", "nope"], "no run has that label, path or position"),
        (["--label", "2", "--label", "1", "--ref", "2"], "names 2 runs"),
    ):
        res = run_apart(["compare", "small", "big", *argv, "-o", str(png)])
        assert res.exit_code == 2, res.stderr
        (line,) = res.stderr.splitlines()
        assert line.startswith("error: --ref") and said in line
        assert "a run's label (" in line and "a RUN as given (small, big)" in line and "from 1 to 2" in line
        assert not png.exists()
