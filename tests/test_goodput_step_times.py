"""The goodput ledger counts warm-up and slow steps with the step times the dips are measured by: a log whose
step times are its clock's differences (consecutive stamps, or a training clock such as the Hugging Face
Trainer's running train_runtime) has no time for its first row, which nothing precedes; that row is timed by
neither the phases nor the ledger, and no longer makes the ledger call warm-up and slow steps unknown while
the text gives the dip its seconds."""

from __future__ import annotations

import datetime
import random

import pytest

import logparse
from logparse.report.outputs import text_summary

SLOW = 6  # the step that takes twice as long (a dip)


def _stamped(tmp_path):
    """8 step lines stamped to the second: step 1 at 10 s (the start-up before it), then 2 s a step, step
    6 4 s: the clock's differences give steps 2..8 their times, 2 s each and 4 s for step 6."""
    t0, t, lines = datetime.datetime(2024, 5, 1, 10, 0, 0), 0.0, []
    for i in range(1, 9):
        t += 10.0 if i == 1 else (4.0 if i == SLOW else 2.0)
        stamp = (t0 + datetime.timedelta(seconds=t)).strftime("%Y-%m-%d %H:%M:%S")
        lines.append(f"[{stamp}] step {i} | loss {3 - i * 0.1:.3f} | lr 0.001")
    path = tmp_path / "stamped.log"
    path.write_text("\n".join(lines) + "\n")
    return path


def _trainer(tmp_path):
    """The Hugging Face Trainer's log dicts, one a step, with its running train_runtime (no timestamps): steps
    1-3 take 3 s (warm-up), step 25 2.5 s, the others 1 s (within 20 ms)."""
    rng = random.Random(1)
    t, lines = 0.0, []
    for i in range(1, 41):
        dt = 2.5 if i == 25 else (3.0 if i <= 3 else 1.0) + rng.uniform(-0.02, 0.02)
        t += dt
        lines.append(
            f"{{'loss': '{5 - i * 0.05:.4g}', 'grad_norm': '1.2', 'learning_rate': '0.001', 'epoch': '{i / 40:.2f}', "
            f"'train_runtime': '{t:.4f}'}}"
        )
    path = tmp_path / "trainer.log"
    path.write_text("\n".join(lines) + "\n")
    return path


@pytest.mark.parametrize(
    "make,source,dip,lost", [(_stamped, "timestamps", SLOW, 2.0), (_trainer, "train_elapsed_s", 25, 1.5)]
)
def test_the_ledger_counts_slow_steps_with_the_times_the_dips_use(tmp_path, make, source, dip, lost):
    a = logparse.analyze(make(tmp_path))
    s = a.summary
    assert source in s["steps"]["step_time_source"]  # the clock's differences
    assert a.steps.loc[0, "step_time_s"] != a.steps.loc[0, "step_time_s"]  # the first row: no time (NaN)
    (d,) = s["dips"]
    assert (d["start_step"], d["end_step"]) == (dip, dip)
    assert d["lost_s"] == pytest.approx(lost, abs=0.05)  # its time above the others' (hand count above)
    g = s["goodput"]
    assert "slow_steps" not in g["unknown"] and "warmup" not in g["unknown"]
    assert g["badput"]["slow_steps"] == pytest.approx(d["lost_s"], abs=0.05)
    assert "unknown without step times" not in text_summary(a)


def test_the_stamped_ledger_adds_up_to_the_wall_time(tmp_path):
    """With a clock the parts add up: 16 s from the first stamp to the last, 14 s productive (7 steps of 2 s),
    2 s slow (step 6's second 2 s)."""
    g = logparse.analyze(_stamped(tmp_path)).summary["goodput"]
    assert g["wall_s"] == pytest.approx(16.0)
    assert g["productive_s"] == pytest.approx(14.0, abs=0.05)
    assert g["badput"]["slow_steps"] == pytest.approx(2.0, abs=0.05)
    assert g["productive_s"] + sum(v for v in g["badput"].values() if v) == pytest.approx(g["wall_s"])


def test_without_a_clock_the_trainers_warmup_is_the_timed_rows_above_their_level(tmp_path):
    """Steps 2-3 take 3 s against ~1 s: about 4 s of warm-up (step 1's time is unknown: the running clock's
    first value is not a difference); the productive time is not claimed, one step's time being unknown."""
    g = logparse.analyze(_trainer(tmp_path)).summary["goodput"]
    assert g["badput"]["warmup"] == pytest.approx(4.0, abs=0.1)
    assert g["productive_s"] is None
    assert set(g["unknown"]) == {"startup", "other"}
