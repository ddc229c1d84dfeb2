"""What a run lacks is asked for once and only when it is missing: a log without both the sequence length
and the global batch names both on its first run (tokens/s = global batch x sequence length / step time),
not one and then the other; FLOPs for a model the log does not name ask for the model and the sequence
length together; with --flops-per-token given and the log's own tokens/s, nothing asks for the sequence
length."""

from __future__ import annotations

from logparse import api
from logparse.core.errors import cli_names
from logparse.report.outputs import text_summary
from logparse.report.unknowns import unknowns


def _log(tmp_path, fields: str = ""):
    """A custom loop's lines: step, loss, step time (and `fields`); no sequence length, no global batch."""
    path = tmp_path / "train.log"
    lines = [
        f"step {i} | loss {3 - i * 0.01:.3f} | step_time {15 if i < 3 else 10:.3f}s{fields}"
        for i in range(1, 41)
    ]
    path.write_text("\n".join(lines) + "\n")
    return path


def _text(a) -> str:
    with cli_names():
        return text_summary(a)


def test_a_log_without_sequence_length_and_global_batch_asks_for_both_at_once(tmp_path):
    a = api.analyze(_log(tmp_path), gpus=8, hw="h100", model="llama2-7b")
    text = _text(a)
    assert "tokens/s unknown (pass --seq-len and --global-batch)" in text
    assert any("seq_len" in w and "global_batch" in w for w in a.summary["warnings"])
    # and given both, nothing is left to ask: MFU (6.6e9-parameter llama2-7b at 4096 x 128 tokens a second)
    b = api.analyze(_log(tmp_path), gpus=8, hw="h100", model="llama2-7b", seq_len=4096, global_batch=128)
    assert b.summary["stable"]["mfu_mean"] is not None
    assert "pass" not in " ".join(w for w in b.summary["warnings"] if "global" in w or "sequence" in w)


def test_given_the_sequence_length_the_global_batch_alone_is_asked_for(tmp_path):
    a = api.analyze(_log(tmp_path), gpus=8, hw="h100", model="llama2-7b", seq_len=4096)
    text = _text(a)
    assert "tokens/s unknown (pass --global-batch)" in text
    assert [w.code for w in a.run.warnings if w.code in ("seq_len_unknown", "global_batch_unknown")] == [
        "global_batch_unknown"
    ]


def test_flops_for_an_unnamed_model_ask_for_the_model_and_the_sequence_length(tmp_path):
    text = _text(api.analyze(_log(tmp_path), gpus=8, hw="h100"))
    assert "FLOPs/token unknown (pass --model NAME, or --params N; and --seq-len)" in text


def test_flops_per_token_given_ask_for_no_sequence_length_when_the_log_counts_tokens(tmp_path):
    """The log prints its own tokens/s: with FLOPs per token given, MFU needs nothing more."""
    a = api.analyze(_log(tmp_path, " | tokens_per_sec 6000"), gpus=8, hw="h100", flops_per_token=5e10)
    assert a.summary["formula"] == "given"
    # 5e10 FLOPs x 6,000 tokens/s / 8 GPUs / 989 TFLOPS = 3.8%
    assert abs(a.summary["stable"]["mfu_mean"] - 5e10 * 6000 / 8 / 989e12) < 1e-3
    assert not [w for w in a.summary["warnings"] if "sequence length" in w]
    missing = unknowns(a.summary)  # what the figure and the page render: nothing to pass for the MFU
    assert "params" not in missing and missing["seq_len"].hint() == ""
    # without the FLOPs, the length is what FLOPs/token needs, and it is asked for
    b = api.analyze(_log(tmp_path, " | tokens_per_sec 6000"), gpus=8, hw="h100", model="llama2-7b")
    assert any("sequence length" in w and "FLOPs/token" in w for w in b.summary["warnings"])
