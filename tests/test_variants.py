"""Format variants found in the wild, parsed from real excerpts.

The excerpts are in tests/data/public and credited in SOURCES.toml (test_public_excerpts.py checks their
stated values); this file checks what needs more than that: the DeepSpeed set joining a Megatron-DeepSpeed
log, lines hard-wrapped by a terminal (a real line cut at fixed widths, mid-token, as a terminal's hard wrap
does), a wrapped line that is not rejoined when no join completes it, and what the resolve stage makes of the
list and Paxml lines.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import logparse
from logparse.frame.assemble import parse_log
from logparse.patterns.sets import load_sets

PUBLIC = Path(__file__).resolve().parent / "data" / "public"


def _rows(parsed):
    rows = parsed.rows
    return rows[rows["kind"] == "step"]


def _wrap(line: str, width: int) -> list[str]:
    """A terminal's hard wrap: the line cut every `width` characters, wherever that falls."""
    return [line[i : i + width] for i in range(0, len(line), width)]


def test_deepspeed_timer_memory_is_gib_and_agrees_with_megatrons_mb():
    """superbench_megatron_deepspeed_memory.log (microsoft/superbenchmark): on the same rank, DeepSpeed's
    'MemAllocated=17.54GB, MaxMemAllocated=66.97GB' (bytes / 1024**3, deepspeed/utils/timer.py) and Megatron's
    'allocated: 17956.4931640625 | max allocated: 68581.8095703125' (MB = 2**20 bytes) are the same GiB figures."""
    parsed = parse_log(str(PUBLIC / "superbench_megatron_deepspeed_memory.log"), load_sets())
    assert {"megatron", "deepspeed"} <= set(parsed.formats)
    rows = _rows(parsed)
    timer = rows[rows["pattern"] == "deepspeed.throughput_timer"].iloc[0]
    assert timer["step"] == 3
    assert timer["memory_allocated_gib"] == 17.54
    assert timer["memory_max_allocated_gib"] == 66.97
    assert timer["memory_gib"] == 66.97  # memory_gib stays the max allocated
    megatron = rows[(rows["pattern"] == "megatron.iteration") & (rows["step"] == 1)].iloc[0]
    assert round(megatron["memory_allocated_gib"], 2) == 17.54
    assert round(megatron["memory_max_allocated_gib"], 2) == 66.97
    assert megatron["memory_reserved_gib"] == megatron["memory_max_reserved_gib"] == 90178.0 / 1024


SUPERBENCH_ITER1 = (PUBLIC / "superbench_megatron_deepspeed_memory.log").read_text().splitlines()[2]


@pytest.mark.parametrize("width", [60, 80, 120])
def test_hard_wrapped_megatron_line_is_rejoined(tmp_path, width):
    """The real iteration-1 line (SuperBench) cut every `width` characters reads as the whole line does."""
    assert SUPERBENCH_ITER1.startswith("vm-07-14:  iteration        1/")
    whole = tmp_path / "whole.log"
    whole.write_text(SUPERBENCH_ITER1 + "\n")
    wrapped = tmp_path / "wrapped.log"
    parts = _wrap(SUPERBENCH_ITER1, width)
    wrapped.write_text("\n".join(parts) + "\n")
    want = _rows(parse_log(str(whole), load_sets(), "megatron")).iloc[0]
    parsed = parse_log(str(wrapped), load_sets(), "megatron")
    got = _rows(parsed)
    assert len(got) == 1 and parsed.lines["rejoined"] == len(parts) - 1
    assert parsed.lines["unmatched"] == 0 and parsed.lines["matched"] == len(parts)
    for col in (
        "step",
        "step_time_s",
        "loss",
        "consumed_tokens",
        "samples_per_s",
        "reported_hfu_tflops_per_gpu",
    ):
        assert got.iloc[0][col] == want[col], col
    # values read off the line by hand
    assert got.iloc[0]["step_time_s"] == pytest.approx(76.0153)
    assert got.iloc[0]["loss"] == pytest.approx(11.00492)
    assert got.iloc[0]["nan_iters"] == 0


def test_wrap_at_a_space_keeps_the_space(tmp_path):
    """A wrap right after a space: the reader strips the trailing space, the join puts one back because the
    spaced join reads more values ('elapsed time per iteration (ms)', not 'elapsedtime ...')."""
    cut = SUPERBENCH_ITER1.index("elapsed ") + len("elapsed ")
    log = tmp_path / "space.log"
    log.write_text(SUPERBENCH_ITER1[:cut] + "\n" + SUPERBENCH_ITER1[cut:] + "\n")
    row = _rows(parse_log(str(log), load_sets(), "megatron")).iloc[0]
    assert row["step_time_s"] == pytest.approx(76.0153)
    assert row["samples_per_s"] == pytest.approx(26.942)


def test_hard_wrapped_bridge_step_time_joins_its_iteration(tmp_path):
    """megatron_bridge_cloudai_step_time.log (NVIDIA/cloudai) with its Step Time line cut mid-token at 30
    columns: 'ain_fp8_mx/0 Step Time : 9.09s', ' GPU utilization: 663.5MODEL_T', 'FLOP/s/GPU'."""
    lines = (PUBLIC / "megatron_bridge_cloudai_step_time.log").read_text().splitlines()
    log = tmp_path / "bridge.log"
    log.write_text("\n".join(_wrap(lines[0], 30) + lines[1:]) + "\n")
    parsed = parse_log(str(log), load_sets())
    assert parsed.formats[0] == "megatron"
    rows = _rows(parsed)
    assert list(rows["step"]) == [50]
    assert rows.iloc[0]["reported_tflops_per_gpu"] == 663.5
    assert rows.iloc[0]["step_time_s"] == pytest.approx(9.089)
    assert parsed.lines["rejoined"] == 2 and parsed.lines["unattached"] == 0


def test_short_megatron_lines_are_steps_and_are_not_joined_with_what_follows(tmp_path):
    """Iteration lines with only elapsed time and throughput (a public test's Megatron log): each is a step; the last one lacks 'number of nan iterations' and is followed by timer lines
    that match nothing, and no join completes it, so nothing is joined and the timer lines stay unmatched."""
    text = (
        " [2026-09-20 21:31:05] iteration        1/       6 | elapsed time per iteration (ms): 4802.3 |"
        " throughput per GPU (TFLOP/s/GPU): 3.1 |\n"
        " [2026-09-20 21:31:06] iteration        3/       6 | elapsed time per iteration (ms): 291.2 |"
        " throughput per GPU (TFLOP/s/GPU): 50.7 |\n"
        " [2026-09-20 21:31:07] iteration        6/       6 | elapsed time per iteration (ms): 286.6 |"
        " throughput per GPU (TFLOP/s/GPU): 51.5 |\n"
        "(min, max) time across ranks (ms):\n"
        "    forward-backward ................................: (210.40, 221.30)\n"
        "    optimizer .......................................: (40.10, 41.20)\n"
    )
    log = tmp_path / "short.log"
    log.write_text(text)
    parsed = parse_log(str(log), load_sets())  # detected: no "consumed samples:" column anywhere
    assert parsed.formats[0] == "megatron"
    rows = _rows(parsed)
    assert list(rows["step"]) == [1, 3, 6]
    assert list(rows["step_time_s"]) == pytest.approx([4.8023, 0.2912, 0.2866])
    assert list(rows["reported_tflops_per_gpu"]) == [3.1, 50.7, 51.5]
    assert parsed.lines["rejoined"] == 0 and parsed.lines["unmatched"] == 3 and parsed.lines["matched"] == 3


def test_step_timing_list_resolves_to_one_step_each():
    """nemo_launcher_cloudai_step_timing_list.log: 50 steps numbered 1..50, the first three as printed."""
    frame = logparse.parse(str(PUBLIC / "nemo_launcher_cloudai_step_timing_list.log"))
    assert list(frame["step"]) == list(range(1, 51))
    assert list(frame["step_time_s"][:3]) == [11.85, 6.98, 5.36]
    assert frame["step_time_s"].iloc[-1] == 2.13


def test_paxml_train_step_lines_are_numbered_in_file_order(tmp_path):
    """Paxml's line (NVIDIA/cloudai's fixture) three times: steps 1, 2, 3, each 38.727223 s."""
    line = (PUBLIC / "paxml_cloudai_train_step.log").read_text()
    log = tmp_path / "pax.log"
    log.write_text(line * 3)
    frame = logparse.parse(str(log))
    assert list(frame["step"]) == [1, 2, 3]
    assert list(frame["step_time_s"]) == [38.727223] * 3
