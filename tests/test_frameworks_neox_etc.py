"""GPT-NeoX, MaxText, nanotron, Composer / llm-foundry and OLMo v1.

(a) Real lines (../shared/reference/log_formats.md §6a, §6c-§6f, and the GitHub threads named beside
them) parse to the right values: throughput scope (per GPU or the whole job), optimizer steps, units
(ms -> s, human FLOPS units, K/M/G/B suffixes, MB -> GiB), fractions. Composer's and OLMo's multi-line
records are read end to end from small files.
(b) The synthetic writers (tests/synth/neox_maxtext_etc.py): each log is detected as its format and,
where it gives timing, the stable MFU is within 1% of the truth it was drawn from.

Composer's and OLMo's block lines need the engine to accept `continues` on a [[line]]; the tests that
need the lines joined to their record run when the shipped set declares them so (see composer.toml).
"""

from __future__ import annotations

import math
from datetime import datetime, timezone

import pytest

from logparse import api
from logparse.patterns import sets as patterns
from logparse.patterns.sets import NO_YEAR
from logparse.read.reader import clean_text
from tests.synth import Dip, Spec
from tests.synth.neox_maxtext_etc import (
    SAMPLES,
    composer_log,
    gpt_neox_log,
    human_format,
    maxtext_log,
    nanotron_log,
    olmo_log,
)

SETS = patterns.load_sets()


def read(name: str, line: str) -> tuple[patterns.LineSpec, dict]:
    text, _, _ = clean_text(line)
    hit = SETS[name].match(text)
    assert hit is not None, f"no {name} pattern reads {line!r}"
    spec, values = hit
    assert not values.problems, values.problems
    return spec, dict(values)  # the values alone (which columns are window averages: test_windows)


def close(got: float | None, want: float, rel: float = 0.01) -> bool:
    return got is not None and abs(got - want) <= rel * abs(want)


# ------------------------------------------------------------------------------------------------
# (a) GPT-NeoX, log_formats.md §6a

NEOX_947 = (  # EleutherAI/gpt-neox#947
    " samples/sec: 4.904 | iteration        2/   55000 | elapsed time per iteration (ms): 6524.7 | learning rate:"
    " 2.424E-09 | approx flops per GPU: 16.4TFLOPS | lm_loss: 2.175701E+00 | loss scale: 4096.0 | number of"
    " skipped iterations:   0 | number of nan iterations:   0 |"
)
NEOX_ARG = "  num_layers ...................... 44..........................updated"  # gpt-neox#792, #1248


def test_neox_iteration_line_cluster_samples_per_gpu_hfu_flops():
    spec, v = read("gpt-neox", NEOX_947)
    assert spec.name == "iteration" and spec.step == "optimizer" and spec.interval
    assert v["step"] == 2 and "micro_step" not in v
    # train_batch_size / iteration time: the whole job's
    assert v["samples_per_s"] == 4.904 and "samples_per_s_per_gpu" not in v
    assert v["step_time_s"] == pytest.approx(6.5247)  # ms -> s
    assert v["reported_hfu_tflops_per_gpu"] == pytest.approx(16.4)  # "16.4TFLOPS", per GPU, counts recompute
    assert "reported_tflops_per_gpu" not in v and "reported_hfu_tflops_cluster" not in v
    assert v["lr"] == 2.424e-09 and v["loss"] == pytest.approx(2.175701) and v["loss_scale"] == 4096.0
    assert v["skipped_iters"] == 0 and v["nan_iters"] == 0


@pytest.mark.parametrize(
    "flops,tflops",
    [("16.4TFLOPS", 16.4), ("1.1PFLOPS", 1100.0), ("950.3GFLOPS", 0.9503), ("12.0KFLOPS", 1.2e-8)],
)
def test_neox_human_flops_units(flops, tflops):
    _, v = read("gpt-neox", NEOX_947.replace("16.4TFLOPS", flops))
    assert v["reported_hfu_tflops_per_gpu"] == pytest.approx(tflops)


def test_neox_is_tried_before_megatron_which_also_reads_its_lines():
    order = patterns.specificity_order(SETS)
    assert order.index("gpt-neox") < order.index("megatron")
    assert SETS["megatron"].match(clean_text(NEOX_947)[0]) is not None  # hence the ordering matters


def test_neox_argument_dump_value_dots_updated():
    spec, v = read("gpt-neox", NEOX_ARG)
    assert spec.name == "argument" and v == {"num_layers": 44}
    _, v = read("gpt-neox", "  padded_vocab_size ............... None........................default")
    assert v == {}  # None: not known
    # Megatron's own dump has a space before its value and is not read as GPT-NeoX's
    assert SETS["gpt-neox"].match("  num_layers ...................................... 24") is None


def test_neox_real_lines_detected_and_read_end_to_end(write_log):
    path = write_log(
        "-------------------- arguments --------------------\n" + NEOX_ARG + "\n" + NEOX_947 + "\n"
    )
    run = api.resolve(path)
    assert run.parsed.detection.name == "gpt-neox"
    assert run.facts["num_layers"].value == 44
    row = run.steps.iloc[0]
    assert row["step"] == 2 and row["samples_per_s"] == 4.904 and row["step_time_s"] == pytest.approx(6.5247)


# ------------------------------------------------------------------------------------------------
# (a) MaxText, log_formats.md §6c

MAXTEXT_4847 = (  # AI-Hypercomputer/maxtext PR #4847: absl prefix
    "I0811 21:55:06.119312 138304841739136 metric_logger.py:226] completed step: 2, seconds: 10.228, TFLOP/s/device:"
    " 350.869, Tokens/s/device: 19222.175, total_weights: 1572864, loss: 12.980, lm_loss: 12.980, perplexity: 433463.719"
)
MAXTEXT_761 = (
    "completed step: 9, seconds: 1.341, TFLOP/s/device: 257.929, Tokens/s/device: 36653.244, loss: 0.000"
)
# AI-Hypercomputer/maxtext, a user's paste on its GitHub tracker (2023)
MAXTEXT_8 = "completed step: 15107, seconds: 2.167, TFLOP/s: 36.722, loss: 2.191"


def test_maxtext_current_line_with_absl_prefix_is_per_device():
    spec, v = read("maxtext", MAXTEXT_4847)
    assert spec.name == "step" and spec.step == "optimizer" and not spec.interval
    assert v["step"] == 2 and v["step_time_s"] == 10.228 and v["loss"] == 12.98
    assert v["tokens_per_s_per_gpu"] == 19222.175 and "tokens_per_s" not in v
    assert v["reported_tflops_per_gpu"] == 350.869 and "reported_tflops_cluster" not in v
    # absl prints no year: the time is read in the fixed year patterns.NO_YEAR (differences only)
    assert v["timestamp"] == datetime(NO_YEAR, 8, 11, 21, 55, 6, 119312, tzinfo=timezone.utc).timestamp()
    assert v["tokens_per_step"] == 1572864  # total_weights: the step's global batch tokens
    # per device: 19222 tokens/s x 10.228 s = 196,605 tokens per device; total_weights 1,572,864 = 8 devices
    assert 1572864 / (v["tokens_per_s_per_gpu"] * v["step_time_s"]) == pytest.approx(8.0, rel=1e-4)


def test_maxtext_2024_and_2023_forms():
    _, v = read("maxtext", MAXTEXT_761)
    assert (v["step"], v["step_time_s"], v["tokens_per_s_per_gpu"]) == (9, 1.341, 36653.244)
    assert v["reported_tflops_per_gpu"] == 257.929
    _, v = read("maxtext", MAXTEXT_8)
    assert v == {"step": 15107, "step_time_s": 2.167, "reported_tflops_per_gpu": 36.722, "loss": 2.191}


def test_maxtext_rampup_line_has_no_throughput():
    line = MAXTEXT_4847.replace("] completed step: 2", "] [Rampup Batch Size Phase], completed step: 2")
    line = line.replace("TFLOP/s/device: 350.869, Tokens/s/device: 19222.175, ", "")
    _, v = read("maxtext", line)
    assert v["step"] == 2 and v["step_time_s"] == 10.228
    assert "tokens_per_s_per_gpu" not in v and "reported_tflops_per_gpu" not in v


# ------------------------------------------------------------------------------------------------
# (a) nanotron, log_formats.md §6d

NANOTRON_390 = (  # huggingface/nanotron#390, the 1e9 suffix spelled G
    "10/17/2025 16:31:56 [INFO|DP=0|PP=0|TP=0]: iteration: 327281 / 378950 | consumed_tokens: 85.8G |"
    " elapsed_time_per_iteration_ms: 11.5K | tokens_per_sec: 22.8K | tokens_per_sec_per_gpu: 11.4K |"
    " global_batch_size: 64 | lm_loss: 2.38 | lr: 1e-05 | model_tflops_per_gpu: 38.3 | hardware_tflops_per_gpu:"
    " 38.3 | grad_norm: 1.25"
)
NANOTRON_23 = (  # huggingface/nanotron PR #23 (2024): node name in the prefix, memory columns
    "01/17/2024 13:47:27 [INFO|DP=0|PP=0|TP=0|ip-26-0-160-225]: iteration: 991 / 1000 | consumed_tokens: 634K |"
    " elapsed_time_per_iteration_ms: 45 | tokens_per_sec: 14.2K | tokens_per_sec_per_gpu: 1.78K | global_batch_size: 20"
    " | lm_loss: 10.6 | lr: 1e-05 | model_tflops_per_gpu: 0.00869 | hardware_tflops_per_gpu: 0.00869 | grad_norm: 0.515"
    " | cuda_memory_allocated: 75.2M | cuda_max_memory_reserved: 547M | hd_total_memory_tb: 312G | hd_used_memory_tb:"
    " 61.8G | hd_free_memory_tb: 250G"
)


def test_nanotron_real_line_suffixes_and_scopes():
    spec, v = read("nanotron", NANOTRON_390)
    assert spec.step == "optimizer" and v["step"] == 327281
    assert v["consumed_tokens"] == pytest.approx(85.8e9)  # G = 1e9
    assert v["step_time_s"] == pytest.approx(11.5)  # 11.5K ms
    assert v["tokens_per_s"] == pytest.approx(22800.0)  # the whole job
    assert v["tokens_per_s_per_gpu"] == pytest.approx(11400.0)  # / world size: 2 GPUs
    assert v["global_batch_size"] == 64 and v["loss"] == 2.38 and v["lr"] == 1e-05 and v["grad_norm"] == 1.25
    assert v["reported_tflops_per_gpu"] == 38.3 and v["reported_hfu_tflops_per_gpu"] == 38.3
    assert v["timestamp"] == pytest.approx(1760718716.0)  # 2025-10-17 16:31:56 UTC
    # the job's tokens/s is global batch x sequence length / time: 64 x 4096 / 11.5 s
    assert 64 * 4096 / v["step_time_s"] == pytest.approx(v["tokens_per_s"], rel=0.005)


def test_nanotron_ansi_prefix_and_b_suffix_read_the_same():
    # the logger's own colour codes around the prefix, and the 1e9 suffix after 2025-04-18 (commit 37cc8b0c)
    coloured = "\x1b[2;3m" + NANOTRON_390.replace("]: iteration", "]\x1b[0m: iteration").replace(
        "85.8G", "85.8B"
    )
    _, g = read("nanotron", NANOTRON_390)
    _, b = read("nanotron", coloured)
    assert b == g
    assert human_format(85.8e9, ("", "K", "M", "G")) == "85.8G" and human_format(85.8e9) == "85.8B"
    assert human_format(11_512.3) == "11.5K" and human_format(1e-05) == "1e-05"


def test_nanotron_2024_line_with_node_and_memory_columns():
    _, v = read("nanotron", NANOTRON_23)
    assert v["step"] == 991 and v["step_time_s"] == pytest.approx(0.045)
    assert v["tokens_per_s"] == pytest.approx(14200.0) and v["tokens_per_s_per_gpu"] == pytest.approx(1780.0)
    assert v["consumed_tokens"] == pytest.approx(634e3) and v["global_batch_size"] == 20


def test_nanotron_current_trainer_batch_in_tokens_is_not_read_as_samples():
    line = (
        "\x1b[2;3m03/02/2026 10:00:00 [INFO|DP=0|TP=0]\x1b[0m: iteration: 1200 / 20000 | consumed_tokens: 1.26B |"
        " time_per_iteration_ms: 6.81K | tokens_per_sec: 154K | tokens_per_sec_per_gpu: 19.2K | global_batch_size:"
        " 1.05M | grad_norm: 0.297 | lm_loss: 2.91 | lr: 0.0003 | model_tflops_per_gpu: 885 | eta: 1 day, 11:33:28"
    )
    spec, v = read("nanotron", line)
    assert spec.name == "iteration_tokens_batch" and "global_batch_size" not in v
    assert v["step_time_s"] == pytest.approx(6.81) and v["tokens_per_s_per_gpu"] == pytest.approx(19200.0)


NANOTRON_390_NEXT = (  # the next line of the same paste (huggingface/nanotron#390)
    "10/17/2025 16:32:07 [INFO|DP=0|PP=0|TP=0]: iteration: 327282 / 378950 | consumed_tokens: 85.8G |"
    " elapsed_time_per_iteration_ms: 11.5K | tokens_per_sec: 22.8K | tokens_per_sec_per_gpu: 11.4K |"
    " global_batch_size: 64 | lm_loss: 2.35 | lr: 1e-05 | model_tflops_per_gpu: 38.3 | hardware_tflops_per_gpu:"
    " 38.3 | grad_norm: 1.22"
)


def test_nanotron_real_lines_end_to_end(write_log):
    run = api.resolve(write_log(NANOTRON_390 + "\n" + NANOTRON_390_NEXT + "\n"))
    assert run.parsed.detection.name == "nanotron"
    steps = run.steps
    assert list(steps["step"]) == [327281, 327282] and list(steps["loss"]) == [2.38, 2.35]
    assert list(steps["step_time_s"]) == pytest.approx([11.5, 11.5])
    # the logged per-GPU figure is the job's divided by the world size: 2 GPUs
    assert (steps["tokens_per_s"] / steps["tokens_per_s_per_gpu"]).tolist() == pytest.approx(
        [2.0, 2.0], rel=1e-3
    )
    assert (steps["timestamp"].diff().iloc[1]) == 11.0  # 16:31:56 -> 16:32:07


# ------------------------------------------------------------------------------------------------
# (a) Composer / llm-foundry, log_formats.md §6e (16 GPUs; the record's tab shown as spaces)

COMPOSER_REAL = [
    "         Train throughput/samples_per_sec: 2.7330",
    "         Train throughput/device/samples_per_sec: 0.1708",
    "         Train throughput/tokens_per_sec: 20082.8418",
    "         Train throughput/device/tokens_per_sec: 1255.1776",
]


def test_composer_real_lines_scope():
    values = {}
    for line in COMPOSER_REAL:
        spec, v = read("composer", line)
        assert spec.name == "metric"
        values.update(v)
    assert values == {
        "samples_per_s": 2.733,
        "samples_per_s_per_gpu": 0.1708,
        "tokens_per_s": 20082.8418,
        "tokens_per_s_per_gpu": 1255.1776,
    }
    assert values["tokens_per_s"] / values["tokens_per_s_per_gpu"] == pytest.approx(16.0, rel=1e-4)


def test_composer_header_counts_optimizer_steps_and_mfu_is_a_fraction():
    spec, v = read("composer", "[batch=120/4800]:")
    assert spec.name == "batch" and spec.step == "optimizer" and v == {"step": 120, "progress_total": 4800}
    _, v = read("composer", "\t Train throughput/device/mfu: 0.4312")
    assert v == {"reported_mfu": 0.4312}  # already a fraction, not a percentage
    _, v = read("composer", "\t Train throughput/batches_per_sec: 0.1250")
    assert v == {"step_time_s": 8.0}
    _, v = read("composer", "\t Train throughput/device/flops_per_sec: 426456789012345.6250")
    assert v["reported_tflops_per_gpu"] == pytest.approx(426.4568)
    assert read("composer", "\t Train time/batch: 119")[1] == {}  # logged at batch start: not the step


COMPOSER_BLOCKS = "\n".join(
    [
        "[batch=120/4800]:",  # built from console_logger.py's progress string
        "\t Train time/batch: 119",
        "\t Train loss/train/total: 2.1934",
        *COMPOSER_REAL,
        "\t Train throughput/device/mfu: 0.4312",
        "\t Train time/secs_per_step: 6.8123",
        "[batch=121/4800]:",
        "\t Train time/batch: 120",
        "\t Train loss/train/total: 2.1911",
        "\t Train throughput/tokens_per_sec: 20085.0000",
        "\t Train time/secs_per_step: 6.8101",
    ]
)


def test_composer_blocks_detected(write_log):
    run = api.resolve(write_log(COMPOSER_BLOCKS + "\n"))
    assert run.parsed.detection.name == "composer"
    assert list(run.steps["step"]) == [120, 121]


def test_composer_blocks_end_to_end(write_log):
    steps = api.parse(write_log(COMPOSER_BLOCKS + "\n"))
    assert list(steps["step"]) == [120, 121]
    first, second = steps.iloc[0], steps.iloc[1]
    assert first["loss"] == 2.1934 and first["samples_per_s"] == 2.733
    assert first["tokens_per_s"] == 20082.8418 and first["tokens_per_s_per_gpu"] == 1255.1776
    assert first["reported_mfu"] == 0.4312 and first["step_time_s"] == 6.8123
    assert second["loss"] == 2.1911 and second["tokens_per_s"] == 20085.0 and second["step_time_s"] == 6.8101
    assert math.isnan(second["reported_mfu"])  # a block's values never leak into the next


# ------------------------------------------------------------------------------------------------
# (a) OLMo v1, log_formats.md §6f

OLMO_REAL = [
    "[2024-04-17 09:42:38] INFO     [olmo.train:816, rank=0] [step=2/739328]",
    "    train/CrossEntropyLoss=10.73",
    "    throughput/total_tokens=8,388,608",
    "    throughput/device/tokens_per_second=45,538",
    "    throughput/device/batches_per_second=0.0869",
    "    System/Peak GPU Memory (MB)=43,309",
]


def test_olmo_real_lines():
    spec, v = read("olmo", OLMO_REAL[0])
    assert spec.name == "step" and spec.step == "optimizer"
    assert v == {"step": 2, "timestamp": pytest.approx(1713346958.0)}
    values = {}
    for line in OLMO_REAL[1:]:
        spec, v = read("olmo", line)
        assert spec.name == "metric"
        values.update(v)
    assert values["loss"] == 10.73
    assert values["consumed_tokens"] == 8388608  # the job's running total, thousands separators
    assert values["tokens_per_s_per_gpu"] == 45538.0 and "tokens_per_s" not in values  # per device
    assert values["step_time_s"] == pytest.approx(1 / 0.0869)  # batches/s over the window -> s per step
    assert values["memory_gib"] == pytest.approx(43309e6 / 2**30)  # MB = 10^6 bytes -> GiB


def test_olmo_block_detected(write_log):
    run = api.resolve(write_log("\n".join(OLMO_REAL) + "\n"))
    assert run.parsed.detection.name == "olmo" and list(run.steps["step"]) == [2]


def test_olmo_block_end_to_end(write_log):
    nxt = [
        "[2024-04-17 09:42:50] INFO     [olmo.train:816, rank=0] [step=3/739328]",  # built from the format
        "    train/CrossEntropyLoss=10.51",
        "    throughput/total_tokens=12,582,912",
        "    throughput/device/tokens_per_second=45,601",
        "    throughput/device/batches_per_second=0.0870",
    ]
    steps = api.parse(write_log("\n".join(OLMO_REAL + nxt) + "\n"))
    assert list(steps["step"]) == [2, 3]
    first, second = steps.iloc[0], steps.iloc[1]
    assert first["loss"] == 10.73 and first["consumed_tokens"] == 8388608
    assert first["tokens_per_s_per_gpu"] == 45538.0 and first["step_time_s"] == pytest.approx(1 / 0.0869)
    assert first["memory_gib"] == pytest.approx(43309e6 / 2**30)
    assert second["loss"] == 10.51 and second["tokens_per_s_per_gpu"] == 45601.0
    assert math.isnan(second["memory_gib"])  # printed on steps < 3 and every 10th only


# ------------------------------------------------------------------------------------------------
# (b) generated logs: detection, optimizer-step numbering, stable MFU against the truth


def analyze(write_log, text: str, **opts):
    return api.analyze(str(write_log(text)), hw="h100", **opts)


@pytest.mark.parametrize("log_interval", [1, 10])
def test_gpt_neox_generated(write_log, log_interval):
    spec = Spec(
        steps=200, seed=1, log_interval=log_interval, dips=[Dip(120, 3, 0.5)] if log_interval == 1 else []
    )
    text, truth = gpt_neox_log(spec)
    a = analyze(write_log, text, model="llama2-7b")
    s = a.summary
    assert s["format"] == "gpt-neox"
    assert list(a.steps["step"]) == truth["logged_steps"] == list(range(log_interval, 201, log_interval))
    assert s["gpus"] == 8 and s["gpus_source"] == "log"  # global_num_gpus from the argument dump
    assert close(s["stable"]["mfu_mean"], truth["stable_mfu"]), s["stable"]
    assert s["reported"]["framework_formula"] == "narayanan with full recomputation"
    assert s["reported"]["agrees_within"] < 0.005  # "%3.1f" TFLOPS
    if log_interval == 1:
        assert [(d["start_step"], d["end_step"]) for d in s["dips"]] == [(120, 122)]


@pytest.mark.parametrize("form", ["2025", "2024", "2023"])
def test_maxtext_generated(write_log, form):
    text, truth = maxtext_log(Spec(steps=160, seed=2), form=form, rampup_steps=6 if form == "2025" else 0)
    a = analyze(write_log, text, model="llama2-7b")
    s = a.summary
    assert s["format"] == "maxtext"
    assert list(a.steps["step"]) == truth["logged_steps"] == list(range(0, 160))  # counted from 0
    assert s["gpus"] == 8 and s["gpus_source"] == "log"  # Num_devices
    assert close(s["stable"]["mfu_mean"], truth["stable_mfu"]), s["stable"]
    # attention counted causally since 2025-07 (PR #1988), fully before
    formula = "megatron" if form == "2025" else "megatron-2024"
    assert s["reported"]["framework_formula"] == formula and s["reported"]["agrees_within"] < 0.001


def test_maxtext_restart_counted_from_zero(write_log):
    spec = Spec(steps=160, seed=6, restart=(120, 100), restart_gap_s=600, save_interval=50)
    text, truth = maxtext_log(spec)
    a = analyze(write_log, text, model="llama2-7b")
    (r,) = a.summary["restarts"]
    assert (r["at_step"], r["resumed_from"], r["redone_steps"]) == (119, 99, 20)  # 0-based step numbers
    assert list(a.steps["step"]) == list(range(0, 160))
    assert close(a.summary["stable"]["mfu_mean"], truth["stable_mfu"])


@pytest.mark.parametrize("suffix,year", [("B", True), ("G", False)])
def test_nanotron_generated(write_log, suffix, year):
    text, truth = nanotron_log(
        Spec(steps=160, seed=3, save_interval=100), suffix_1e9=suffix, year_in_date=year
    )
    assert "\x1b[2;3m" in text
    a = analyze(write_log, text, model="llama2-7b")
    s = a.summary
    assert s["format"] == "nanotron"
    assert list(a.steps["step"]) == truth["logged_steps"] == list(range(1, 161))
    assert s["gpus"] == 8  # dp x tp x pp from the config dump
    assert close(s["stable"]["mfu_mean"], truth["stable_mfu"]), s["stable"]
    assert s["reported"]["framework_formula"] == "megatron-2024" and s["reported"]["agrees_within"] < 0.005
    assert a.steps["consumed_tokens"].iloc[-1] == pytest.approx(160 * 128 * 4096, rel=0.005)


def test_composer_generated_detected_with_optimizer_steps(write_log):
    text, truth = composer_log(Spec(steps=60, seed=4))
    a = api.resolve(write_log(text))
    assert a.parsed.detection.name == "composer"
    assert list(a.steps["step"]) == truth["logged_steps"] == list(range(1, 61))
    assert a.facts["seq_len"].value == 4096 and a.facts["gpus"].value == 8


@pytest.mark.parametrize("secs_per_step", [True, False])
def test_composer_generated_mfu(write_log, secs_per_step):
    text, truth = composer_log(Spec(steps=200, seed=4), secs_per_step=secs_per_step)
    s = analyze(write_log, text, model="llama2-7b").summary
    assert s["format"] == "composer"
    assert close(s["stable"]["mfu_mean"], truth["stable_mfu"]), s["stable"]
    rep = s["reported"]
    assert rep["framework_formula"] == "palm" and rep["mfu_mean"] == pytest.approx(
        truth["stable_mfu"], rel=0.02
    )


def test_olmo_generated(write_log):
    text, truth = olmo_log(Spec(steps=200, seed=5))
    opts = {"model": "llama2-7b", "seq_len": 4096, "gpus": 8}
    a = analyze(write_log, text, **opts)
    s = a.summary
    assert s["format"] == "olmo"
    assert list(a.steps["step"]) == truth["logged_steps"] == list(range(1, 201))
    assert close(s["stable"]["mfu_mean"], truth["stable_mfu"]), s["stable"]


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_sample_logs_are_detected(write_log, name):
    writer, spec = SAMPLES[name]
    text, truth = writer(spec)
    assert len(text.splitlines()) < 500
    run = api.resolve(write_log(text, f"{name}.log"))
    assert run.parsed.detection.name == name.split("_")[0] == truth["format"]
    assert list(run.steps["step"]) == truth["logged_steps"]
