"""A NaN the run steps over is a flagged step, not a divergence. Megatron-LM skips an iteration whose
gradients hold a NaN or inf (the fp16 loss scaler finds them; the rerun machinery too), counts it, and of
those the ones whose loss was NaN or inf, and prints the interval's line without their loss: megatron/
training/training.py training_log adds a loss only over advanced iterations, then `number of skipped
iterations: %3d |` and `number of nan iterations: %3d |` (NVIDIA/Megatron-LM d98e8a6, lines 3293-3315 and
3620-3641). Such a row is flagged `skipped_nan`; the status is `diverged` only when the loss or gradient
norm stays non-finite: no later step logs a finite one."""

from __future__ import annotations

import pytest

import logparse
from logparse.steps.stepframe import flagged

LINE = (
    " [2024-09-03 16:{m:02d}:{s:02d}] iteration {i:8d}/      40 | consumed samples: {c:12d} | elapsed time per "
    "iteration (ms): 1000.0 | throughput per GPU (TFLOP/s/GPU): 400.0 | learning rate: 3.000000E-04 | global "
    "batch size:   128 |{loss} loss scale: 65536.0 |{grad} number of skipped iterations: {sk:3d} | number of nan "
    "iterations: {nan:3d} |"
)


def _log(tmp_path, bad: dict[int, tuple[str, str, int, int]]) -> str:
    """40 iterations of one a second; `bad`: iteration -> (loss field, grad norm field, skipped, nan)."""
    lines = []
    for i in range(1, 41):
        loss, grad, sk, nan = bad.get(i, (f" lm loss: {8 - i * 0.05:.6E} |", " grad norm: 1.100 |", 0, 0))
        lines.append(LINE.format(m=i // 60, s=i % 60, i=i, c=i * 128, loss=loss, grad=grad, sk=sk, nan=nan))
    path = tmp_path / "megatron.log"
    path.write_text("\n".join(lines) + "\n")
    return str(path)


SKIPPED_WITHOUT_LOSS = ("", "", 1, 1)  # what Megatron-LM prints for an interval of one skipped NaN iteration
SKIPPED_NAN_LOSS = (" lm loss: nan |", "", 1, 1)  # a fork that prints the NaN it skipped
# Megatron-LM since b09ee64 (2026-03, `if avg >= 0.0`): the empty average of an all-skipped interval, printed
SKIPPED_ZERO_LOSS = (" lm loss: 0.000000E+00 |", "", 1, 1)


@pytest.mark.parametrize("skipped", [SKIPPED_WITHOUT_LOSS, SKIPPED_NAN_LOSS, SKIPPED_ZERO_LOSS])
def test_a_nan_iteration_megatron_stepped_over_is_flagged_not_diverged(tmp_path, skipped):
    a = logparse.analyze(_log(tmp_path, {20: skipped}))
    assert a.summary["status"] == "complete"  # iteration 40 of 40, 20 steps after the skipped one
    steps = a.run.steps
    assert steps.loc[flagged(steps, "skipped_nan"), "step"].tolist() == [20]
    assert a.summary["flagged_steps"]["skipped_nan"] == 1
    assert steps.loc[steps["step"] == 20, "loss"].isna().all()  # no loss of its own, not 0


def test_an_overflow_the_scaler_skipped_is_no_nan(tmp_path):
    """A skip whose loss was finite (an fp16 overflow: `number of nan iterations: 0`) is not a NaN."""
    a = logparse.analyze(_log(tmp_path, {20: ("", "", 1, 0)}))
    assert "skipped_nan" not in (a.summary["flagged_steps"] or {})
    assert a.summary["status"] == "complete"


def test_a_loss_that_stays_nan_is_a_divergence(tmp_path):
    a = logparse.analyze(
        _log(tmp_path, {i: (" lm loss: nan |", " grad norm: nan |", 0, 0) for i in range(30, 41)})
    )
    assert a.summary["status"] == "diverged"
    assert "step 30" in a.summary["status_detail"]["detail"]


def test_a_run_that_stops_on_a_skipped_nan_diverged(tmp_path):
    """Skipped, and nothing after it: the run stops on it."""
    a = logparse.analyze(_log(tmp_path, {40: SKIPPED_NAN_LOSS, 39: SKIPPED_NAN_LOSS}))
    assert a.summary["status"] == "diverged"
    assert "step 39" in a.summary["status_detail"]["detail"]


def test_a_nan_the_loss_recovers_from_is_flagged_not_diverged(tmp_path):
    """No skip counted, yet the next 20 steps log finite losses and gradient norms: the run went on."""
    a = logparse.analyze(_log(tmp_path, {20: (" lm loss: nan |", " grad norm: nan |", 0, 0)}))
    assert a.summary["status"] == "complete"
    assert a.summary["flagged_steps"]["nonfinite_loss"] == 1
