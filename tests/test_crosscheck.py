"""End to end: the framework's own figures reproduced under its convention and the
difference to the chosen one explained; model facts from logs; ETA; peaks."""

from __future__ import annotations

import pytest

from logparse import api
from logparse.core.errors import LogparseError
from logparse.specs.models import preset_dims
from tests import synth


def analyze(write_log, text: str, name: str = "train.log", **opts):
    return api.analyze(str(write_log(text, name)), **opts)


def test_megatron_2024_log_is_reproduced_under_its_own_formula(write_log):
    text, _ = synth.megatron_log(synth.Spec(steps=100, seed=1, seq_len=8192, global_batch=64))
    s = analyze(write_log, text, hw="h100").summary
    rep = s["reported"]
    assert rep["framework"] == "Megatron-LM" and rep["framework_formula"] == "megatron-2024"
    assert rep["agrees_within"] < 0.002
    assert not any("convention" in w for w in s["warnings"])  # palm and megatron-2024 agree (0.003%)


def test_a_causal_megatron_log_is_explained_not_just_flagged(write_log):
    text, _ = synth.megatron_log(
        synth.Spec(steps=100, seed=2, seq_len=8192, global_batch=64, reported_formula="megatron")
    )
    s = analyze(write_log, text, hw="h100").summary
    rep = s["reported"]
    assert rep["framework_formula"] == "megatron" and rep["agrees_within"] < 0.002
    assert rep["differs_from_ours_by"] == pytest.approx(46.085 / 52.529 - 1, abs=0.003)  # -12.3% at 8k
    warning = next(w for w in s["warnings"] if "convention" in w)
    assert "-12." in warning and "halves causal attention" in warning


def test_torchtitan_tflops_and_mfu_reproduced(write_log):
    text, truth = synth.torchtitan_log(synth.Spec(steps=300, seq_len=8192, global_batch=64, seed=3))
    a = analyze(write_log, text, hw="h100", model="llama2-7b")
    rep = a.summary["reported"]
    assert a.summary["format"] == "torchtitan"
    assert rep["framework"] == "torchtitan" and rep["framework_formula"] == "palm"
    assert rep["agrees_within"] < 0.001
    assert rep["mfu_mean"] == pytest.approx(a.summary["stable"]["mfu_mean"], rel=0.005)
    assert a.summary["gpus"] == 8 and a.summary["gpus_source"] == "derived"


def test_torchtitans_a100_fallback_is_named(write_log):
    text, _ = synth.torchtitan_log(
        synth.Spec(steps=100, seq_len=8192, global_batch=64, seed=4), peak_tflops=312.0
    )
    s = analyze(write_log, text, hw="mi355x", model="llama2-7b").summary
    assert any("against 312 TFLOPS" in w and "A100 fallback" in w for w in s["warnings"])


def test_nanogpt_mfu_against_the_a100_peak_is_explained(write_log):
    gpt2 = preset_dims("gpt2")
    spec = synth.Spec(
        steps=400, model=gpt2, seq_len=1024, global_batch=480, micro_batch=12, gpus=8, mfu=0.4, seed=5
    )
    text, truth = synth.nanogpt_log(spec)
    a = analyze(write_log, text, hw="h100", gpus=8, model="gpt2")
    s = a.summary
    assert s["format"] == "nanogpt"
    assert s["stable"]["mfu_mean"] == pytest.approx(truth["stable_mfu"], rel=0.01)
    rep = s["reported"]
    assert rep["mfu_mean"] > 1  # 40% of 989 is 127% of 312
    assert rep["agrees_within"] < 0.02  # EMA-smoothed, so not exact
    assert any("divides by 312 TFLOPS whatever the GPU" in w for w in s["warnings"])


MEGATRON_LINE = (
    " [2024-09-03 15:{m:02d}:{s:02d}] iteration {i:8d}/     100 | consumed samples: {c:12d} | elapsed time per "
    "iteration (ms): 6786.5 | throughput per GPU (TFLOP/s/GPU): 1200.0 | learning rate: 3.000000E-04 | global batch "
    "size:   128 | lm loss: 2.500000E+00 | loss scale: 1.0 | grad norm: 1.000 | number of skipped iterations:   0 | "
    "number of nan iterations:   0 |\n"
)


def test_a_reported_figure_above_the_dense_peak_is_implausible(write_log):
    text = "".join(MEGATRON_LINE.format(m=i // 60, s=i % 60, i=i, c=128 * i) for i in range(1, 60))
    s = analyze(write_log, text, hw="h100", gpus=8, seq_len=4096, model="llama2-7b").summary
    assert any("above the dense bf16 peak of 989" in w for w in s["warnings"])
    assert any("even under Megatron-LM's convention" in w for w in s["warnings"])


def test_moe_dims_come_from_the_argument_dump(write_log):
    spec = synth.Spec(steps=60, model=preset_dims("mixtral-8x7b"), seed=6, global_batch=256, gpus=64, mfu=0.3)
    text, truth = synth.megatron_log(spec)
    a = analyze(write_log, text, hw="h100")
    m = a.summary["model"]
    assert (
        m["layers"],
        m["kv_heads"],
        a.run.facts["num_experts"].value,
        a.run.facts["moe_router_topk"].value,
    ) == (32, 8, 8, 2)
    assert m["params"] == pytest.approx(preset_dims("mixtral-8x7b").params, rel=1e-9)  # active N
    assert a.summary["stable"]["mfu_mean"] == pytest.approx(0.3, rel=0.01)


def test_recompute_granularity_from_the_log_sets_hfu(write_log):
    text, _ = synth.megatron_log(synth.Spec(steps=60, seed=7, recompute="full"))
    s = analyze(write_log, text, hw="h100").summary
    assert s["recompute"] == "full"
    assert s["stable"]["hfu_mean"] == pytest.approx(s["stable"]["mfu_mean"] * 4 / 3, rel=1e-6)
    assert "4/3" in s["hfu_convention"]


HF_FSDP = """[INFO|trainer.py:2519] 2025-12-31 13:12:20,429 >> ***** Running training *****
[INFO|trainer.py:2520] 2025-12-31 13:12:20,429 >>   Num examples = 2,400
[INFO|trainer.py:2521] 2025-12-31 13:12:20,429 >>   Num Epochs = 9,223,372,036,854,775,807
[INFO|trainer.py:2522] 2025-12-31 13:12:20,429 >>   Instantaneous batch size per device = 1
[INFO|trainer.py:2525] 2025-12-31 13:12:20,429 >>   Total train batch size (w. parallel, distributed & accumulation) = 24
[INFO|trainer.py:2526] 2025-12-31 13:12:20,429 >>   Gradient Accumulation steps = 1
[INFO|trainer.py:2527] 2025-12-31 13:12:20,430 >>   Total optimization steps = 100
[INFO|trainer.py:2528] 2025-12-31 13:12:20,430 >>   Number of trainable parameters = 51,492,278
"""


def test_an_fsdp_shard_count_is_not_used_as_n(write_log):
    # saforem2/ezpz: Llama-3.2-1B under FSDP on 24 ranks prints 1/24 of its parameters
    dicts = "".join(
        f"{{'loss': {3 - i / 100:.4f}, 'grad_norm': 0.8, 'learning_rate': 5e-07, 'epoch': {i / 100:.2f}}}\n"
        f" {i}%|#| {i}/100 [00:{i // 4:02d}<00:10, {4.0 + (i % 3) / 10:.2f}it/s]\n"
        for i in range(1, 100)
    )
    s = analyze(write_log, HF_FSDP + dicts, seq_len=2048, hw="h100").summary
    assert s["gpus"] == 24
    assert any("is one shard" in w and "llama3.2-1b" in w for w in s["warnings"])
    assert s["model"]["params"] == pytest.approx(preset_dims("llama3.2-1b").params)


def test_eta_seed3_123_days(write_log):
    # 7B, 1T tokens, 8 x H100 at 50% MFU with FLOPs/token = 6N = 4.2e10: 94,190 tokens/s -> 123 days
    wanted_tps = 0.5 * 8 * 989e12 / 4.2e10
    spec = synth.Spec(steps=200, seed=8, noise=0.0)
    spec.mfu = wanted_tps * spec.flops_per_token / (989e12 * 8)
    text, _ = synth.megatron_log(spec)
    s = analyze(write_log, text, hw="h100", params=7e9, formula="6n", target_tokens=1e12).summary
    assert s["stable"]["mfu_mean"] == pytest.approx(0.5, rel=1e-3)
    assert s["eta"]["days"] == pytest.approx(123, abs=1)


@pytest.mark.parametrize(
    "hw,dtype,peak", [("h200", "bf16", 989.0), ("h100", "fp8", 1979.0), ("b200", None, 2250.0)]
)
def test_the_summary_states_the_peak_and_dtype(write_log, hw, dtype, peak):
    text, _ = synth.megatron_log(synth.Spec(steps=40, seed=9, mfu=0.2))
    opts = {"hw": hw} | ({"dtype": dtype} if dtype else {})
    s = analyze(write_log, text, **opts).summary
    assert s["hardware"]["peak_tflops_per_gpu"] == peak and s["hardware"]["dense"] is True
    assert s["hardware"]["dtype"] == (dtype or "bf16") and s["formula"] == "palm"


def test_unknown_device_is_an_error(write_log):
    text, _ = synth.megatron_log(synth.Spec(steps=40, seed=10))
    with pytest.raises(LogparseError, match="unknown hardware 'rtx5090'"):
        analyze(write_log, text, hw="rtx5090")


MDS = (
    " iteration {i:8d}/  317892 | consumed samples: {c:12d} | consumed tokens: {t:12d} | elapsed time per "
    "iteration (ms): 10154.3 | learning rate: 3.000E-04 | global batch size:    32 | lm loss: 1.766422E+01 | "
    "loss scale: 1.0 | actual seqlen:  4096 | number of skipped iterations:   0 | number of nan iterations:   0 | "
    "samples per second: 3.151 | tokens per gpu per second(tgs): 1613.503 | TFLOPs: 98.29 |\n"
)


def test_megatron_deepspeed_tflops_count_recomputation(write_log):
    # argonne-lcf Megatron-DeepSpeed README line: 8 GPUs (32 x 4096 / 10.1543 s / 1613.5 tgs), a
    # Llama-2-7B-shaped model (L=32, d=4096, V=32000, inferred: the figure fits to the printed digit),
    # and Megatron-DeepSpeed's pre-2024-08 24 f B s L h^2 (1 + s/6h + V/16Lh) with f = 4 (checkpointing)
    text = "".join(MDS.format(i=i, c=32 * i, t=32 * 4096 * i) for i in range(1, 41))
    s = analyze(write_log, text, model="llama2-7b", hw="a100").summary
    rep = s["reported"]
    assert rep["framework"] == "Megatron-DeepSpeed" and rep["quantity"].endswith("(counts recomputation)")
    assert rep["framework_formula"] == "narayanan with full recomputation"
    assert rep["agrees_within"] < 0.002
