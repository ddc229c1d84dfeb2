"""The batch page reads each run's warnings apart and says why a run has no MFU from the run's own facts:
index.csv joins a run's warnings with " | " (its format, kept), and the page used to read that
column as a JSON list or lines, so every warning of a run came back as one string; and it chose the "no
MFU" reason as the first warning mentioning MFU, which for torchtitan's sample is a note on N, not the
missing hardware that blocks the MFU."""

from __future__ import annotations

import json
import shutil

import pandas as pd
import pytest

from logparse.batch import engine
from logparse.batch.page import no_mfu_reason, page_rows
from tests.conftest import SAMPLES

RUN = "torchtitan_llama3-8b_8xh100"  # 3 warnings; the first to mention MFU is about N, not the blocker


@pytest.fixture(scope="module")
def batch(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("warnings")
    runs = tmp / "runs"
    runs.mkdir()
    shutil.copy(SAMPLES / f"{RUN}.log", runs / f"{RUN}.log")
    out = tmp / "out"
    index = engine.run_batch(runs, out, {}, jobs=1)
    return out, index


def test_the_page_lists_a_runs_warnings_apart(batch):
    out, index = batch
    warnings = json.loads((out / RUN / "summary.json").read_text())["warnings"]
    # the sample's own: GPUs taken as DP size, its parameter count taken as llama3-8b's (palm on the preset's
    # dims, torchtitan's own convention, so no cross-check note), hardware
    assert len(warnings) == 3
    for frame in (index, pd.read_csv(out / "index.csv")):  # in memory, and as a later reader finds it
        (row,) = page_rows(out, frame)
        assert row.warnings == 3
        assert row.warning_texts.split("\n") == warnings


def test_a_warning_holding_the_separator_is_read_from_the_summary(batch):
    """A warning whose own text holds " | " cannot be split back from the index: the count says so, and
    the run's summary.json has the list."""
    out, index = batch
    summary_path = out / RUN / "summary.json"
    summary = json.loads(summary_path.read_text())
    frame = index.copy()
    frame.loc[0, "warning_texts"] = "a | b | " + " | ".join(summary["warnings"][1:])
    (row,) = page_rows(out, frame)
    assert row.warning_texts.split("\n") == summary["warnings"]


def test_the_no_mfu_reason_is_what_blocks_the_mfu_not_the_first_mention(batch):
    out, index = batch
    (r,) = index.to_dict("records")
    reason = no_mfu_reason(out, r)
    # read off the sample by hand: no line names the device; "131072 tokens per train step" over "16384
    # tokens per DP rank" gives 8 GPUs, "maximum context length 8192" the seq len, "8,030,261,248 total
    # parameters" N: only the hardware's peak is missing
    assert reason == "no MFU: hardware unknown (pass hw=NAME or peak_tflops=X)"
    assert "N is the log's" not in reason


def test_without_its_summary_the_reason_comes_from_the_index_columns(tmp_path):
    """A run folder that lost its summary.json: the index's columns tell what is null; it has no FLOPs/token
    column, so that is named only when nothing the index holds explains the missing MFU."""
    row = {"run": "x", "status": "ok", "gpus": 8, "peak_tflops_per_gpu": 989.0, "seq_len": 4096,
           "stable_start": 10, "tokens_per_s": 1000.0, "tokens_per_s_per_gpu": 125.0}  # fmt: skip
    assert no_mfu_reason(tmp_path, row) == "no MFU: FLOPs/token unknown (pass model=NAME, or params=N)"
    row = {**row, "gpus": None, "tokens_per_s_per_gpu": None}
    assert no_mfu_reason(tmp_path, row) == "no MFU: GPUs unknown (pass gpus)"
