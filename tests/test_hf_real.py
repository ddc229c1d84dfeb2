"""Real Hugging Face Trainer logs captured on CPU (sample_logs/capture_hf.py) against trainer_state.json."""

from __future__ import annotations

import pytest

from logparse import api
from tests.conftest import SAMPLES, trainer_state

RUNS = [
    ("hf_trainer_ga4_cpu.log", "hf_trainer_ga4_cpu.trainer_state.json", 1, 4),
    ("hf_trainer_ddp2_cpu.log", "hf_trainer_ddp2_cpu.trainer_state.json", 2, 2),
]


@pytest.mark.parametrize("log,state,world,ga", RUNS)
def test_every_logged_loss_and_step_equals_trainer_state(log, state, world, ga):
    truth = trainer_state(state)
    history = [h for h in truth["log_history"] if "loss" in h]
    steps = api.parse(SAMPLES / log)
    assert len(steps) == len(history)
    assert list(steps["step"]) == [h["step"] for h in history]
    # the console prints f"{v:.4g}" of the value trainer_state.json keeps exactly
    assert [float(f"{h['loss']:.4g}") for h in history] == list(steps["loss"])
    assert [float(f"{h['grad_norm']:.4g}") for h in history] == list(steps["grad_norm"])
    assert int(steps["step"].iloc[-1]) == truth["global_step"] == truth["max_steps"]


@pytest.mark.parametrize("log,state,world,ga", RUNS)
def test_run_facts_from_the_header(log, state, world, ga):
    a = api.analyze(SAMPLES / log, seq_len=64, params=120_576, peak_tflops=1.0)
    s = a.summary
    assert s["gpus"] == world and s["gpus_source"] == "derived"
    assert s["facts"]["grad_accum"]["value"] == ga
    assert s["facts"]["global_batch_size"]["value"] == 16
    assert s["steps"]["step_time_source"].startswith("progress bar")
    # tokens/s from tqdm's rate agrees with the Trainer's own end-of-run figure within 20%
    # (train_runtime also counts start-up, so the log's figure is the lower one)
    final = s["facts"]["final_samples_per_s"]["value"] * 64
    assert final <= s["stable"]["tokens_per_s"] * 1.05
    assert s["stable"]["tokens_per_s"] == pytest.approx(final, rel=0.2)
    assert s["lines"]["unmatched"] <= 10


def test_ddp_log_interleaves_two_ranks():
    parsed = api.resolve(SAMPLES / "hf_trainer_ddp2_cpu.log").parsed
    assert set(parsed.rows["rank"].dropna()) == {0}  # only rank 0 prints the dicts and the bar
    assert (
        parsed.facts["grad_accum"][0].value == 2 and len(parsed.facts["grad_accum"]) == 2
    )  # both ranks' headers
