"""One formula per headline: a log whose parameter count is a preset's, digit for digit, is counted with the
preset's dims (palm), as its cross-check already was, not 6N on a total that includes the embedding.

torchtitan prints "Model llama3 8B size: 8,030,261,248 total parameters" (sample_logs/torchtitan_llama3-8b
_8xh100.log, line 3), Llama-3-8B's count, which the test counts by hand from Meta's published config (32
layers, hidden 4096, 32 heads, 8 KV heads, SwiGLU 14336, vocabulary 128256, untied). torchtitan's own MFU,
6N + 12 L H Q T (N without the input embedding, attention not halved) over its peak 9.890e14 (line 2), is
the log's `mfu` column: 37.99% at the end."""

from __future__ import annotations

import re

import pytest

import logparse
from tests.conftest import SAMPLES

LOG = SAMPLES / "torchtitan_llama3-8b_8xh100.log"
L, H, HEADS, KV, FFN, VOCAB, T = 32, 4096, 32, 8, 14336, 128256, 8192


def _llama3_8b() -> tuple[int, int]:
    """(total parameters, N without the input embedding) from the published dims."""
    head = H // HEADS
    attn = H * H * 2 + 2 * H * KV * head  # q, o; k, v
    mlp = 3 * H * FFN
    norms = 2 * H
    n = L * (attn + mlp + norms) + H + VOCAB * H  # final norm, LM head
    return n + VOCAB * H, n


def test_the_hand_count_is_the_logs():
    total, _ = _llama3_8b()
    assert total == 8_030_261_248
    assert "8,030,261,248 total parameters" in LOG.read_text()


def test_the_headline_counts_with_the_presets_dims_under_palm():
    a = logparse.analyze(LOG, gpus=8, hw="h100")
    s = a.summary
    _, n = _llama3_8b()
    assert s["formula"] == "palm"
    m = s["model"]
    assert (m["layers"], m["hidden"], m["heads"], m["kv_heads"], m["ffn_hidden"], m["vocab"]) == (
        L,
        H,
        HEADS,
        KV,
        FFN,
        VOCAB,
    )
    assert m["params"] == n
    assert m["source"] == "preset" and "exactly llama3-8b's count" in m["source_detail"]
    # PaLM's 6N + 12 L H T (attention not halved), torchtitan's count
    assert s["flops_per_token"] == pytest.approx(6 * n + 12 * L * H * T, rel=1e-6)
    own = [float(x) for x in re.findall(r"mfu: ([\d.]+)%", LOG.read_text())]
    assert s["stable"]["mfu_median"] == pytest.approx(own[-1] / 100, abs=0.001)
    assert any(
        "8,030,261,248 parameters is exactly llama3-8b's count: its dims used for the palm formula" in w
        for w in s["warnings"]
    )
    assert not [w for w in a.run.warnings if w.code in ("params_from_log", "flops_6n")]


def test_a_count_one_off_a_presets_is_no_match(tmp_path):
    """Exactly, not nearly: 8,030,261,249 parameters is no preset's; N is then the log's total, 6N."""
    log = tmp_path / "titan.log"
    log.write_text(LOG.read_text().replace("8,030,261,248 total", "8,030,261,249 total"))
    s = logparse.analyze(log, gpus=8, hw="h100").summary
    assert s["formula"] == "6n"
    assert s["model"]["source"] == "log" and "source_detail" not in s["model"]


def test_an_option_that_names_the_model_wins(tmp_path):
    s = logparse.analyze(LOG, gpus=8, hw="h100", params=7e9).summary
    assert s["model"]["source"] == "cli" and s["formula"] == "6n"
