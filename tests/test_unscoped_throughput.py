"""A throughput or a step time that a custom loop prints under a name which does not say what it is.

- `Tokens per second` (no `global`, no `per GPU`) is the cluster's by convention; the log's own counts can show it
  is one GPU's: times the step's time it is the tokens per step over the GPUs, or one process's batch x sequence
  length where that batch is smaller than the GPUs sharing it. Then it is read as per-GPU, with a warning.
- `total=141.8s` beside the step's timed phases (`gen=42.4s teacher=34.0s ...`) that add up to it is the step's
  time.

Expected figures are worked out by hand in each test."""

from __future__ import annotations

from datetime import datetime, timedelta
from pathlib import Path

import numpy as np
import pytest

import logparse


def _baraql_like(tmp_path: Path, batch: int, tokens_per_s: float, world: int = 4) -> Path:
    """A rank-0 log in the layout of baraql/lai-proj's train_fsdp.py: a world size, a Namespace echo, a step
    record every 5 steps, 2.85 s apart (0.57 s a step)."""
    lines = [
        "2025-05-18 15:57:37,894 - root - INFO - Experiment args: Namespace(sequence_length=4096, "
        f"batch_size={batch}, training_steps=1000)",
        f"2025-05-18 15:57:44,015 - root - INFO - [rank 0] world size: {world}",
    ]
    start = datetime(2025, 5, 18, 15, 58, 30)
    for i, step in enumerate(range(5, 65, 5)):
        at = start + timedelta(seconds=2.85 * i)
        stamp = f"{at:%Y-%m-%d %H:%M:%S},{at.microsecond // 1000:03d}"
        lines.append(
            f"{stamp} - root - INFO - Step: {step} | Loss: {11.0 - 0.01 * i:.2f} | Tokens per second: "
            f"{tokens_per_s:.2f} | TFLOPs: 136.33"
        )
    log = tmp_path / "rank0.log"
    log.write_text("\n".join(lines) + "\n")
    return log


def test_one_process_tokens_over_its_step_time_are_one_gpus(tmp_path):
    # one process's batch of 1 x 4096 tokens in 0.57 s: 7,185.96 tokens/s; 4 GPUs share the job
    one_gpu = 4096 / 0.57
    run = logparse.resolve(str(_baraql_like(tmp_path, batch=1, tokens_per_s=one_gpu)), hw="h100")
    steady = run.steps[run.steps["step"] > 5]
    assert np.allclose(steady["tokens_per_s_per_gpu"], round(one_gpu, 2))
    assert np.allclose(steady["tokens_per_s"], 4 * round(one_gpu, 2))
    said = [str(w) for w in run.warnings if w.code == "tokens_one_gpu"]
    assert len(said) == 1 and "'Tokens per second'" in said[0] and "4 GPUs" in said[0]


def test_the_same_figure_is_the_clusters_when_the_batch_can_be_global(tmp_path):
    # a batch of 8 over 4 GPUs may be the global one: nothing shows the figure is one GPU's, the convention holds
    figure = 8 * 4096 / 0.57
    run = logparse.resolve(str(_baraql_like(tmp_path, batch=8, tokens_per_s=figure)), hw="h100")
    steady = run.steps[run.steps["step"] > 5]
    assert np.allclose(steady["tokens_per_s"], round(figure, 2))
    assert "tokens_one_gpu" not in [w.code for w in run.warnings]


def test_a_figure_four_times_one_process_is_the_clusters(tmp_path):
    figure = 4 * 4096 / 0.57  # all four processes' tokens
    run = logparse.resolve(str(_baraql_like(tmp_path, batch=1, tokens_per_s=figure)), hw="h100")
    steady = run.steps[run.steps["step"] > 5]
    assert np.allclose(steady["tokens_per_s"], round(figure, 2))
    assert "tokens_one_gpu" not in [w.code for w in run.warnings]


def _stated_tokens_log(tmp_path: Path, tokens_per_s: int, key: str = "Tokens/s") -> Path:
    """aaronzhfeng/llm_TII's configuration echo and a record per iteration with its own time (one line here)."""
    lines = [
        "  Batch size (micro):    24",
        "  Gradient accum steps:  64",
        "  Effective batch size:  12288",
        "  Tokens per iteration:  25,165,824",
        "  Max iterations:        100",
    ]
    for it in range(10, 110, 10):
        lines.append(f"Iter {it} | Loss: {10.8 - it / 1000:.4f} | Time: 29452ms | {key}: {tokens_per_s}")
    log = tmp_path / "train.log"
    log.write_text("\n".join(lines) + "\n")
    return log


@pytest.mark.parametrize(
    "printed, per_gpu",
    [
        (106809, True),  # 25,165,824 tokens / 29.452 s / 8 GPUs = 106,809: one GPU's
        (854469, False),  # 25,165,824 / 29.452 = 854,469: the cluster's
    ],
)
def test_tokens_per_step_over_the_step_time_decide_the_scope(tmp_path, printed, per_gpu):
    run = logparse.resolve(str(_stated_tokens_log(tmp_path, printed)), gpus=8, hw="b200")
    cluster = run.steps["tokens_per_s"].median()
    assert cluster == pytest.approx(printed * 8 if per_gpu else printed)
    assert ("tokens_one_gpu" in [w.code for w in run.warnings]) is per_gpu


def test_a_name_that_says_global_is_never_moved(tmp_path):
    run = logparse.resolve(
        str(_stated_tokens_log(tmp_path, 106809, key="Global tokens/s")), gpus=8, hw="b200"
    )
    assert run.steps["tokens_per_s"].median() == pytest.approx(106809)
    assert "tokens_one_gpu" not in [w.code for w in run.warnings]


# ------------------------------------------------------------------------------------ a total of timed phases

TIMED = (
    "2026-08-02T22:55:04.328604+0000 | train | INFO - opt_step={step} loss={loss} comp_len=1239\n"
    "2026-08-02T22:55:24.214751+0000 | train | INFO - TIMING step={step} | total={total}s gen=42.4s "
    "teacher=34.0s student=23.5s loss_bwd=12.6s optim=9.2s wsync={wsync}s\n"
)


def test_a_total_the_timed_phases_add_up_to_is_the_steps_time(tmp_path):
    # RohanAwhad/rohans-sdft's trainer: 42.4 + 34.0 + 23.5 + 12.6 + 9.2 + 19.9 = 141.6 s of the 141.8 s total
    log = tmp_path / "train.log"
    log.write_text(
        "".join(TIMED.format(step=s, loss=0.5 / s, total=141.8 + s, wsync=19.9 + s) for s in range(1, 6))
    )
    run = logparse.resolve(str(log))
    assert run.steps["step_time_s"].tolist() == pytest.approx([142.8, 143.8, 144.8, 145.8, 146.8])
    assert "sum of the step's timed phases" in run.step_time_source


def test_a_total_the_phases_do_not_add_up_to_is_not_the_steps_time(tmp_path):
    # a running total (here the phases are a tenth of it) is not one step's time
    log = tmp_path / "train.log"
    log.write_text(
        "".join(TIMED.format(step=s, loss=0.5 / s, total=1418.0 * s, wsync=19.9) for s in range(1, 6))
    )
    run = logparse.resolve(str(log))
    assert "timed phases" not in (run.step_time_source or "")
    assert 1418.0 not in run.steps["step_time_s"].tolist()
