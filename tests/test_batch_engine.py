"""batch as a tool: per-run settings (logparse.toml), failures and exit codes, the cache, restarts across
files, and the Dask executor."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pandas as pd
import pytest

import logparse
from logparse.read.attempts import attempt_key, group_attempts
from tests.conftest import SAMPLES, run_apart

MEGATRON = SAMPLES / "megatron_llama2-7b_8xh100.log"
RESUMED = SAMPLES / "megatron_resumed_8xh100.log"
CRASH_LINE = 401  # the resumed log's last line before the job starts again (the NCCL watchdog)


def two_runs(tmp_path: Path) -> Path:
    """A folder `runs` of two run folders, a and b, each holding the Megatron sample as train.log."""
    runs = tmp_path / "runs"
    for name in ("a", "b"):
        (runs / name).mkdir(parents=True)
        shutil.copy(MEGATRON, runs / name / "train.log")
    return runs


def split_at_restart(folder: Path, first: str, second: str) -> tuple[Path, Path]:
    lines = RESUMED.read_text().splitlines(keepends=True)
    assert "Watchdog caught collective operation timeout" in lines[CRASH_LINE - 1]
    assert lines[CRASH_LINE].startswith("using world size")
    folder.mkdir(parents=True, exist_ok=True)
    (folder / first).write_text("".join(lines[:CRASH_LINE]))
    (folder / second).write_text("".join(lines[CRASH_LINE:]))
    return folder / first, folder / second


def batch(*argv: str):
    return run_apart(["batch", *argv, "--jobs", "1"])


def test_sidecar_overrides_the_batch_options_and_is_named_as_the_source(tmp_path):
    runs = two_runs(tmp_path)
    (runs / "a" / "logparse.toml").write_text('gpus = 8\nhw = "h100"\nseq_len = 4096\ndtype = "bf16"\n')
    out = tmp_path / "out"
    res = batch(str(runs), "--hw", "a100", "--gpus", "16", "--out", str(out))
    index = pd.read_csv(out / "index.csv").set_index("run")
    a = json.loads((out / "a_train" / "summary.json").read_text())
    assert a["gpus"] == 8 and a["gpus_source"] == "sidecar"
    assert a["hardware"]["name"] == "h100-sxm" and a["hardware"]["dtype_source"] == "sidecar"
    assert a["facts"]["seq_len"]["source"] == "sidecar"
    assert index.loc["a_train", "gpus_source"] == "sidecar" and index.loc["a_train", "mfu"] == pytest.approx(
        0.45, abs=0.005
    )
    # b has no sidecar: the command line's 16 GPUs and a100 hold, and are said to come from it
    b = json.loads((out / "b_train" / "summary.json").read_text())
    assert b["gpus"] == 16 and b["gpus_source"] == "cli" and b["hardware"]["name"].startswith("a100")
    assert res.exit_code == 0, res.stderr


def test_the_nearest_sidecar_up_to_the_batch_root_applies(tmp_path):
    runs = tmp_path / "runs"
    (runs / "group" / "x").mkdir(parents=True)
    shutil.copy(MEGATRON, runs / "group" / "x" / "train.log")
    (runs / "logparse.toml").write_text('hw = "h100"\ngpus = 4\n')
    (runs / "group" / "logparse.toml").write_text("gpus = 8\n")  # nearer: wins, and alone (no merging)
    (tmp_path / "logparse.toml").write_text("gpus = 1\n")  # above the root: never read
    out = tmp_path / "out"
    res = batch(str(runs), "--hw", "h100", "--out", str(out))
    assert res.exit_code == 0, res.stderr
    s = json.loads((out / "train" / "summary.json").read_text())
    assert s["gpus"] == 8 and s["gpus_source"] == "sidecar" and s["hardware"]["name"] == "h100-sxm"


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("gpu = 8\n", ["'gpu'", "unknown key"]),
        ('gpus = "8"\n', ["gpus", "an integer"]),
        ('dtype = "bf32"\n', ["dtype", "bf16"]),
        ("gpus = = 8\n", ["not valid TOML"]),
    ],
)
def test_a_bad_sidecar_fails_its_run_only_with_one_line_naming_file_and_key(tmp_path, text, words):
    runs = tmp_path / "runs"
    (runs / "good").mkdir(parents=True)
    (runs / "bad").mkdir()
    shutil.copy(MEGATRON, runs / "good" / "megatron.log")
    shutil.copy(MEGATRON, runs / "bad" / "other.log")
    (runs / "bad" / "logparse.toml").write_text(text)
    out = tmp_path / "out"
    res = batch(str(runs), "--hw", "h100", "--out", str(out))
    assert res.exit_code == 1
    index = pd.read_csv(out / "index.csv").set_index("run")
    assert index.loc["megatron", "status"] == "ok" and index.loc["other", "status"] == "error"
    error = index.loc["other", "error"]
    assert str(runs / "bad" / "logparse.toml") in error and "\n" not in error
    assert all(w in error for w in words), error
    failures = res.stderr.strip().splitlines()
    assert len(failures) == 1 and failures[0].startswith("error: other: ") and "logparse.toml" in failures[0]


def test_failures_exit_1_after_the_others_named_on_stderr_and_json_alone_on_stdout(tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    shutil.copy(MEGATRON, runs / "megatron.log")
    # a run cut before its first step (Megatron-LM's argument dump only): a log with nothing to analyze
    (runs / "cut.log").write_text("".join(MEGATRON.read_text().splitlines(keepends=True)[:40]))
    (runs / "notes.log").write_text("not a training log\n")  # not runs: listed apart, not failed
    (runs / "empty.log").write_text("")
    out = tmp_path / "out"
    res = batch(str(runs), "--hw", "h100", "--out", str(out), "--json")
    assert res.exit_code == 1
    index = json.loads(res.stdout)  # stdout is the index and nothing else
    # the runs, failed first; then the files that are not training logs, each a row of its own status
    assert [r["run"] for r in index] == ["cut", "megatron", "empty.log", "notes.log"]
    assert [r["status"] for r in index] == ["error", "ok", "skipped", "skipped"]
    assert [Path(r["source"]).name for r in index[2:]] == ["empty.log", "notes.log"]
    assert index == json.loads((out / "index.json").read_text())
    lines = res.stderr.strip().splitlines()
    assert len(lines) == 1  # no progress bar off a terminal: only the failure
    assert lines[0].startswith("error: cut: ") and "no training step lines" in lines[0]
    assert (out / "megatron" / "summary.json").exists()
    assert list(pd.read_csv(out / "index.csv")["run"]) == ["cut", "megatron"]


def test_index_has_the_warnings_text_beside_their_count(tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    shutil.copy(MEGATRON, runs / "megatron.log")
    out = tmp_path / "out"
    assert batch(str(runs), "--hw", "h100", "--gpus", "16", "--out", str(out)).exit_code == 0
    row = pd.read_csv(out / "index.csv").iloc[0]
    summary = json.loads((out / "megatron" / "summary.json").read_text())
    assert row["warnings"] == len(summary["warnings"]) >= 1
    assert row["warning_texts"] == " | ".join(summary["warnings"])
    assert "--gpus 16 disagrees with the log's world size 8" in row["warning_texts"]
    assert json.loads((out / "index.json").read_text())[0]["warning_texts"] == row["warning_texts"]


def test_a_rerun_reuses_unchanged_runs_and_redoes_changed_ones(tmp_path):
    runs = two_runs(tmp_path)
    out = tmp_path / "out"

    def cached(*extra: str) -> dict[str, bool]:
        res = batch(str(runs), "--hw", "h100", "--out", str(out), *extra)
        assert res.exit_code == 0, res.stderr
        index = pd.read_csv(out / "index.csv")
        assert index["mfu"].between(0.445, 0.455).all()
        return dict(zip(index["run"], index["cached"], strict=True))

    assert cached() == {"a_train": False, "b_train": False}
    assert (out / "a_train" / ".logparse-cache.json").exists()
    first = pd.read_csv(out / "index.csv")
    assert cached() == {"a_train": True, "b_train": True}
    assert pd.read_csv(out / "index.csv").drop(columns="cached").equals(first.drop(columns="cached"))
    st = os.stat(runs / "a" / "train.log")
    os.utime(runs / "a" / "train.log", ns=(st.st_atime_ns, st.st_mtime_ns + 10**9))  # touched
    assert cached() == {"a_train": False, "b_train": True}
    (runs / "b" / "logparse.toml").write_text("gpus = 8\n")  # a sidecar appears
    assert cached() == {"a_train": True, "b_train": False}
    assert cached("--seq-len", "4096") == {"a_train": False, "b_train": False}  # another option
    assert cached("--seq-len", "4096") == {"a_train": True, "b_train": True}
    assert cached("--seq-len", "4096", "--force") == {"a_train": False, "b_train": False}


def test_attempts_are_grouped_by_name_and_ordered_in_time(tmp_path):
    assert attempt_key(Path("train-0.log")) == ("train.log", 0)
    assert attempt_key(Path("slurm-1234.out")) == ("slurm.out", 1234)
    assert attempt_key(Path("log.txt.1")) == ("log.txt", 1)
    assert attempt_key(Path("log.txt")) == ("log.txt", None)
    assert attempt_key(Path("megatron_llama2-7b_8xh100.log")) == ("megatron_llama2-7b_8xh100.log", None)
    # numbered against time: the file named -9 ran first (its first timestamp is earlier)
    first, second = split_at_restart(tmp_path / "job", "slurm-9.out", "slurm-10.out")
    second.rename(tmp_path / "job" / "slurm-2.out")
    shutil.copy(MEGATRON, tmp_path / "job" / "other.log")
    groups = group_attempts(sorted((tmp_path / "job").iterdir()))
    assert groups == [[tmp_path / "job" / "other.log"], [first, tmp_path / "job" / "slurm-2.out"]]


def test_a_log_split_at_its_restart_reads_as_the_single_file(tmp_path):
    first, second = split_at_restart(tmp_path, "train-0.log", "train-1.log")
    whole = logparse.analyze(RESUMED, hw="h100")
    split = logparse.analyze([first, second], hw="h100")
    cols = ["step", "line", "segment", "step_time_s", "tokens_per_s", "mfu"]
    pd.testing.assert_frame_equal(
        whole.steps[cols].reset_index(drop=True), split.steps[cols].reset_index(drop=True)
    )
    for key in ("restarts", "segments", "steps", "warmup_steps", "lines", "dips"):
        assert split.summary[key] == whole.summary[key], key
    assert split.summary["restarts"] == [{**whole.summary["restarts"][0]}]
    assert (
        split.summary["restarts"][0]["at_step"] == 340 and split.summary["restarts"][0]["resumed_from"] == 300
    )
    assert split.summary["stable"]["mfu_mean"] == pytest.approx(whole.summary["stable"]["mfu_mean"])
    assert split.summary["source"] == [str(first), str(second)] and split.summary["run"] == "train"


def test_batch_stitches_the_attempts_of_a_job_unless_told_not_to(tmp_path):
    runs = tmp_path / "runs"
    first, second = split_at_restart(runs / "job", "log.txt", "log.txt.1")
    out = tmp_path / "out"
    res = batch(str(runs), "--hw", "h100", "--out", str(out))
    assert res.exit_code == 0, res.stderr
    index = pd.read_csv(out / "index.csv")
    assert (
        list(index["run"]) == ["job_log"] and index.loc[0, "restarts"] == 1 and index.loc[0, "steps"] == 500
    )
    assert index.loc[0, "source"] == f"{first} + {second}"
    assert json.loads((out / "job_log" / "summary.json").read_text())["source"] == [str(first), str(second)]
    res = batch(str(runs), "--hw", "h100", "--out", str(tmp_path / "apart"), "--no-stitch")
    apart = pd.read_csv(tmp_path / "apart" / "index.csv").set_index("run")
    assert sorted(apart.index) == ["log", "log.txt.1"] and (apart["restarts"] == 0).all()


def test_scheduler_without_dask_is_a_usage_error(tmp_path):
    res = run_apart(["batch", str(tmp_path), "--scheduler", "tcp://localhost:8786"])
    assert res.exit_code == 2 and "--executor dask" in res.stderr
