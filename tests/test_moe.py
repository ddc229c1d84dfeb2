"""MoE: presets against their published total and active sizes, and public MoE benchmark figures
(tests/data/public/moe_*.log, credited in MOE_SOURCES.toml) reproduced by logparse.specs.formulas within 1%.

Every number a test compares against is read by hand off the saved excerpt (or the README table its
run facts come from, as MOE_SOURCES.toml says) and written here; the test also checks the excerpt says it.
"""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

import pytest

import logparse
from logparse.specs import formulas as flops
from logparse.specs.formulas import ModelDims
from logparse.specs.models import all_params, preset_dims, total_params
from logparse.utilization import mfu as utilization

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

HERE = Path(__file__).parent / "data" / "public"
SOURCES = tomllib.loads((HERE / "MOE_SOURCES.toml").read_text())["excerpt"]


def _excerpt(name: str) -> str:
    return (HERE / f"{name}.log").read_text()


def _dims(preset: str, **overrides) -> ModelDims:
    d = preset_dims(preset)
    if overrides:
        d = replace(d, **overrides)
        if "params" not in overrides:
            d = replace(d, params=None).with_params()
    return d


# ------------------------------------------------------------------------------------------------
# presets: total (every expert) and active (the experts a token uses) against the published figures.
# Conventions differ: Mistral and Qwen count the input embedding in the active size; DeepSeek's
# "activated parameters" leave it out (V2-Lite's 2.4B cannot include its 0.21B embedding).

PUBLISHED = [
    # preset, total (B), active (B), active counts the input embedding?, tolerance, citation
    (
        "mixtral-8x7b",
        46.7,
        12.9,
        True,
        0.01,
        "Jiang et al. 2024 (arXiv 2401.04088): 47B / 13B; HF card 46.7B",
    ),
    ("mixtral-8x22b", 141.0, 39.0, True, 0.01, "mistral.ai/news/mixtral-8x22b: 141B, 39B active"),
    (
        "deepseek-v2",
        236.0,
        21.0,
        False,
        0.01,
        "DeepSeek-V2 (arXiv 2405.04434) abstract: 236B total, 21B activated",
    ),
    ("deepseek-v2-lite", 15.7, 2.4, False, 0.025, "arXiv 2405.04434 appendix B: 15.7B total, 2.4B activated"),
    (
        "deepseek-v3",
        671.0,
        37.0,
        False,
        0.015,
        "DeepSeek-V3 (arXiv 2412.19437) abstract: 671B total, 37B activated",
    ),
    (
        "qwen2-57b-a14b",
        57.0,
        14.0,
        True,
        0.02,
        "Qwen2 technical report (arXiv 2407.10671) table 1: 57B, 14B activated",
    ),
    ("qwen3-30b-a3b", 30.5, 3.3, True, 0.02, "Qwen/Qwen3-30B-A3B model card: 30.5B total, 3.3B activated"),
    (
        "qwen3-235b-a22b",
        235.0,
        22.0,
        True,
        0.01,
        "Qwen/Qwen3-235B-A22B model card: 235B total, 22B activated",
    ),
    ("grok-1", 314.0, None, True, 0.01, "xai-org/grok-1 README: 314B parameters, 2 of 8 experts per token"),
]


@pytest.mark.parametrize("name,total,active,with_embedding,tol,cite", PUBLISHED)
def test_moe_preset_total_and_active_parameters(name, total, active, with_embedding, tol, cite):
    d = preset_dims(name)
    assert d.moe
    assert all_params(d) / 1e9 == pytest.approx(total, rel=tol), cite
    if active is not None:
        got = total_params(d) if with_embedding else d.params
        assert got / 1e9 == pytest.approx(active, rel=tol), cite
    assert d.params == flops.params_from_dims(d) < flops.params_from_dims(d, all_experts=True)


def test_grok1_active_is_about_a_quarter():
    # x.ai/blog/grok-os (2024-03-17): "314B parameter Mixture-of-Experts model with 25% of the weights
    # active on a given token" (a rounded share): 2 of 8 experts plus attention and embedding is 26.5%
    d = preset_dims("grok-1")
    assert total_params(d) / all_params(d) == pytest.approx(0.25, abs=0.02)


def test_dense_models_have_one_size():
    d = preset_dims("llama3-8b")
    assert all_params(d) == total_params(d)


def test_6n_and_palm_count_active_parameters():
    d = preset_dims("mixtral-8x7b")
    active_no_router = (
        d.layers * (4096 * (4096 + 2 * 1024) + 4096 * 4096 + 2 * 4096)
        + d.layers * 2 * 3 * 4096 * 14336
        + 4096 * 32000
        + 4096
    )
    router = d.layers * 4096 * 8
    assert d.params == active_no_router + router
    assert flops.flops_per_token(d, 4096, "6n") == pytest.approx(6 * d.params)
    # megatron's routed-expert GEMMs are top-k too: beside attention, palm's 6N differs from it only by
    # the norms and the router, which megatron does not count
    palm, meg = flops.terms(d, 4096, "palm"), flops.terms(d, 4096, "megatron")
    assert palm.dense + palm.logits - (meg.dense + meg.logits) == 6 * (router + 2 * d.layers * 4096 + 4096)


# ------------------------------------------------------------------------------------------------
# Grok-1, NVIDIA dgxc-benchmarking (NeMo), stated MFU

GROK_BENCH = _dims("grok-1", vocab=128256)  # the recipe trains with the Llama-3 tokenizer


def test_grok1_flops_per_sample_is_the_readme_formula():
    text = _excerpt("moe_grok1_dgxc_mfu_formula")
    for s in ("53,150,220,288", "463,856,467,968", "4,728,029,184", "= 4.27E15"):
        assert s in text
    t = flops.terms(GROK_BENCH, 8192, "megatron")
    # the README's attention term is the attention projections plus the causal core
    attn_linear = 6.0 * GROK_BENCH.layers * flops._attn_linear_macs(GROK_BENCH)
    assert attn_linear + t.attention == pytest.approx(53_150_220_288, rel=1e-12)
    assert t.dense - attn_linear == pytest.approx(463_856_467_968, rel=1e-12)
    assert t.logits == pytest.approx(4_728_029_184, rel=1e-12)
    assert t.total * 8192 == pytest.approx(4.27e15, rel=1e-3)


def _grok_mfu(gbs: int, step_s: float, gpus: int, peak: float) -> float:
    fpt = flops.flops_per_token(GROK_BENCH, 8192, "megatron")
    return utilization.mfu(fpt, gbs * 8192 / step_s, peak, gpus)


@pytest.mark.parametrize(
    "run", SOURCES["moe_grok1_dgxc_perf"]["runs"], ids=lambda r: f"{r['gpus']}{r['hardware']}-{r['dtype']}"
)
def test_grok1_dgxc_tables_mfu(run):
    text = _excerpt("moe_grok1_dgxc_perf")
    assert f"{run['step_time_s']}" in text and f"{run['stated_mfu'] * 100:g}%" in text.replace("0%", "%")
    got = _grok_mfu(run["global_batch"], run["step_time_s"], run["gpus"], run["peak_tflops"])
    assert got == pytest.approx(run["stated_mfu"], rel=0.01)


def test_grok1_dgxc_fp8_worked_example():
    text = _excerpt("moe_grok1_dgxc_fp8_example")
    assert "MFU = 256 * 4.27E+15 / 6.631 / 128 / 4.9E+15 = 26.3%" in text
    assert _grok_mfu(256, 6.631, 128, 4900) == pytest.approx(0.263, rel=0.01)


def test_grok1_total_parameters_would_overstate_mfu_3_6x():
    # 6 x all 314B parameters against the active count the benchmark uses: MFU about 3.6x too high
    fpt_active = flops.flops_per_token(GROK_BENCH, 8192, "megatron")
    fpt_total = flops.flops_per_token(ModelDims(params=all_params(preset_dims("grok-1"))), 8192, "6n")
    assert fpt_total / fpt_active == pytest.approx(3.6, abs=0.05)
    mfu_total = utilization.mfu(fpt_total, 1024 * 8192 / 15.933, 989, 512)  # H100 BF16 row: stated 54.2%
    assert mfu_total > 1.9  # an impossible 196%


# ------------------------------------------------------------------------------------------------
# DeepSeek-V3 (the DeepSeek-V2 architecture: MLA + DeepSeekMoE, plus MTP), stated TFLOP/s and MFU

DSV3 = preset_dims("deepseek-v3")


@pytest.mark.parametrize(
    "name,line,gpus,gbs,step_s,tflops,mfu,peak",
    [
        (
            "moe_deepseek_v3_dgxc_h100",
            "MFU = 235.43e+12 / 989e+12 = 23.80%",
            1024,
            8192,
            36.189,
            235.43,
            0.2380,
            989,
        ),
        (
            "moe_deepseek_v3_dgxc_gb200",
            "MFU = 769.50e+12 / 2.45e+15 = 31.41%",
            256,
            2048,
            11.07148,
            769.50,
            0.3141,
            2450,
        ),
    ],
)
def test_deepseek_v3_dgxc_mfu(name, line, gpus, gbs, step_s, tflops, mfu, peak):
    text = _excerpt(name)
    assert line in text and f"{tflops:.2f}" in text
    tokens_per_s = gbs * 4096 / step_s
    fpt = flops.flops_per_token(DSV3, 4096, "megatron-bridge")
    assert fpt * tokens_per_s / gpus / 1e12 == pytest.approx(tflops, rel=0.01)
    assert utilization.mfu(fpt, tokens_per_s, peak, gpus) == pytest.approx(mfu, rel=0.01)
    # to 0.05%, in fact; Megatron-LM's own count (MTP as projection + logits only) is 1.5% low
    assert utilization.mfu(fpt, tokens_per_s, peak, gpus) == pytest.approx(mfu, rel=5e-4)
    meg = flops.flops_per_token(DSV3, 4096, "megatron")
    assert utilization.mfu(meg, tokens_per_s, peak, gpus) / mfu == pytest.approx(0.985, abs=0.002)


def test_megatron_bridge_is_megatron_without_mtp():
    no_mtp = replace(DSV3, mtp_layers=0)
    assert flops.flops_per_token(no_mtp, 4096, "megatron-bridge") == flops.flops_per_token(
        no_mtp, 4096, "megatron"
    )
    d = preset_dims("grok-1")
    assert flops.flops_per_token(d, 8192, "megatron-bridge") == flops.flops_per_token(d, 8192, "megatron")


def test_megatron_bridge_matches_nemo2_deepseekv3_formula():
    """NeMo 2 nemo/utils/flops_formulas.py `deepseekv3` (NVIDIA/NeMo @6a5ad765), transcribed: the MTP
    module counts as one more MoE layer; Bridge adds its two norms (3h), which NeMo 2 leaves out."""
    h, L, heads, s = 7168, 61, 128, 4096
    qk, rope, v, ql, kvl = 128, 64, 128, 1536, 512
    bmm = 0.5 * (qk + rope) * heads * s * s + 0.5 * v * heads * s * s
    attention = 6 * bmm * (L + 1)
    mla = h * ql + ql * (qk + rope) * heads + h * rope + h * kvl + kvl * (qk + v) * heads + v * heads * h
    ffn = 3 * h * 18432 * 3 + (58 + 1) * (3 * h * 2048 + 3 * h * 2048 * 8)
    linear = 6 * (mla * (L + 1) + ffn) * s
    vocab = 6 * 129280 * h * s * 2 + 6 * h * 2 * h * s
    nemo = (attention + linear + vocab) / s
    got = flops.flops_per_token(DSV3, s, "megatron-bridge")
    assert got - nemo == pytest.approx(6 * 3 * h, rel=1e-6)


# ------------------------------------------------------------------------------------------------
# Qwen3 and DeepSeek-V3 in Megatron-Bridge: stated TFLOP/s per GPU (no MFU stated)


def test_qwen3_235b_dgxc_tflops():
    text = _excerpt("moe_qwen3_235b_dgxc")
    assert "Success     25532.270       13.911              190.00" in text
    d = _dims("qwen3-235b-a22b", vocab=152064)
    fpt = flops.flops_per_token(d, 4096, "megatron")
    assert fpt * 2048 * 4096 / 25.53227 / 256 / 1e12 == pytest.approx(190.00, rel=0.01)


_BRIDGE_RUNS = [
    (name, run)
    for name in ("moe_megatron_bridge_perf_2608", "moe_megatron_bridge_perf_2511")
    for run in SOURCES[name]["runs"]
]


@pytest.mark.parametrize(
    "name,run",
    _BRIDGE_RUNS,
    ids=[f"{n[-4:]}-{r['model']}-{r['hardware']}-{r['dtype']}" for n, r in _BRIDGE_RUNS],
)
def test_megatron_bridge_performance_tables(name, run):
    row = f"| {run['tokens_per_s_per_gpu']} | {run['stated_tflops_per_gpu']} |"
    assert row in _excerpt(name)
    over = dict(run.get("overrides", {}))
    d = _dims(run["preset"], **over) if over else preset_dims(run["preset"])
    fpt = flops.flops_per_token(d, run["seq_len"], run["formula"])
    got = fpt * run["tokens_per_s_per_gpu"] / 1e12
    assert got == pytest.approx(run["stated_tflops_per_gpu"], rel=0.01)


# ------------------------------------------------------------------------------------------------
# end to end: benchmark logs of MoE models through logparse.analyze, with the model's preset

PEERS = Path(__file__).parent / "data" / "peers"


def test_qwen3_30b_a3b_megatron_bridge_log_gives_its_model_tflops():
    """NVIDIA CloudAI's Megatron-Bridge fixture (tests/workloads/megatron_bridge/test_report_gen_strategy.py:30-40,
    a Qwen3-30B-A3B pretrain in MXFP8, `load_balancing_loss` on its iteration line): 'Step Time : 9.09s GPU
    utilization: 663.5MODEL_TFLOP/s/GPU', iteration 50 at 9089.0 ms, global batch 512, on one 8-GPU node
    (num_nodes=1). Megatron-Bridge's recipe trains at sequence length 4096. logparse, counting the preset's
    active parameters (top-8 of 128 experts) with Megatron's formula, gives the framework's own figure."""
    a = logparse.analyze(
        PEERS / "cloudai" / "megatron_bridge_step_time.log",
        model="qwen3-30b-a3b",
        gpus=8,
        seq_len=4096,
        formula="megatron",
        hw="b200",
        dtype="fp8",
        last=10,  # CloudAI's rule: the last 10 Step Time lines (one here)
    )
    s = a.summary
    w = s["window"]
    assert a.util.model.moe and a.util.model.topk == 8
    assert w["count"] == 1
    assert w["tflops_per_gpu"]["mean"] == pytest.approx(663.5, rel=0.01)
    peak = s["hardware"]["peak_tflops_per_gpu"]
    assert w["mfu"]["mean"] == pytest.approx(663.5 / peak, rel=0.01)
    # N is the active count: the model card's 3.3B activated (of 30.5B) less the 0.31B input embedding
    assert 2.8e9 < s["model"]["params"] < 3.3e9


def test_grok1_benchmark_line_gives_the_readme_mfu_with_the_preset():
    """NVIDIA dgxc-benchmarking grok1/README_314b.md (commit 741c886) line 29: the last step's
    'train_step_timing in s=24.00' on 2048 H100s, global batch 4096, sequence 8192; line 61 states
    4096 x 4.27E+15 / 24 / 2048 / 989E+12 = 36.0% MFU. With the grok-1 preset (8 experts, top-2) on the
    benchmark's Llama-3 tokenizer (vocab 128256) and Megatron's formula, logparse gives the same MFU."""
    a = logparse.analyze(
        PEERS / "dgxc" / "readme_grok1_314b_bar.log",
        model="grok-1",
        vocab=128256,
        formula="megatron",
        gpus=2048,
        hw="h100",
        dtype="bf16",
        seq_len=8192,
        global_batch=4096,
        last=1,
    )
    assert a.summary["window"]["mfu"]["mean"] == pytest.approx(0.360, rel=0.01)
