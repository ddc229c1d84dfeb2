"""Conflicting rate sources, the peers' fixed windows, run status and the `reported` formula.

The Megatron-DeepSpeed log is Microsoft SuperBench's own test fixture (tests/data/megatron_deepspeed.log of
microsoft/superbenchmark, commit 700d6501): a two-node, 16-GPU GPT 6.7B run of 5 iterations, printed with
`--log-interval 1`. Expected numbers are read off its iteration lines by hand below.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

import logparse
from logparse.cli import cli
from logparse.core.errors import LogparseError

SB = Path(__file__).parent / "data" / "peers" / "superbench" / "megatron_deepspeed.log"

# the iteration lines' own figures, steps 1..5
SAMPLES_PER_S = [26.942, 27.215, 27.216, 27.240, 27.492]
ELAPSED_MS = [76015.3, 75254.0, 75249.6, 75182.4, 74494.9]
LINE_TFLOPS = [147.61, 149.10, 149.11, 149.24, 150.62]
SEQ = 2048  # --seq-length '2048' on the launch command, "actual seqlen:  2048" on each line
H100_FP16 = 989.0  # dense FP16 peak of an H100 SXM (NVIDIA H100 datasheet, 1,979 with sparsity)


def _lines(path: Path) -> list[str]:
    return path.read_text().splitlines(keepends=True)


def _write(tmp_path: Path, name: str, lines: list[str]) -> Path:
    p = tmp_path / name
    p.write_text("".join(lines))
    return p


@pytest.fixture(scope="module")
def sb():
    return logparse.analyze(SB, hw="h100")


def test_megatron_deepspeed_is_detected_as_the_composition(sb):
    assert sb.summary["format"] == "megatron-deepspeed"
    assert sb.summary["formats"][:2] == ["megatron", "deepspeed"]


def test_iteration_line_wins_over_deepspeed_timer(sb):
    steps = sb.steps
    assert list(steps["step"]) == [1, 2, 3, 4, 5]
    for got, sps in zip(steps["tokens_per_s"], SAMPLES_PER_S, strict=True):
        assert got == pytest.approx(sps * SEQ, rel=0.01)
    for got, ms in zip(steps["step_time_s"], ELAPSED_MS, strict=True):
        assert got == pytest.approx(ms / 1000, rel=1e-9)
    # our TFLOP/s/GPU (PaLM count of the 6.7B model in the argument dump) within 1% of the line's own
    for got, tf in zip(steps["tflops_per_gpu"], LINE_TFLOPS, strict=True):
        assert got == pytest.approx(tf, rel=0.01)
    stable = sb.summary["stable"]
    assert stable["tflops_per_gpu"] == pytest.approx(sum(LINE_TFLOPS) / 5, rel=0.01)
    assert stable["mfu_mean"] == pytest.approx(sum(LINE_TFLOPS) / 5 / H100_FP16, rel=0.01)
    assert stable["tokens_per_s"] == pytest.approx(sum(SAMPLES_PER_S) / 5 * SEQ, rel=0.01)


def test_rejected_source_is_named_with_both_figures(sb):
    (choice,) = sb.summary["sources"]
    assert choice["quantity"] == "samples_per_s"
    assert choice["chosen"] == "megatron.iteration"
    (rej,) = choice["rejected"]
    assert rej["pattern"] == "deepspeed.throughput_timer"
    # DeepSpeed's CurrSamplesPerSec at steps 3..5: 291.6, 315.6, 329.5 -> median 315.56
    assert rej["median"] == pytest.approx(315.564, rel=1e-4)
    assert rej["ratio_to_chosen"] > 10
    warning = next(w for w in sb.summary["warnings"] if "two sources disagree" in w)
    assert "rejected deepspeed.throughput_timer" in warning
    assert "megatron.iteration" in warning and "315.6" in warning


def test_without_timestamps_the_logged_step_time_decides(tmp_path):
    # DeepSpeed's lines without their pdsh host and logger prefixes ("vm-07-05: [2023-11-29 08:52:27,711]
    # [INFO] [logging.py:96:log_dist] "): no clock left but the iteration line's elapsed time
    lines = [
        line[line.index("[Rank 0] step=") :]
        if "[Rank 0] step=" in line
        else line.split("[timer.py:260:stop] ", 1)[1]
        if "[timer.py:260:stop]" in line
        else line
        for line in _lines(SB)
    ]
    a = logparse.analyze(_write(tmp_path, "no_clock.log", lines), hw="h100")
    (choice,) = a.summary["sources"]
    assert choice["chosen"] == "megatron.iteration"
    assert choice["checked_against"] == "the logged step time"
    assert a.steps["samples_per_s"].tolist() == pytest.approx(SAMPLES_PER_S)


def test_per_gpu_tflops_above_any_peak_is_refused(tmp_path):
    # the same log said to run on one GPU in TF32: 16x the per-GPU work, 2,400 TFLOP/s, beyond any device's
    # dense TF32 peak (GB200: 1,250), with no --hw to compare against
    with pytest.raises(LogparseError, match="above the dense tf32 peak of every device"):
        logparse.analyze(SB, gpus=1, dtype="tf32")


def test_moe_named_as_likely_cause(tmp_path):
    p = _write(tmp_path, "mixtral_8x7b_pretrain.log", _lines(SB))
    with pytest.raises(LogparseError, match="mixture-of-experts model is likely") as err:
        logparse.analyze(p, hw="h100", gpus=1)
    assert "pass experts=E and topk=K" in str(err.value)  # the keywords, called from Python


# ------------------------------------------------------------------------------------------------
# windows


def test_window_statistics_by_hand():
    a = logparse.analyze(SB, hw="h100", window="2:4")
    w = a.summary["window"]
    assert (w["count"], w["first_step"], w["last_step"], w["complete"]) == (3, 2, 4, True)
    t = [x / 1000 for x in ELAPSED_MS[1:4]]
    mean = sum(t) / 3
    assert w["step_time_s"]["mean"] == pytest.approx(mean, rel=1e-5)
    assert w["step_time_s"]["median"] == pytest.approx(75.2496, rel=1e-5)
    assert w["step_time_s"]["min"] == pytest.approx(75.1824, rel=1e-5)
    assert w["step_time_s"]["max"] == pytest.approx(75.254, rel=1e-5)
    pop = (sum((x - mean) ** 2 for x in t) / 3) ** 0.5
    sample = (sum((x - mean) ** 2 for x in t) / 2) ** 0.5
    assert w["step_time_s"]["std"] == pytest.approx(pop, rel=1e-3)
    assert w["step_time_s"]["std_sample"] == pytest.approx(sample, rel=1e-3)
    assert w["reported_hfu_tflops_per_gpu"]["mean"] == pytest.approx(sum(LINE_TFLOPS[1:4]) / 3, rel=1e-5)
    # the automatic stable phase stays the default
    assert a.summary["stable"]["start_step"] is not None


def test_last_and_skip_select_steps_in_the_logs_numbering():
    last = logparse.analyze(SB, hw="h100", last=2).summary
    assert (last["window"]["first_step"], last["window"]["last_step"]) == (4, 5)
    skip = logparse.analyze(SB, hw="h100", skip=3).summary
    assert skip["steps"]["first_step_counted_as"] == 1  # Megatron counts from iteration 1
    assert (skip["window"]["first_step"], skip["window"]["count"]) == (4, 2)
    assert skip["window"]["rule"] == "every logged step after the first 3 (--skip 3)"


def test_incomplete_window_is_said(tmp_path):
    w = logparse.analyze(SB, hw="h100", window="3:9").summary["window"]
    assert w["complete"] is False and "3..9" in w["note"] and w["count"] == 3


@pytest.mark.parametrize(
    "opts, message",
    [
        ({"window": "9:3"}, "comes before"),
        ({"window": "abc"}, "A:B"),
        ({"window": "20:30"}, "holds no logged step"),
        ({"last": 2, "skip": 1}, "one of window, last and skip"),
    ],
)
def test_bad_windows_are_one_line_errors(opts, message):
    with pytest.raises(LogparseError, match=message):
        logparse.analyze(SB, hw="h100", **opts)


def test_cli_window_option(tmp_path):
    res = CliRunner().invoke(
        cli, ["analyze", str(SB), "--hw", "h100", "--last", "3", "--json", "--out", str(tmp_path)]
    )
    assert res.exit_code == 0, res.output
    assert '"rule": "the last 3 logged steps (--last 3)"' in res.output
    bad = CliRunner().invoke(cli, ["analyze", str(SB), "--window", "x", "--out", str(tmp_path)])
    assert bad.exit_code == 2 and bad.output.count("\n") == 1  # a bad option value is a usage error


# ------------------------------------------------------------------------------------------------
# status


def _upto_iteration(n: int) -> list[str]:
    out = []
    for line in _lines(SB):
        out.append(line)
        if f" iteration        {n}/       5 |" in line:
            break
    return out


def test_status_complete(sb):
    st = sb.summary["status_detail"]
    assert sb.summary["status"] == "complete"
    assert (st["planned_steps"], st["last_step"]) == (5, 5)


def test_status_incomplete(tmp_path):
    a = logparse.analyze(_write(tmp_path, "cut.log", _upto_iteration(3)), hw="h100")
    assert a.summary["status"] == "incomplete"
    assert "step 3 of 5" in a.summary["status_detail"]["detail"]


def test_status_crashed(tmp_path):
    # torch's NCCL watchdog line (the common set's sample), then the traceback header
    tail = [
        "vm-07-05: [E ProcessGroupNCCL.cpp:475] [Rank 3] Watchdog caught collective operation timeout: "
        "WorkNCCL(SeqNum=42, OpType=ALLREDUCE, NumelIn=1, NumelOut=1, Timeout(ms)=1800000) ran for 1800512 "
        "milliseconds before timing out.\n",
        "Traceback (most recent call last):\n",
    ]
    a = logparse.analyze(_write(tmp_path, "crash.log", _upto_iteration(3) + tail), hw="h100")
    assert a.summary["status"] == "crashed"
    assert "Watchdog caught collective operation timeout" in a.summary["status_detail"]["detail"]


def test_status_diverged(tmp_path):
    # the loss goes NaN at step 3 and stays so to the last step (a NaN the run recovers from is no divergence:
    # tests/test_status_nonfinite.py)
    nan = ("lm loss: 1.096316E+01", "lm loss: 1.055474E+01", "lm loss: 9.927882E+00")
    lines = _lines(SB)
    for loss in nan:
        lines = [line.replace(loss, "lm loss: nan") for line in lines]
    a = logparse.analyze(_write(tmp_path, "nan.log", lines), hw="h100")
    assert a.summary["status"] == "diverged"
    assert "step 3" in a.summary["status_detail"]["detail"]


def test_status_unknown_is_null(tmp_path):
    # DeepSpeed's own step lines alone: nothing says how many steps were planned, nor that the run ended
    lines = [line for line in _lines(SB) if "[Rank 0] step=" in line or "CurrSamplesPerSec" in line]
    a = logparse.analyze(_write(tmp_path, "bare.log", lines), hw="h100", seq_len=SEQ, global_batch=2048)
    assert a.summary["status"] is None
    assert "unknown" in a.summary["status_detail"]["detail"]


# ------------------------------------------------------------------------------------------------
# formula `reported`

# Megatron-LM iteration line (a Japanese profiler tutorial, also a sample of patterns/megatron.toml)
MEGATRON_LINE = (
    " [2024-08-21 10:19:42] iteration        {i}/   25000 | consumed samples:         {c} | elapsed time per "
    "iteration (ms): 270125.4 | throughput per GPU (TFLOP/s/GPU): 449.6 | iteration time: 270.125 s samples/sec: "
    "3.8 | learning rate: 7.500000E-08 | global batch size:  1024 | lm loss: 2.120380E+00 | loss scale: 1.0 | "
    "grad norm: 14.218 | number of skipped iterations:   0 | number of nan iterations:   0 |\n"
)


def test_reported_formula_takes_the_frameworks_tflops(tmp_path):
    p = _write(tmp_path, "m.log", [MEGATRON_LINE.format(i=i, c=1024 * i) for i in range(1, 6)])
    a = logparse.analyze(p, hw="h100", gpus=256, seq_len=4096)
    assert a.summary["formula"] == "reported"
    assert any("formula `reported`" in w for w in a.summary["warnings"])
    # 449.6 TFLOP/s/GPU over H100's dense BF16 989: 45.46%
    assert a.summary["stable"]["mfu_mean"] == pytest.approx(449.6 / 989.0, rel=1e-4)


def test_reported_formula_refused_without_a_logged_figure():
    with pytest.raises(LogparseError, match="prints no model TFLOP/s"):
        logparse.analyze(SB, hw="h100", formula="reported")


# ------------------------------------------------------------------------------------------------
# --experts / --topk with --params


def test_params_with_experts_counts_the_active_ones():
    # the 6.7B dims of the argument dump (32 layers, hidden 4096, no ffn given: 4h) made an 8-expert top-2 MoE
    a = logparse.analyze(SB, hw="h100", params=20e9, experts=8, topk=2)
    h, L, V = 4096, 32, 50304
    # per layer: attention 4h^2, top-2 of the 4h-wide GELU experts 2 x 8h^2, router 8h, two norms 2h
    active = L * (4 * h * h + 2 * 8 * h * h + 8 * h + 2 * h) + h * V + h
    assert a.summary["model"]["params"] == pytest.approx(active, rel=0.01)
    assert any("6N counts the active ones" in w for w in a.summary["warnings"])


def test_params_with_experts_and_no_dims_is_refused(tmp_path):
    p = _write(tmp_path, "m.log", [MEGATRON_LINE.format(i=i, c=1024 * i) for i in range(1, 6)])
    with pytest.raises(LogparseError, match="takes the model's dims"):
        logparse.analyze(p, hw="h100", gpus=256, seq_len=4096, params=314e9, experts=8, topk=2)


def test_batch_index_shows_run_status_and_window(tmp_path):
    import pandas as pd

    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "full.log").write_text(SB.read_text())
    (runs / "cut.log").write_text("".join(_upto_iteration(3)))
    out = tmp_path / "out"
    res = CliRunner().invoke(cli, ["batch", str(runs), "--hw", "h100", "--last", "2", "--out", str(out)])
    assert res.exit_code == 0, res.output
    index = pd.read_csv(out / "index.csv").set_index("run")
    assert index.loc["full", "run_status"] == "complete"
    assert index.loc["cut", "run_status"] == "incomplete"
    assert index.loc["full", "window"] == "the last 2 logged steps (--last 2)"
    # steps 4 and 5: (75182.4 + 74494.9) / 2 ms
    assert index.loc["full", "window_step_time_s"] == pytest.approx((75.1824 + 74.4949) / 2, rel=1e-6)
