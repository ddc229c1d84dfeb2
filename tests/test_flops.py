"""flops and hardware: the worked examples of domain.md and the reference's Llama-2-7B table."""

from __future__ import annotations

import pytest

from logparse.core.errors import LogparseError
from logparse.specs import formulas as flops
from logparse.specs import hardware
from logparse.specs.formulas import ModelDims
from logparse.utilization.mfu import mfu, seconds_to_train, tokens_per_s_at

LLAMA2_7B = ModelDims(
    layers=32, hidden=4096, heads=32, kv_heads=32, head_dim=128, ffn_hidden=11008, vocab=32000, swiglu=True
)


def test_llama2_7b_parameter_count_without_input_embedding():
    # reference flops_and_peaks.md (b): N without input embedding = 6,607,343,616
    assert flops.params_from_dims(LLAMA2_7B) == 6_607_343_616


@pytest.mark.parametrize(
    "seq,formula,gflops",
    [(4096, "palm", 46.087), (8192, "palm", 52.529), (4096, "6n", 39.644), (8192, "6n", 39.644)],
)
def test_llama2_7b_flops_per_token(seq, formula, gflops):
    dims = ModelDims(**{**LLAMA2_7B.__dict__, "params": flops.params_from_dims(LLAMA2_7B)})
    assert flops.flops_per_token(dims, seq, formula) / 1e9 == pytest.approx(gflops, rel=1e-3)


def test_hfu_recompute_factors_match_the_reference_table():
    dims = ModelDims(**{**LLAMA2_7B.__dict__, "params": flops.params_from_dims(LLAMA2_7B)})
    assert flops.hardware_flops_per_token(dims, 4096, "palm", "full") / 1e9 == pytest.approx(61.449, rel=1e-3)
    assert flops.hardware_flops_per_token(dims, 4096, "palm", "selective") / 1e9 == pytest.approx(
        48.234, rel=1e-3
    )
    assert flops.hardware_flops_per_token(dims, 4096, "palm", "none") == flops.flops_per_token(
        dims, 4096, "palm"
    )


def test_seed2_7b_on_64_a100():
    a100 = hardware.peak_tflops(hardware.lookup("a100"), "bf16")
    fpt = flops.flops_per_token(ModelDims(params=7e9), 4096, "6n")  # 4.2e10
    assert mfu(fpt, 1e5, a100, 64) == pytest.approx(0.2103, abs=5e-4)


def test_seed3_4_2_on_8_h100():
    assert mfu(4.2e10, 1e5, 989.4, 8) == pytest.approx(0.531, abs=5e-4)


def test_seed1_the_67_percent_needs_about_100_gpus():
    # 7B, 6N, 1e6 tokens/step, 2 s/step: 2.1e16 FLOP/s = 21,000 TFLOP/s
    fpt = flops.flops_per_token(ModelDims(params=7e9), 4096, "6n")
    assert mfu(fpt, 1e6 / 2, 21_000, 1) == pytest.approx(1.0)  # 21,000 TFLOP/s achieved
    assert mfu(fpt, 1e6 / 2, 312, 1) == pytest.approx(67.3, rel=1e-2)  # one GPU: 6,730%
    assert mfu(fpt, 1e6 / 2, 312, 100) == pytest.approx(0.673, rel=1e-2)


def test_seed3_3_2_training_time():
    days = seconds_to_train(1e12, tokens_per_s_at(0.50, 6 * 7e9, 989, 8)) / 86400
    assert days == pytest.approx(123, abs=1)
    assert seconds_to_train(1e12, tokens_per_s_at(0.45, 6 * 7e9, 989, 256)) / 86400 == pytest.approx(
        4.3, abs=0.05
    )


def test_seed3_3_3_attention_term_forward_only_vs_training():
    # Llama-2-7B at 8192 (L=32, d=4096): palm adds 12·L·d·s = 1.29e10 per token in training, three
    # times the seed's forward-only 4·L·s·d = 4.3e9, which selective recomputation adds once more
    dims = ModelDims(**{**LLAMA2_7B.__dict__, "params": flops.params_from_dims(LLAMA2_7B)})
    palm = flops.flops_per_token(dims, 8192, "palm")
    assert flops.terms(dims, 8192, "palm").attention == pytest.approx(1.29e10, rel=0.01)
    assert palm - flops.flops_per_token(dims, 8192, "6n") == pytest.approx(1.29e10, rel=0.01)
    selective = flops.hardware_flops_per_token(dims, 8192, "palm", "selective")
    assert selective - palm == pytest.approx(4.3e9, rel=0.01)


@pytest.mark.parametrize(
    "name,dtype,peak",
    [
        ("h100", "bf16", 989.0),
        ("H100-SXM", "fp8", 1979.0),
        ("h100-pcie", "bf16", 756.0),
        ("h200", "bf16", 989.0),
        ("b200", "bf16", 2250.0),
        ("a100_80g", "tf32", 156.0),
        ("a100", "fp32", 19.5),
    ],
)
def test_dense_peaks(name, dtype, peak):
    assert hardware.peak_tflops(hardware.lookup(name), dtype) == peak


def test_h200_is_the_dense_989_not_the_sparse_1979():
    assert hardware.peak_tflops(hardware.lookup("h200"), "bf16") == 989.0


def test_unknown_hardware_lists_the_known_names():
    with pytest.raises(LogparseError, match="unknown hardware 'h300'.*h100-sxm"):
        hardware.lookup("h300")


def test_a_dtype_the_device_lacks_is_an_error():
    with pytest.raises(LogparseError, match="v100 has no published dense bf16 peak"):
        hardware.peak_tflops(hardware.lookup("v100"), "bf16")


def test_every_table_entry_has_bf16_or_fp16_and_a_source():
    for dev in hardware.devices().values():
        assert dev.source and ({"bf16", "fp16"} & set(dev.peak_tflops)), dev.name
