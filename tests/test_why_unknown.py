"""Why no number, pointing the right way: each figure that cannot be given names the one
input that is missing (and the option that supplies it, when one does), never a reason that is not the
one, and no number stands beside a sentence saying it cannot be known. Through the CLI, as a user saw it;
the truth of each case is read off the log by hand and written here."""

from __future__ import annotations

import html
import json
import re

from click.testing import CliRunner

from logparse.batch.page import no_mfu_reason
from logparse.cli import cli
from logparse.core.errors import cli_names
from tests.conftest import ROOT, SAMPLES

from .test_report_image import drawn, legend_entries, panel

CAPTURES = ROOT / "tests" / "data" / "captures"
LIGHTNING = SAMPLES / "lightning_ga4_8xh100.log"


def run(*args: str):
    res = CliRunner().invoke(cli, [str(a) for a in args], catch_exceptions=False)
    assert res.exit_code == 0, res.output
    return res.output


def warnings_of(output: str) -> list[str]:
    return [line.split("warning: ", 1)[1] for line in output.splitlines() if line.startswith("  warning: ")]


# ------------------------------------------------------------------------------------------------
# the leaderboard's and the page's "no MFU" reason


def test_the_no_mfu_reason_is_what_blocks_the_mfu_not_the_first_warning(tmp_path):
    # nemo2's log prints neither the device, the sequence length nor the model (read by hand: no GPU name, no
    # seq_length, no layers/hidden in its config dump), and its first warning is about consumed samples; the
    # HF DDP capture ran on CPU (no peak) with no sequence length, and its first warning is about the bar
    runs = tmp_path / "runs"
    runs.mkdir()
    for name in ("nemo2_llama2-7b_8xh100.log", "hf_trainer_ddp2_cpu.log"):
        (runs / name).write_bytes((SAMPLES / name).read_bytes())
    out = tmp_path / "out"
    CliRunner().invoke(cli, ["batch", str(runs), "--out", str(out)], catch_exceptions=False)
    rows = {r["run"]: r for r in json.loads((out / "index.json").read_text())}
    page = (out / "index.html").read_text()
    for name, first_warning_words in (
        ("nemo2_llama2-7b_8xh100", "consumed samples jump"),
        ("hf_trainer_ddp2_cpu", "progress bar's rate"),
    ):
        summary = json.loads((out / name / "summary.json").read_text())
        assert first_warning_words in summary["warnings"][0]  # the reason the page used to give
        with cli_names():  # the leaderboard's line and the page's tooltip, as the batch command wrote them
            reason = no_mfu_reason(out, rows[name])
        assert reason.startswith("no MFU: hardware unknown (pass --hw NAME or --peak-tflops X)")
        assert "--seq-len" in reason
        assert first_warning_words not in reason
        assert reason in html.unescape(
            re.sub(r"<[^>]+>", "", page)
        )  # (its options are marked up to stay whole)


# ------------------------------------------------------------------------------------------------
# no stable window: the step time is what is missing


def test_no_stable_window_names_the_missing_step_time_in_text_legend_and_footer(tmp_path):
    # the log's Lightning bar prints the epoch's average rate too coarsely for a step's time (its own
    # warning says so); sequence length, N and the hardware are given, so the step time is the one missing
    out = run("analyze", LIGHTNING, "--seq-len", "128", "--params", "1e6", "--hw", "h100", "--out", tmp_path)
    assert "too few timed steps" not in out
    assert "  stable window: none (step time unknown" in out
    # the log has a progress bar (read by hand: 'Epoch 0: ... it/s' redraws): no warning may deny it
    assert "Epoch 0:" in LIGHTNING.read_text()
    assert not [w for w in warnings_of(out) if "no progress bar" in w]
    a, fig = drawn(LIGHTNING, seq_len=128, params=1e6, hw="h100")
    assert "stable window" not in legend_entries(fig)
    footer = " ".join(t.get_text() for t in fig.texts if t.get_text().startswith("assumptions:"))
    assert "None" not in footer and "stable = ;" not in footer and "stable =" not in footer
    assert "step time unknown" in footer
    mfu_text = " ".join(t.get_text() for t in panel(fig, "mfu").texts)
    assert "step time unknown" in mfu_text and "no throughput in the log" not in mfu_text


# ------------------------------------------------------------------------------------------------
# the step-time warning says what the log lacks, and no more


def test_a_log_with_timestamps_is_not_said_to_have_none(tmp_path):
    # DeepSpeed's own lines carry a timestamp (line 26: '[2026-12-01 20:05:51,748] [INFO] ...'); the
    # script's step lines do not
    log = CAPTURES / "deepspeed" / "ds_1proc_default_print.log"
    assert "[2026-12-01 20:05:51,748] [INFO]" in log.read_text()
    out = run("analyze", log, "--out", tmp_path)
    said = [w for w in warnings_of(out) if "no step-time field" in w]
    assert said and not [w for w in said if "no timestamps" in w], said
    assert "no timestamp on its step lines" in said[0]


def test_a_log_that_prints_tokens_per_s_is_not_told_throughput_is_unknown(tmp_path):
    # mlx_lm prints 'Tokens/sec 1620.431' on its report lines and no step time
    log = CAPTURES / "mlx_lm" / "table.log"
    out = run("analyze", log, "--out", tmp_path)
    assert not [w for w in warnings_of(out) if "throughput and MFU are unknown" in w]
    assert [w for w in warnings_of(out) if "no step-time field" in w and "the log's own tokens/s" in w]


def test_a_dip_whose_time_lost_is_unknown_says_why(tmp_path):
    # torchtune's stdout capture prints tokens_per_second_per_gpu and no step time: a dip's lost seconds
    # need step times
    log = CAPTURES / "torchtune" / "torchtune_stdout_cpu.log"
    out = run("analyze", log, "--gpus", "8", "--hw", "h100", "--out", tmp_path)
    assert "n/a s lost" not in out
    assert re.search(r"dip at step 28: -\d+%, time lost unknown \(no step time in the log\)", out), out


# ------------------------------------------------------------------------------------------------
# the stable line: per-GPU and cluster throughput


def test_nanogpt_without_gpus_names_the_flag_for_per_gpu_throughput(tmp_path):
    out = run("analyze", SAMPLES / "nanogpt_gpt2_8xa100.log", "--out", tmp_path / "a")
    assert "n/a/GPU" not in out
    assert "1,223,820 tokens/s (per GPU unknown: pass --gpus)" in out
    # and with the count: 1,223,820 / 8 = 152,977.5 per GPU (printed rounded)
    out = run("analyze", SAMPLES / "nanogpt_gpt2_8xa100.log", "--gpus", "8", "--out", tmp_path / "b")
    assert re.search(r"1,223,820 tokens/s \(152,97[78]/GPU\)", out)


def test_composer_logs_cluster_and_device_tokens_so_neither_is_called_impossible(tmp_path):
    # Composer prints both 'throughput/tokens_per_sec: 7653.5341' and 'throughput/device/tokens_per_sec:
    # 7653.5341' (log lines 568-569): the cluster figure is the log's own, so it can be given
    log = SAMPLES / "composer_two_runs_cpu.log"
    text = log.read_text()
    assert "Train throughput/tokens_per_sec: 7653.5341" in text
    assert "Train throughput/device/tokens_per_sec: 7653.5341" in text
    out = run("analyze", log, "--out", tmp_path)
    assert "cannot be given" not in out
    assert "7,661 tokens/s (7,661/GPU)" in out


def test_composer_second_run_has_a_warmup_count_like_its_first(tmp_path):
    # each run of the file starts afresh (step counter back to 1): its warmup is counted as the first
    # run's is, not '?'
    log = SAMPLES / "composer_two_runs_cpu.log"
    first = run("analyze", log, "--segment", "0", "--out", tmp_path / "a")
    last = run("analyze", log, "--out", tmp_path / "b")
    assert "warmup: 0 steps" in first
    assert "warmup: ? steps" not in last
    assert re.search(r"warmup: \d+ steps?;", last)


# ------------------------------------------------------------------------------------------------
# the projection to a target


def test_target_tokens_without_a_throughput_says_what_is_missing(tmp_path):
    # nemo2's log prints no sequence length, so its tokens/s is unknown and so is the time to any target
    out = run("analyze", SAMPLES / "nemo2_llama2-7b_8xh100.log", "--target-tokens", "1e12", "--out", tmp_path)
    assert "n/a days" not in out
    assert "time to 1e+12 tokens: unknown (tokens/s unknown: pass --seq-len)" in out


def test_plots_footer_names_the_step_time_source_when_known():
    # the footer's 'step time' part for a run that has one stays as it was (nanoGPT: 'log')
    a, fig = drawn(SAMPLES / "nanogpt_gpt2_8xa100.log")
    footer = " ".join(t.get_text() for t in fig.texts if t.get_text().startswith("assumptions:"))
    assert "step time: log" in footer and "stable = " in footer


def test_tokens_per_s_unknown_names_the_global_batch_when_the_seq_len_is_given(tmp_path):
    # the Lightning capture prints no batch size (its header and bars name none; the script's batch is
    # not in the log), so with --seq-len the samples per step are what tokens/s still lacks
    log = SAMPLES / "lightning_ga4_cpu.log"
    assert "batch_size" not in log.read_text()
    out = run("analyze", log, "--seq-len", "128", "--params", "1e6", "--out", tmp_path / "a")
    assert "tokens/s unknown (pass --global-batch)" in out
    out = run(
        "analyze", log, "--seq-len", "128", "--params", "1e6", "--global-batch", "8", "--out", tmp_path / "b"
    )
    assert "tokens/s unknown" not in out
