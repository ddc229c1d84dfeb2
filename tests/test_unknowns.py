"""One list of what a run lacks and what to pass (report/unknowns.py), rendered by the text summary, the
report figure and the batch page (three renderers, and a notebook's text said `--gpus` where its
figure said `gpus`). The sample deepspeed_ga8_8xa100.log prints no sequence length, no model size and no
GPU name (its lines, read by hand: `samples/sec=...`, no `seq_length`, `hidden_size` or device name), and
its world size gives the GPU count."""

from __future__ import annotations

import pytest

from logparse import api
from logparse.batch.page import no_mfu_reason
from logparse.core.errors import cli_names
from logparse.report.outputs import text_summary
from logparse.report.plots import _assumptions, _missing
from logparse.report.unknowns import mfu_blockers, unknowns
from tests.conftest import SAMPLES


@pytest.fixture(scope="module")
def summary():
    return api.analyze(SAMPLES / "deepspeed_ga8_8xa100.log").summary


def test_what_the_sample_lacks(summary):
    # its throughput is DeepSpeed's samples/sec and it counts no tokens: FLOPs per sample give its MFU, or, a
    # sample being a sequence of tokens, what FLOPs/token and tokens/s need (named, not blocking on their own)
    assert list(unknowns(summary)) == [
        "hardware", "flops_per_sample", "flops_per_token", "params", "seq_len", "tokens_per_s",
    ]  # fmt: skip
    assert [u.what for u in mfu_blockers(summary)] == ["hardware", "flops_per_sample"]
    with cli_names():
        assert unknowns(summary)["flops_per_sample"].text() == (
            "FLOPs/sample unknown (pass --flops-per-sample X; or, counting tokens, --seq-len and --model NAME)"
        )


def test_python_callers_get_python_names_and_the_command_line_its_flags(summary):
    hw = unknowns(summary)["hardware"]
    assert hw.text() == "hardware unknown (pass hw=NAME or peak_tflops=X)"
    with cli_names():
        assert hw.text() == "hardware unknown (pass --hw NAME or --peak-tflops X)"


def test_the_three_renderers_say_the_same(summary, tmp_path):
    """The figure, the page and the text summary name options as their caller knows them."""
    a = api.analyze(SAMPLES / "deepspeed_ga8_8xa100.log")
    python = [u.text() for u in mfu_blockers(summary)]
    assert _missing(summary) == "; ".join(python)
    assert no_mfu_reason(tmp_path, {"run": "x", "status": "ok"}) != ""  # an index row alone: no crash
    with cli_names():
        flags = [u.text() for u in mfu_blockers(summary)]
        assert _missing(summary) == "; ".join(flags)
        assert "hardware unknown (pass --hw NAME or --peak-tflops X)" in _assumptions(summary)
    # the text summary too: as the command line prints it, and as Python gets it (a notebook's text and
    # figure name options alike)
    with cli_names():
        assert "hardware unknown (pass --hw NAME or --peak-tflops X)" in text_summary(a)
        # the log states no sequence length either: FLOPs need both, named at once
        assert "FLOPs/token unknown (pass --model NAME, or --params N; and --seq-len)" in text_summary(a)
    assert "hardware unknown (pass hw=NAME or peak_tflops=X)" in text_summary(a)
    assert "FLOPs/token unknown (pass model=NAME, or params=N; and seq_len)" in text_summary(a)
    assert "hardware unknown (pass hw=NAME or peak_tflops=X)" in _assumptions(summary)
