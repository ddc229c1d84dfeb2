"""Whole-run figures: a log whose steps carry no time still gets the run's average throughput,
labelled as the whole-run average (summary["whole_run"] and a text line), with MFU from it when FLOPs/token
and the peak are known; and torchtitan's own MFU is shown beside logparse's under torchtitan's convention."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from logparse.cli import cli
from tests.conftest import ROOT, SAMPLES

HF = ROOT / "tests" / "data" / "captures" / "hf"


def analyze(tmp_path, log, *args):
    res = CliRunner().invoke(cli, ["analyze", str(log), "--out", str(tmp_path / "o"), *map(str, args)])
    assert res.exit_code == 0, res.output
    return res.output, json.loads((tmp_path / "o" / "summary.json").read_text())


def test_hf_final_dict_gives_the_whole_run_average_and_its_mfu(tmp_path):
    # hf_notqdm_first3_ga2: no step time (no tqdm, no timestamps). Its final dict, as the Trainer's own
    # trainer_state.json has it: train_runtime 0.4984 s, train_samples_per_second 401.267 (printed 401.3) =
    # 100 samples x 2 epochs / 0.4984 (README: 100 samples x 64 tokens). Tokens/s = 401.3 x 64 = 25,683.2;
    # MFU with N = 1e6 (6N = 6e6 FLOPs/token) on one H100 (989 TFLOPS dense bf16): 6e6 x 25,683.2 / 989e12
    out, s = analyze(
        tmp_path,
        HF / "hf_notqdm_first3_ga2.log",
        "--seq-len",
        64,
        "--params",
        1e6,
        "--hw",
        "h100",
        "--gpus",
        1,
    )
    state = json.loads((HF / "hf_notqdm_first3_ga2.trainer_state.json").read_text())["log_history"][-1]
    assert s["stable"]["tokens_per_s"] is None  # no stable window: the whole run is all there is
    w = s["whole_run"]
    assert w["seconds"] == state["train_runtime"] == 0.4984
    assert w["samples_per_s"] == pytest.approx(state["train_samples_per_second"], abs=0.05)
    assert w["tokens_per_s"] == pytest.approx(401.3 * 64, rel=1e-6)
    assert w["tokens_per_s_per_gpu"] == pytest.approx(401.3 * 64, rel=1e-6)
    assert w["mfu"] == pytest.approx(6e6 * 401.3 * 64 / 989e12, rel=1e-4)
    assert "whole-run average" in w["label"] and "final_dict" in w["source"]
    line = next(x for x in out.splitlines() if x.strip().startswith("whole run:"))
    assert "25,683 tokens/s" in line and "whole-run average" in line


def test_hf_final_dict_without_a_sequence_length_names_the_missing_input(tmp_path):
    out, s = analyze(tmp_path, HF / "hf_notqdm_first3_ga2.log")
    assert s["whole_run"]["samples_per_s"] == 401.3 and s["whole_run"]["tokens_per_s"] is None
    line = next(x for x in out.splitlines() if x.strip().startswith("whole run:"))
    assert "tokens/s unknown (pass --seq-len)" in line and "401.3 samples/s" in line


def test_lightning_bar_clock_gives_the_whole_run_average(tmp_path):
    # lightning_ga4_8xh100: the bar's rate is too coarse for per-step times; its last redraw reads
    # "240/480 [09:37<..." = 60 optimizer steps (grad accum 4) in 577 s. 60 x 128 x 4096 tokens / 577 s =
    # 54,518.7 tokens/s, 6,814.8 per GPU (8); llama2-7b under palm is 4.6086512640e10 FLOPs/token (the
    # sample's truth.json), so MFU = 4.6086512640e10 x 6,814.8 / 989e12 = 31.76%
    out, s = analyze(
        tmp_path,
        SAMPLES / "lightning_ga4_8xh100.log",
        "--hw",
        "h100",
        "--model",
        "llama2-7b",
        "--global-batch",
        128,
        "--seq-len",
        4096,
    )
    truth = json.loads((SAMPLES / "lightning_ga4_8xh100.truth.json").read_text())
    w = s["whole_run"]
    assert w["seconds"] == 577 and w["steps"] == 60
    assert w["tokens_per_s"] == pytest.approx(60 * 128 * 4096 / 577, rel=1e-5)
    assert w["tokens_per_s_per_gpu"] == pytest.approx(60 * 128 * 4096 / 577 / 8, rel=1e-5)
    assert w["mfu"] == pytest.approx(truth["flops_per_token"] * 60 * 128 * 4096 / 577 / 8 / 989e12, rel=1e-4)
    # the whole-run average includes the first, slow steps: below the steady 77,255 tokens/s of the truth
    assert w["tokens_per_s"] < truth["tokens_per_s"]
    assert "whole run: 54,519 tokens/s (6,815/GPU)" in out and "MFU 31.8%" in out


def test_a_stable_window_keeps_its_own_line_and_no_whole_run_line(tmp_path):
    out, s = analyze(tmp_path, SAMPLES / "megatron_llama2-7b_8xh100.log", "--hw", "h100")
    assert "whole_run" not in s and "whole run:" not in out


def test_torchtitan_own_mfu_beside_logparse_under_its_convention(tmp_path):
    # torchtitan @b5bcd76c torchtitan/models/utils.py:412-456: FLOPs/token = 6 (N - embedding) + 12 L H Q T;
    # metrics.py:489-493: tflops = that x tps / 1e12, mfu = it / the peak (989e12, its "Peak FLOPS" line).
    # The log prints "Model llama3 8B size: 8,030,261,248 total parameters" = llama3-8b (32 layers, 32 heads,
    # head 128, vocab 128,256, hidden 4,096): N - embedding = 8,030,261,248 - 128,256 x 4,096 = 7,504,924,672;
    # 6 x 7,504,924,672 + 12 x 32 x 32 x 128 x 8,192 = 57,914,449,920 FLOPs/token (the sample's truth.json)
    out, s = analyze(tmp_path, SAMPLES / "torchtitan_llama3-8b_8xh100.log", "--hw", "h100")
    truth = json.loads((SAMPLES / "torchtitan_llama3-8b_8xh100.truth.json").read_text())
    flops = 6 * (8_030_261_248 - 128_256 * 4_096) + 12 * 32 * 32 * 128 * 8_192
    assert flops == truth["flops_per_token"]
    rep = s["reported"]
    assert rep["agrees_within"] is not None and rep["agrees_within"] < 0.005
    # the log's count is llama3-8b's exactly: its dims are the run's, so the headline and the convention agree
    assert s["model"]["source"] == "preset" and s["formula"] == "palm"
    assert s["flops_per_token"] == pytest.approx(flops, rel=1e-6)
    per_gpu = s["stable"]["tokens_per_s_per_gpu"]
    assert rep["ours_under_framework_convention"]["tflops_per_gpu"] == pytest.approx(
        flops * per_gpu / 1e12, rel=1e-4
    )
    assert rep["ours_under_framework_convention"]["mfu"] == pytest.approx(flops * per_gpu / 989e12, rel=1e-4)
    assert rep["ours"]["formula"] == "palm" and rep["ours"]["mfu"] == pytest.approx(
        s["stable"]["mfu_mean"], rel=1e-3
    )
    line = next(x for x in out.splitlines() if "the log's own figure" in x)
    assert "MFU: the log's 38.1%" in line and "logparse's own (palm) 38.1%" in line
    assert "torchtitan's convention 38.1%" in line
    assert not any("is +20.2%" in w for w in s["warnings"])  # no gap left to explain
