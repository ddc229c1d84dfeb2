"""Variants of known families and three regressions, end to end.

The excerpts are in tests/data/public (listed in SOURCES_variants.toml, which test_public_excerpts.py checks
at the frame stage); here the whole analysis is run on them, and the expected values are read off the
excerpts' lines by hand (written out below), never taken from logparse's output.
"""

from __future__ import annotations

from pathlib import Path

import pytest

import logparse
from logparse.frame.assemble import parse_log
from logparse.patterns.sets import load_sets

PUBLIC = Path(__file__).resolve().parent / "data" / "public"


def _analyze(name: str, **options):
    return logparse.analyze(str(PUBLIC / f"{name}.log"), **options)


def test_bridge_step_time_lines_alone_are_steps_in_file_order() -> None:
    """Megatron-Bridge's rank-0 'Step Time' lines with no iteration line (one per log interval): each is a
    step, numbered 1..20 in file order (the row-ordinal rule, which the summary names)."""
    a = _analyze("megatron_bridge_step_time_only")
    assert a.summary["format"] == "megatron"
    assert list(a.steps["step"]) == list(range(1, 21))
    # lines 1, 4 and 20 of the excerpt
    assert a.steps["step_time_s"].iloc[[0, 3, 19]].tolist() == [127.31, 8.43, 2.37]
    assert a.steps["reported_tflops_per_gpu"].iloc[[0, 3, 19]].tolist() == [20.5, 310.3, 1101.6]
    assert "row ordinal" in str(a.summary)


def test_bridge_step_time_still_joins_its_iteration_line() -> None:
    """With the iteration line after it (NVIDIA/cloudai's fixture), the Step Time line joins that record."""
    a = _analyze("megatron_bridge_cloudai_step_time")
    assert list(a.steps["step"]) == [50]
    assert a.steps["step_time_s"].iloc[0] == 9.089
    assert a.steps["reported_tflops_per_gpu"].iloc[0] == 663.5


def test_pai_megatron_iso_offset_and_tokens_per_gpu() -> None:
    """Pai-Megatron-Patch: '[2025-10-21T16:18:53+08:00] iteration 51/ 20000 | ... | tokens/sec/gpu: 10839.5 |'.
    The stamp is read with its offset (08:18:53 UTC) and the column as per-GPU tokens/s."""
    a = _analyze("pai_megatron_iso_offset_tgs")
    assert list(a.steps["step"]) == [51, 52, 53, 54, 55]
    assert a.steps["tokens_per_s_per_gpu"].tolist() == [10839.5, 10851.0, 10802.9, 10837.4, 10752.3]
    first = a.steps["timestamp"].iloc[0]
    assert str(first).startswith("2025-10-21") and "08:18:53" in str(first)


# NVIDIA/NeMo-Framework-Launcher#55 (NeMo 1.x, Lightning's bar), as srun --label prints it with 16 tasks
NEMO1_BAR = (
    "Epoch 0:   1%|          | 795/77225 [9:07:58<878:01:48, 41.36s/it, loss=3.1, v_num=, reduced_train_loss=3.090, "
    "global_step=794.0, consumed_samples=1.63e+6]"
)


def test_srun_label_right_aligned_is_peeled() -> None:
    """srun --label right-aligns the task id (slurm's _build_label, "%*d: "): ' 0: ' and '15: ' are labels of
    tasks 0 and 15; six characters before ': ' are not a label."""
    from logparse.read.reader import clean_text

    assert clean_text(" 0: " + NEMO1_BAR) == (NEMO1_BAR, 0, None)
    assert clean_text("15: " + NEMO1_BAR) == (NEMO1_BAR, 15, None)
    assert clean_text("  127: x") == ("x", 127, None)  # 5 characters: a label (10000 tasks or more)
    assert clean_text("   127: x") == ("   127: x", None, None)  # 6 characters: not a label


def test_nemo1_bar_behind_srun_label_is_read(tmp_path: Path) -> None:
    """The bar's regex starts at 'Epoch': behind an unpeeled ' 0: ' it matched nothing."""
    path = tmp_path / "label.log"
    path.write_text(" 0: " + NEMO1_BAR + "\n" + " 1: " + NEMO1_BAR + "\n")
    parsed = parse_log(str(path), load_sets())
    assert parsed.format == "nemo"
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert rows["rank"].tolist() == [0, 1]
    assert rows["loss"].tolist() == [3.09, 3.09]


@pytest.mark.parametrize("reading", [{}, {"jobs": 2, "chunk_bytes": 200}, {"jobs": 2, "chunk_bytes": 64}])
def test_colossalai_second_step_time_after_the_bar_redraw_is_kept(reading: dict) -> None:
    """hpcaitech/ColossalAI#4551: 'Step time: 22.885', the 1/5 redraw glued to the next logger record, then
    'Step time: 19.714' and the 2/5 redraw. Each measured time joins the bar printed after it, detected
    without --format, in one pass and in small ranges (the fast lane)."""
    parsed = parse_log(str(PUBLIC / "colossalai_issue4551_step_time.log"), load_sets(), **reading)
    assert parsed.format == "colossalai"
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert rows["step"].tolist() == [1, 2]
    assert rows["step_time_s"].tolist() == [22.885, 19.714]
    assert parsed.lines["unattached"] == 0


def _unwrapped_colossalai() -> str:
    """hpcaitech/ColossalAI#4551 as a terminal wide enough for rich not to wrap prints it: each logger record
    on one line, the record after a bar redraw glued to it (tqdm ends a redraw without a newline). The lines
    are the excerpt's own, rich's wrapping undone; the third record is the second one's text with the next
    printed step time (a made-up value: the stored excerpt ends at the 2/5 redraw)."""
    src = (PUBLIC / "colossalai_issue4551_step_time.log").read_text().splitlines()
    head = "INFO     colossalai - colossalai - INFO:"
    where = "/workspace/workfile/ColossalAI-main/examples/language/llama2/benchmark.py:218 main"
    bar1, bar2 = src[6].split("[08/30/23")[0], src[10].split("[08/30/23")[0]
    return (
        "\n".join(
            [
                src[0],
                src[1],
                f"[08/30/23 07:07:34] {head} {where}",
                f"                    {head} Step time: 22.885",
                f"{bar1}[08/30/23 07:07:54] {head} {where}",
                f"                    {head} Step time: 19.714",
                f"{bar2}[08/30/23 07:08:13] {head} Step time: 19.200",
                "Step:  60%|██████    | 3/5 [01:01<00:41, 20.50s/it]",
            ]
        )
        + "\n"
    )


@pytest.mark.parametrize("reading", [{}, {"jobs": 2, "chunk_bytes": 200}])
def test_colossalai_step_time_glued_whole_after_a_bar_redraw_is_kept(tmp_path: Path, reading: dict) -> None:
    """A whole rich record glued after the 2/5 redraw ('...21.03s/it][08/30/23 07:08:13] INFO ... Step time:
    19.200') was read as part of the bar: step 3 took the bar's 20.50 s/it instead of the measured 19.2 s. The
    reader now cuts a rich record off the bar it is glued to."""
    path = tmp_path / "colossalai_wide.log"
    path.write_text(_unwrapped_colossalai())
    parsed = parse_log(str(path), load_sets(), **reading)
    assert parsed.format == "colossalai"
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert rows["step"].tolist() == [1, 2, 3]
    assert rows["step_time_s"].tolist() == [22.885, 19.714, 19.2]


def test_bridge_step_time_of_rank0_beside_other_ranks_iterations_does_not_stand_alone(tmp_path: Path) -> None:
    """Under torchrun --tee, rank 0 prints 'Step Time' and the last rank the iteration line: rows of another
    rank come between two Step Time lines, so neither becomes a step of its own (no step-less rows)."""
    step_time = "Step Time : 9.09s GPU utilization: 663.5MODEL_TFLOP/s/GPU"  # NVIDIA/cloudai's fixture line
    iteration = (  # the same fixture's iteration line
        " [2025-12-22 15:18:33] iteration       50/      50 | consumed samples:        25600 | elapsed time per "
        "iteration (ms): 9089.0 | learning rate: 3.000000E-05 | global batch size:   512 | lm loss: 8.114214E+00 | "
        "load_balancing_loss: 1.000000E+00 | loss scale: 1.0 | grad norm: 0.042 | number of skipped iterations:   "
        "0 | number of nan iterations:   0 |"
    )
    path = tmp_path / "ranks.log"
    path.write_text(f"[default0]:{step_time}\n[default7]:{iteration}\n[default0]:{step_time}\n")
    parsed = parse_log(str(path), load_sets(), "megatron")
    rows = parsed.rows[parsed.rows["kind"] == "step"]
    assert rows["step"].tolist() == [50] and rows["rank"].tolist() == [7]
