"""The hand-worked reference table (tests/reference_flops.py) against published figures, so the truth
the synthetic logs are made from is checked against the outside world, not against logparse."""

from __future__ import annotations

import pytest

from tests import reference_flops as ref


def test_llama2_7b_matches_the_reference_note():
    # Llama-2-7B's published counts: total N = 6,738,415,616 (HF num_parameters),
    # N without input embedding = 6,607,343,616; by the PaLM formula 46.087 GFLOP a token at 4096, 52.529 at 8192
    assert ref.LLAMA2_7B_4096.total_params == 6_738_415_616
    assert ref.LLAMA2_7B_4096.params == 6_607_343_616
    assert ref.LLAMA2_7B_4096.flops_per_token / 1e9 == pytest.approx(46.087, abs=5e-4)
    assert ref.LLAMA2_7B_8192.flops_per_token / 1e9 == pytest.approx(52.529, abs=5e-4)
    # the same note: MFU = 3000 x 46.087e9 / 989e12 = 14.0% at 3,000 tokens/s/GPU on H100
    assert f"{3000 * ref.LLAMA2_7B_4096.flops_per_token / 989e12:.3f}" == "0.140"


def test_llama3_8b_reproduces_torchtitans_printed_line():
    # pytorch/torchtitan PR #1287, Llama-3-8B at 8192 on H100 (torchtitan's palm-form count, peak 989e12):
    # "tps: 5,856  tflops: 339.16  mfu: 34.29%"; tps is printed rounded to an integer
    fpt = ref.LLAMA3_8B_8192.flops_per_token
    assert round(fpt * 5855.5 / 1e12, 2) <= 339.16 <= round(fpt * 5856.5 / 1e12, 2)
    assert f"{100 * fpt * 5856 / 989e12:.2f}" == "34.29"
    assert f"{ref.LLAMA3_8B_8192.total_params / 1e9:.2f}" == "8.03"  # Meta's model card: 8.03B


def test_gpt2_matches_nanogpts_own_count():
    g = ref.GPT2_NANOGPT_1024
    # nanoGPT prints "number of parameters: 123.69M" (all but the position embedding) for this config,
    # and its optimizer groups 124,354,560 decayed + 121,344 non-decayed (biases, LayerNorms) parameters
    assert f"{g.params / 1e6:.2f}M" == "123.69M"
    assert g.total_params == 124_354_560 + 121_344


def test_mixtral_8x7b_matches_mistrals_figures():
    m = ref.MIXTRAL_8X7B_4096
    # Mistral AI, "Mixtral of experts" (2023-12-11): 46.7B total parameters, 12.9B used per token
    # (the input embedding included); arXiv 2401.04088: 47B and 13B
    assert f"{m.total_params / 1e9:.1f}" == "46.7"
    assert f"{(m.params + m.vocab * m.hidden) / 1e9:.1f}" == "12.9"


def test_the_table_has_no_entry_for_an_unknown_model():
    from types import SimpleNamespace

    dims = SimpleNamespace(
        layers=2, hidden=64, heads=4, kv_heads=4, ffn_hidden=256, vocab=1000, experts=None, topk=None
    )
    with pytest.raises(LookupError, match="no reference FLOPs/token"):
        ref.lookup(dims, 4096)
