"""Run names stay inside their output folder and on one line."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from click.testing import CliRunner

from logparse.cli import cli
from logparse.core.naming import run_name

SAMPLE = Path(__file__).resolve().parents[1] / "sample_logs" / "megatron_llama2-7b_8xh100.log"


def test_a_log_named_dots_writes_inside_the_output_folder(tmp_path, monkeypatch):
    """`...log` was named `..`: `analyze` with the default output (./logparse-out/<run>/) wrote summary.json,
    steps.csv and report.png into the current folder itself."""
    log = tmp_path / "logs" / "...log"
    log.parent.mkdir()
    shutil.copy(SAMPLE, log)
    work = tmp_path / "work"
    work.mkdir()
    monkeypatch.chdir(work)
    res = CliRunner().invoke(cli, ["analyze", str(log), "--gpus", "8", "--hw", "h100"])
    assert res.exit_code == 0, res.output
    assert (work / "logparse-out" / "run" / "steps.csv").is_file()
    assert not (work / "steps.csv").exists() and not (work / "summary.json").exists()


def test_names_have_no_separator_newline_or_undecodable_byte():
    assert run_name("...log") == "run" and run_name("..") == "run"
    assert run_name("a\nb.log") == "a_b"
    assert run_name(os.fsdecode(b"caf\xe9.log")) == "caf\ufffd"
    assert run_name("train.log.gz") == "train"
