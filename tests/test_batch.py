"""batch and compare."""

from __future__ import annotations

import json
import shutil

import pandas as pd
from click.testing import CliRunner

from logparse.cli import cli
from tests.conftest import SAMPLES, cut_before_its_first_step


def test_batch_indexes_every_log_and_keeps_failures(tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    for name in ("megatron_llama2-7b_8xh100.log", "megatron_resumed_8xh100.log"):
        shutil.copy(SAMPLES / name, runs / name)
    (runs / "broken.log").write_text(cut_before_its_first_step())
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["batch", str(runs), "--hw", "h100", "--out", str(out)])
    assert res.exit_code == 1, res.output  # a run failed: exit 1, after finishing the others
    index = pd.read_csv(out / "index.csv")
    assert set(index["run"]) == {"megatron_llama2-7b_8xh100", "megatron_resumed_8xh100", "broken"}
    broken = index.set_index("run").loc["broken"]
    assert broken["status"] == "error" and "no training step lines" in broken["error"]
    ok = index[index["status"] == "ok"].set_index("run")
    assert (
        ok.loc["megatron_resumed_8xh100", "restarts"] == 1
        and ok.loc["megatron_llama2-7b_8xh100", "dips"] == 2
    )
    assert (ok["mfu"].between(0.445, 0.455)).all()
    assert (out / "megatron_resumed_8xh100" / "report.png").exists()
    assert "2 of 3 runs analyzed" in res.output


def test_compare_by_step_tokens_and_time(tmp_path):
    folder = tmp_path / "a"
    assert (
        CliRunner()
        .invoke(
            cli,
            ["analyze", str(SAMPLES / "megatron_llama2-7b_8xh100.log"), "--hw", "h100", "--out", str(folder)],
        )
        .exit_code
        == 0
    )
    for x in ("step", "tokens", "time"):
        png = tmp_path / f"cmp_{x}.png"
        res = CliRunner().invoke(
            cli,
            [
                "compare",
                str(folder),
                str(SAMPLES / "megatron_resumed_8xh100.log"),
                "--hw",
                "h100",
                "--x",
                x,
                "-o",
                str(png),
            ],
        )
        assert res.exit_code == 0, res.output
        assert png.read_bytes()[:4] == b"\x89PNG"
        assert "megatron_resumed_8xh100" in res.output


def test_batch_keeps_same_named_logs_apart(tmp_path):
    for run_dir in ("2024-09-01", "2024-09-02"):
        (tmp_path / "runs" / run_dir).mkdir(parents=True)
        shutil.copy(SAMPLES / "megatron_llama2-7b_8xh100.log", tmp_path / "runs" / run_dir / "train.log")
    res = CliRunner().invoke(
        cli, ["batch", str(tmp_path / "runs"), "--hw", "h100", "--out", str(tmp_path / "out")]
    )
    assert res.exit_code == 0, res.output
    index = pd.read_csv(tmp_path / "out" / "index.csv")
    assert sorted(index["run"]) == ["2024-09-01_train", "2024-09-02_train"]
    assert (tmp_path / "out" / "2024-09-01_train" / "summary.json").exists()
    # each run's summary (and so its report's title and text) names it as the index does, not "train" twice
    for run in index["run"]:
        summary = json.loads((tmp_path / "out" / run / "summary.json").read_text())
        assert summary["run"] == run
