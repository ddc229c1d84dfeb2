"""The named formulas: the reference's Llama-2-7B table, Megatron-LM's printed throughput on real
runs, a transcription of Megatron-LM's current code, and torchtitan's printed tflops and mfu."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from logparse import api
from logparse.specs import formulas as flops
from logparse.specs.formulas import ModelDims
from logparse.specs.models import preset_dims, presets

LLAMA2_7B = preset_dims("llama2-7b")

# flops_and_peaks.md, table (b): GFLOP per token
TABLE = {
    "6n": (39.644, 39.644),
    "palm": (46.087, 52.529),
    "megatron-2024": (46.085, 52.527),
    "megatron": (42.864, 46.085),
    "narayanan": (45.884, 52.326),
}


@pytest.mark.parametrize("formula", TABLE)
@pytest.mark.parametrize("i,seq", [(0, 4096), (1, 8192)])
def test_llama2_7b_table(formula, i, seq):
    got = flops.flops_per_token(LLAMA2_7B, seq, formula) / 1e9
    assert got == pytest.approx(TABLE[formula][i], rel=1e-3)


@pytest.mark.parametrize(
    "seq,recompute,formula,gflops",
    [
        (4096, "full", "palm", 61.449),
        (8192, "full", "palm", 70.039),
        (4096, "selective", "palm", 48.234),
        (8192, "selective", "palm", 56.824),
        (4096, "full", "megatron", 57.152),
        (8192, "full", "megatron", 61.447),
        (4096, "full", "narayanan", 60.916),
        (8192, "full", "narayanan", 69.506),
    ],
)
def test_hfu_rows_of_the_table(seq, recompute, formula, gflops):
    assert flops.hardware_flops_per_token(LLAMA2_7B, seq, formula, recompute) / 1e9 == pytest.approx(
        gflops, rel=1e-3
    )


def _megatron_throughput(dims: ModelDims, formula: str, seq: int, gbs: int, ms: float, world: int) -> str:
    """Megatron's printed figure: FLOPs of the global batch / (time x 1e12 x world size), to .1f."""
    return f"{flops.flops_per_token(dims, seq, formula) * gbs * seq / (ms / 1000 * 1e12 * world):.1f}"


# Real Megatron-LM lines whose runs' configurations are published (before 2025-03: non-causal count).
REAL = [
    # SeunghyunSEO/Megatron-LM moe_exp/README.md, 2024-10-24, 8 GPUs: 24 x 512, 4 heads, 1 KV group,
    # SwiGLU 1792, seq 2048, GBS 64, Llama-3 tokenizer (128256, a multiple of 128)
    (
        ModelDims(layers=24, hidden=512, heads=4, kv_heads=1, ffn_hidden=1792, vocab=128256, swiglu=True),
        2048,
        64,
        226.4,
        8,
        "85.9",
    ),
    # the same with 64 experts, top-1 (the expert MLP is ffn_hidden_size): same FLOPs, slower step
    (
        ModelDims(
            layers=24,
            hidden=512,
            heads=4,
            kv_heads=1,
            ffn_hidden=1792,
            vocab=128256,
            swiglu=True,
            experts=64,
            topk=1,
        ),
        2048,
        64,
        631.6,
        8,
        "30.8",
    ),
    # fixstars/mdk tutorial, 2024-09-03, 2 nodes x 8 GPUs: 30 x 4096, 32 heads, SwiGLU (core_r0.8.0
    # default ffn 10880), seq 4096, GBS 1024, GPT-2 vocab padded to 50304
    (
        ModelDims(layers=30, hidden=4096, heads=32, ffn_hidden=10880, vocab=50304, swiglu=True),
        4096,
        1024,
        14197.6,
        16,
        "801.7",
    ),
    # OpenEuroLLM logs, 2025-03-31, 252 GPUs: 24 x 2048, 32 heads, SwiGLU 8192, seq 4096, GBS 1008
    (
        ModelDims(layers=24, hidden=2048, heads=32, ffn_hidden=8192, vocab=50304, swiglu=True),
        4096,
        1008,
        1552.8,
        252,
        "134.0",
    ),
    (
        ModelDims(layers=24, hidden=2048, heads=32, ffn_hidden=8192, vocab=50304, swiglu=True),
        4096,
        1008,
        1211.9,
        252,
        "171.7",
    ),
]


@pytest.mark.parametrize("dims,seq,gbs,ms,world,printed", REAL)
def test_megatron_2024_reproduces_real_printed_throughput(dims, seq, gbs, ms, world, printed):
    assert _megatron_throughput(dims, "megatron-2024", seq, gbs, ms, world) == printed


def _megatron_code(args: SimpleNamespace, batch_size: int) -> float:
    """Megatron-LM `num_floating_point_operations` (training.py @d98e8a64), transcribed literally
    from flops_and_peaks.md §3.1 for the standard-attention path (no MTP, no hybrid layers)."""
    forward_backward_expansion_factor = 3
    fma_expansion_factor = 2
    ffn_expansion_factor = 3 if args.swiglu else 2
    if args.num_experts is None:
        num_dense_layers, num_moe_layers, num_experts_routed_to = args.num_layers, 0, 0
    else:
        num_dense_layers = args.moe_dense_layers
        num_moe_layers = args.num_layers - num_dense_layers
        num_experts_routed_to = args.moe_router_topk
    moe_ffn_hidden_size = args.moe_ffn_hidden_size or args.ffn_hidden_size
    shared_expert_ffn_hidden_size = args.moe_shared_expert_intermediate_size or 0
    query_projection_size = args.kv_channels * args.num_attention_heads
    key_projection_size = args.kv_channels * args.num_query_groups
    value_projection_size = args.kv_channels * args.num_query_groups
    standard_self_attn_term = (
        forward_backward_expansion_factor
        * fma_expansion_factor
        * (
            args.hidden_size * (query_projection_size + key_projection_size + value_projection_size)
            + query_projection_size * args.hidden_size
        )
    )
    standard_self_attn_core_term = (
        forward_backward_expansion_factor * fma_expansion_factor * query_projection_size / 2 * 2
    )
    self_attn_term = standard_self_attn_term * args.num_layers
    total_real_tokens_in_batch = batch_size * args.seq_length
    seqlen_squared_sum_in_batch = batch_size * args.seq_length**2
    return (
        total_real_tokens_in_batch
        * (
            forward_backward_expansion_factor
            * fma_expansion_factor
            * args.hidden_size
            * (
                (args.ffn_hidden_size * ffn_expansion_factor) * num_dense_layers
                + (moe_ffn_hidden_size * num_experts_routed_to * ffn_expansion_factor) * num_moe_layers
                + (shared_expert_ffn_hidden_size * ffn_expansion_factor) * num_moe_layers
            )
            + self_attn_term
            + forward_backward_expansion_factor
            * fma_expansion_factor
            * args.hidden_size
            * args.padded_vocab_size
        )
        + seqlen_squared_sum_in_batch * standard_self_attn_core_term * args.num_layers
    )


@pytest.mark.parametrize(
    "name,seq",
    [
        ("llama2-7b", 4096),
        ("llama3-8b", 8192),
        ("llama2-70b", 4096),
        ("mixtral-8x7b", 4096),
        ("qwen2.5-72b", 32768),
    ],
)
def test_megatron_formula_matches_megatron_code(name, seq):
    d = preset_dims(name)
    args = SimpleNamespace(
        num_layers=d.layers,
        hidden_size=d.hidden,
        num_attention_heads=d.heads,
        num_query_groups=d.kv_heads or d.heads,
        kv_channels=d.hd,
        ffn_hidden_size=d.ffn_hidden,
        padded_vocab_size=d.vocab,
        swiglu=d.swiglu,
        seq_length=seq,
        num_experts=d.experts,
        moe_router_topk=d.topk,
        moe_ffn_hidden_size=d.moe_ffn_hidden,
        moe_shared_expert_intermediate_size=d.shared_expert_ffn,
        moe_dense_layers=d.dense_layers or 0,
    )
    gbs, ms, world = 256, 5000.0, 64
    printed = f"{_megatron_code(args, gbs) / (ms / 1000 * 1e12 * world):.1f}"
    assert _megatron_throughput(d, "megatron", seq, gbs, ms, world) == printed
    assert flops.flops_per_token(d, seq, "megatron") == pytest.approx(
        _megatron_code(args, 1) / seq, rel=1e-12
    )


def test_palm_reproduces_torchtitan_tflops_and_mfu():
    # [rank0]:[titan] ... step: 200  loss:  6.1384  memory: 49.66GiB(52.28%)  tps: 5,856  tflops: 339.16  mfu: 34.29%
    # (pytorch/torchtitan PR #1287: Llama-3-8B, sequence 8192, H100 at torchtitan's 989e12)
    fpt = flops.flops_per_token(preset_dims("llama3-8b"), 8192, "palm")
    tps_lo, tps_hi = 5855.5, 5856.5  # tps is printed rounded to an integer
    assert round(fpt * tps_lo / 1e12, 2) <= 339.16 <= round(fpt * tps_hi / 1e12, 2)
    assert f"{100 * fpt * 5856 / 989e12:.2f}" == "34.29"


def test_presets_cover_the_families_asked_for():
    names = set(presets())
    assert {
        "llama2-7b",
        "llama2-13b",
        "llama2-70b",
        "llama3-8b",
        "llama3-70b",
        "llama3.1-405b",
        "mistral-7b",
        "mixtral-8x7b",
        "qwen2.5-7b",
        "qwen2.5-72b",
        "gpt3-175b",
        "gpt2",
        "gpt2-medium",
        "gpt2-large",
        "gpt2-xl",
        "deepseek-v3",
    } <= names
    # published sizes: total parameters (input embedding included unless tied)
    from logparse.specs.models import total_params

    for name, billions in [
        ("llama2-7b", 6.74),
        ("llama3-8b", 8.03),
        ("llama2-70b", 68.98),
        ("mixtral-8x7b", 12.88),
        ("qwen2.5-7b", 7.62),
        ("llama3.1-405b", 405.9),
        ("gpt2", 0.124),
    ]:
        assert total_params(preset_dims(name)) / 1e9 == pytest.approx(billions, rel=0.01), name
    ds = preset_dims("deepseek-v3")
    assert ds.mla and ds.moe and total_params(ds) / 1e9 == pytest.approx(37.4, rel=0.02)  # 37B activated


def test_flops_command_terms_and_shares():
    r = api.flops(seq_len=4096, model="llama2-7b")
    assert r["flops_per_token"] == pytest.approx(46.087e9, rel=1e-4)
    assert r["terms"]["attention"]["share"] == pytest.approx(0.140, abs=1e-3)
    assert r["terms"]["logits"]["share"] == pytest.approx(0.017, abs=1e-3)
    assert sum(t["share"] for t in r["terms"].values()) == pytest.approx(1.0)
    assert r["other_formulas"]["megatron"] == pytest.approx(42.864e9, rel=1e-4)
    custom = api.flops(
        seq_len=4096, layers=32, hidden=4096, heads=32, ffn_hidden=11008, vocab=32000, swiglu=True
    )
    assert custom["flops_per_token"] == pytest.approx(r["flops_per_token"])
