"""Regimes, shifts, per-step bars and windowed signals, against runs whose truth is planted.

The truth of each run is its generator's input (a slowdown at a known step, a warmup of known length,
a dip of known steps), never a logparse figure. The Hugging Face log is written by tqdm itself (its
smoothing, its rounding, its redraws) with a simulated clock, as HF's ProgressCallback drives it.
"""

from __future__ import annotations

import io
import random

import pytest

from logparse import api
from tests import synth
from tests.synth import Dip, Spec
from tests.synth.neox_maxtext_etc import composer_log

MEGATRON = dict(gpus=8, hw="h100", model="llama2-7b")


def _megatron(write_log, spec: Spec):
    text, truth = synth.megatron_log(spec)
    return api.analyze(str(write_log(text)), **MEGATRON), truth


def test_a_lasting_slowdown_is_a_shift_with_its_own_regime(write_log):
    # 45% MFU, then from step 150 on 0.511x the speed: 23% MFU until the end
    spec = Spec(steps=400, mfu=0.45, dips=[Dip(start=150, length=10_000, factor=0.511)], seed=3)
    a, _ = _megatron(write_log, spec)
    s = a.summary
    (shift,) = s["shifts"]
    assert abs(shift["at_step"] - 150) <= 5
    assert shift["mfu_after"] == pytest.approx(0.45 * 0.511, rel=0.03)
    assert shift["mfu_before"] == pytest.approx(0.45, rel=0.03)
    assert shift["change"] == pytest.approx(0.511 - 1, abs=0.03)
    # the stable block is one regime, never a blend of the two
    medians = [r["mfu_median"] for r in s["regimes"]]
    assert any(s["stable"]["mfu_mean"] == pytest.approx(m, rel=0.02) for m in medians)
    # the slow regime took most of the wall time: 250 steps at twice the time of 130 fast ones
    assert s["stable"]["start_step"] >= shift["at_step"]
    assert all(d["end_step"] - d["start_step"] < 20 for d in s["dips"])
    assert s["warmup_steps"] == pytest.approx(spec.warmup, abs=2)
    assert not any("memory fragmentation" in d for d in s["diagnosis"])
    text = api_text(a)
    assert f"throughput fell 49% at step {shift['at_step']} and stayed down" in text


def api_text(a) -> str:
    from logparse.report.outputs import text_summary

    return text_summary(a)


def test_a_twenty_percent_drop_is_a_shift_not_a_trend(write_log):
    spec = Spec(steps=300, mfu=0.40, dips=[Dip(start=120, length=10_000, factor=0.8)], seed=5)
    a, _ = _megatron(write_log, spec)
    (shift,) = a.summary["shifts"]
    assert abs(shift["at_step"] - 120) <= 5
    assert shift["change"] == pytest.approx(-0.2, abs=0.02)
    assert not any("across the stable window" in d for d in a.summary["diagnosis"])


def test_a_short_dip_stays_a_dip_and_a_flat_run_has_one_regime(write_log):
    spec = Spec(steps=300, mfu=0.45, dips=[Dip(start=200, length=8, factor=0.5)], seed=7)
    a, _ = _megatron(write_log, spec)
    s = a.summary
    assert s["shifts"] == [] and len(s["regimes"]) == 1
    (dip,) = s["dips"]
    assert abs(dip["start_step"] - 200) <= 1 and abs(dip["end_step"] - 207) <= 1
    assert s["stable"]["mfu_mean"] == pytest.approx(0.45, rel=0.02)


def test_a_recovery_is_a_shift_up(write_log):
    # slow from 100 to 250 (a degraded node), then back to full speed
    spec = Spec(steps=400, mfu=0.45, dips=[Dip(start=100, length=150, factor=0.6)], seed=11)
    a, _ = _megatron(write_log, spec)
    changes = [round(sh["change"], 1) for sh in a.summary["shifts"]]
    assert changes == [-0.4, 0.7]  # 0.6x, then 1 / 0.6 = 1.67x
    assert all(abs(sh["at_step"] - t) <= 5 for sh, t in zip(a.summary["shifts"], (100, 250), strict=True))


# ------------------------------------------------------------------------------------------------
# Hugging Face Trainer: a tqdm bar redrawn at every step, a loss dict every 10 steps


def hf_log_written_by_tqdm(step_times: list[float], logging_steps: int, steps_per_epoch: int) -> str:
    """What `python train.py > log 2>&1` holds for HF Trainer's ProgressCallback: a tqdm bar
    (defaults, as HF creates it) updated once per optimizer step, and str(logs) printed through
    tqdm.write every logging_steps (transformers 5.x prints floats as .4g strings)."""
    from tqdm import tqdm

    now = [1000.0]
    buf = io.StringIO()
    bar = tqdm(total=len(step_times), file=buf, dynamic_ncols=False, ncols=100)
    bar._time = lambda: now[0]
    bar.start_t = bar.last_print_t = now[0]
    rng = random.Random(0)
    for i, t in enumerate(step_times, start=1):
        now[0] += t
        bar.update(1)
        if i % logging_steps == 0:
            logs = {
                "loss": 2.0 + 3.0 / i + rng.random() * 0.01,
                "grad_norm": 1.0 + rng.random(),
                "learning_rate": 3e-4,
                "epoch": i / steps_per_epoch,
            }
            tqdm.write(str({k: f"{v:.4g}" for k, v in logs.items()}), file=buf)
    bar.close()
    return buf.getvalue()


def test_hf_bar_at_every_step_gives_every_step_the_warmup_and_a_five_step_dip(write_log):
    rng = random.Random(1)
    base, warmup, dip = 1.47, 20, range(200, 205)
    times = []
    for step in range(1, 401):
        speed = min(1.0, 0.3 + 0.7 * step / warmup)
        if step in dip:
            speed *= 0.5
        times.append(base / speed * (1 + rng.gauss(0, 0.02)))
    text = hf_log_written_by_tqdm(times, logging_steps=10, steps_per_epoch=400)
    a = api.analyze(
        str(write_log(text, "hf.log")), gpus=8, hw="h100", model="llama2-7b", seq_len=2048, global_batch=32
    )
    steps = a.steps
    assert list(steps["step"]) == list(range(1, 401))  # not 40 rows
    assert steps.loc[steps["step"] % 10 == 0, "loss"].notna().all()
    assert steps.loc[steps["step"] % 10 != 0, "loss"].isna().all()
    # each step's own time, recovered from the smoothed rate within the rate's 2-decimal rounding
    err = (steps["step_time_s"].to_numpy() - times) / times
    assert abs(err).max() < 0.02
    s = a.summary
    assert abs(s["warmup_steps"] - warmup) <= 3
    (d,) = s["dips"]
    assert abs(d["start_step"] - dip[0]) <= 1 and abs(d["end_step"] - dip[-1]) <= 1
    assert "inverted" in s["steps"]["step_time_source"]


def test_hf_loss_dicts_take_the_bar_position_before_them_without_the_header(write_log):
    times = [0.5] * 48
    text = hf_log_written_by_tqdm(times, logging_steps=5, steps_per_epoch=48)
    steps = api.parse(str(write_log(text, "hf.log")))
    logged = steps.dropna(subset=["loss"])
    assert list(logged["step"]) == [5, 10, 15, 20, 25, 30, 35, 40, 45]


# ------------------------------------------------------------------------------------------------
# a windowed throughput only (Composer's SpeedMonitor without time/secs_per_step)


def test_warmup_on_a_windowed_throughput_lands_within_one_window(write_log):
    window = 10
    spec = Spec(steps=200, warmup=20, seed=2, gpus=8, global_batch=64)
    text, _ = composer_log(spec, window_size=window, secs_per_step=False)
    a = api.analyze(str(write_log(text, "composer.log")), hw="h100", model="llama2-7b", seq_len=4096)
    s = a.summary
    assert abs(s["warmup_steps"] - spec.warmup) <= window
    assert "moved back" in s["stable"]["rule"]


def test_a_per_step_time_beats_the_windowed_throughput(write_log):
    spec = Spec(steps=200, warmup=8, seed=4, gpus=8, global_batch=64)
    text, _ = composer_log(spec, window_size=10, secs_per_step=True)
    a = api.analyze(str(write_log(text, "composer.log")), hw="h100", model="llama2-7b", seq_len=4096)
    assert "window" in a.summary["steps"]["throughput_source"]  # time/secs_per_step, not the window
    assert "moved back" not in a.summary["stable"]["rule"]
    assert a.steps["tokens_per_s_logged"].notna().sum() == 200 - 10  # kept, but not judged
    assert abs(a.summary["warmup_steps"] - spec.warmup) <= 2


def test_binary_segmentation_finds_the_levels_a_step_series_was_built_from():
    """The numpy binary segmentation that replaced ruptures' Binseg (checked against it on 3,000 random
    series when it was written): a noise-free series of three levels is cut where the levels change; a
    penalty above every split's gain cuts nothing; a split keeps min_size points each side."""
    import numpy as np

    from logparse.phases.regimes import binary_segmentation

    x = np.array([0.0] * 30 + [1.0] * 30 + [3.0] * 40)
    assert binary_segmentation(x, pen=0.5, min_size=5) == [30, 60]
    # the best single split of x is at 60: its gain is the total cost less both sides' (each side is flat
    # but for the 0/1 step on the left: 60 points, mean 0.5, cost 15); nothing is cut for more than that
    total = float(((x - x.mean()) ** 2).sum())
    gain_60 = total - 15.0
    assert binary_segmentation(x, pen=gain_60 + 1e-9, min_size=5) == []
    # with 35 points a side: 60 is still allowed (60 | 40), and the 60 points left of it are too few to split
    assert binary_segmentation(x, pen=0.5, min_size=35) == [60]
    assert binary_segmentation(x, pen=0.5, min_size=51) == []  # 100 points cannot leave 51 each side
