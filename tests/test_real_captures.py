"""logparse on REAL framework console logs, held to the framework's own record.

Every log in sample_logs/ named here was captured from a real CPU run (sample_logs/CAPTURES.md); the
truth files beside it were written by the framework itself: Lightning's CSVLogger metrics.csv, the HF
Trainer's trainer_state.json, Composer's InMemoryLogger data. Expected numbers come from those files
or from arithmetic written here, never from logparse.
"""

from __future__ import annotations

import csv
import json
import re

import pytest

import logparse
from tests.conftest import SAMPLES

TINY = 1e-9  # a printed value parsed back equals the rounded truth up to float noise


def metrics_csv(name: str) -> list[dict[str, float]]:
    with open(SAMPLES / name, newline="") as fh:
        return [{k: float(v) for k, v in row.items()} for row in csv.DictReader(fh)]


def trainer_state(name: str) -> dict:
    return json.loads((SAMPLES / name).read_text())


def inmemory(name: str) -> dict:
    return json.loads((SAMPLES / name).read_text())


def composer_losses(truth: dict) -> dict[int, float]:
    """Console batch (1-based) -> loss as printed (.4f). The logger's timestamp_batch for a loss is the
    number of batches completed before it, so console batch = timestamp + 1."""
    return {t + 1: float(f"{v:.4f}") for t, v in truth["data"]["loss/train/total"]}


def composer_epoch_starts(truth: dict) -> list[int]:
    """1-based batches that open epoch 2, 3, ...: time/epoch is logged with the batch count at which
    the epoch counter went up; a count equal to the run's last batch is the fit end, not a boundary."""
    n_batches = len(truth["data"]["loss/train/total"])
    return [t + 1 for t, e in truth["data"]["time/epoch"] if e > 0 and t < n_batches]


# ------------------------------------------------------------------------------------------------
# Lightning: the bar counts micro-batches; accumulate_grad_batches=4 is given by the user

LIGHTNING = [("lightning_ga4_3ep_cpu", 30), ("lightning_ga4_cpu", 9)]


@pytest.mark.parametrize(("name", "n_steps"), LIGHTNING)
def test_lightning_one_row_per_optimizer_step_numbered_from_1(name, n_steps):
    truth = metrics_csv(f"{name}.metrics.csv")
    assert len(truth) == n_steps  # the capture's own count (CAPTURES.md)
    run = logparse.resolve(SAMPLES / f"{name}.log", grad_accum=4)
    rows = run.all_steps
    assert len(rows) == len(truth)
    assert rows["step"].tolist() == [int(r["step"]) + 1 for r in truth]  # metrics.csv is 0-based
    assert "micro-batch" in run.step_numbering and "/ 4" in run.step_numbering


@pytest.mark.parametrize(("name", "n_steps"), LIGHTNING)
def test_lightning_loss_is_metrics_csv_to_3_significant_digits(name, n_steps):
    truth = metrics_csv(f"{name}.metrics.csv")
    rows = logparse.resolve(SAMPLES / f"{name}.log", grad_accum=4).all_steps.set_index("step")
    for r in truth:
        step = int(r["step"]) + 1
        assert rows.at[step, "loss"] == pytest.approx(float(f"{r['train_loss']:.3g}"), abs=TINY), step


@pytest.mark.parametrize(("name", "n_steps"), LIGHTNING)
def test_lightning_segments_are_epochs_only(name, n_steps):
    truth = metrics_csv(f"{name}.metrics.csv")
    epochs = sorted({int(r["epoch"]) for r in truth})
    assert epochs == [0, 1, 2]
    # first optimizer step (1-based) of each epoch after the first
    opens = [next(int(r["step"]) + 1 for r in truth if int(r["epoch"]) == e) for e in epochs[1:]]
    segments = logparse.resolve(SAMPLES / f"{name}.log", grad_accum=4).segments
    assert [s.kind for s in segments] == ["start", "epoch", "epoch"]
    assert [s.first_step for s in segments if s.kind == "epoch"] == opens
    assert not [s for s in segments if s.kind in ("restart", "new_run")]


def test_lightning_without_grad_accum_warns_it_is_not_stated():
    run = logparse.resolve(SAMPLES / "lightning_ga4_cpu.log")
    assert any("gradient accumulation is not stated" in w for w in run.warnings), run.warnings


# ------------------------------------------------------------------------------------------------
# HF Trainer: the bar counts optimizer steps; loss every 5 steps, eval every 10

HF = ["hf_trainer_ls5_ga3_eval10_cpu", "hf_trainer_ls5_noheader_cpu"]


def hf_rows(name: str):
    return logparse.parse(SAMPLES / f"{name}.log").set_index("step", drop=False)


@pytest.mark.parametrize("name", HF)
def test_hf_one_row_per_optimizer_step(name):
    state = trainer_state(f"{name}.trainer_state.json")
    assert state["global_step"] == 50
    rows = hf_rows(name)
    assert rows["step"].tolist() == list(range(1, state["global_step"] + 1))


@pytest.mark.parametrize("name", HF)
def test_hf_training_losses_match_log_history(name):
    history = trainer_state(f"{name}.trainer_state.json")["log_history"]
    train = [e for e in history if "loss" in e]
    assert len(train) == 10
    rows = hf_rows(name)
    for e in train:
        assert rows.at[e["step"], "loss"] == pytest.approx(float(f"{e['loss']:.4g}"), abs=TINY), e["step"]
    assert rows["loss"].notna().sum() == len(train)


@pytest.mark.parametrize("name", HF)
def test_hf_eval_losses_sit_on_their_step(name):
    history = trainer_state(f"{name}.trainer_state.json")["log_history"]
    evals = [e for e in history if "eval_loss" in e]
    assert [e["step"] for e in evals] == [10, 20, 30, 40, 50]
    rows = hf_rows(name)
    for e in evals:
        assert rows.at[e["step"], "eval_loss"] == pytest.approx(float(f"{e['eval_loss']:.4g}"), abs=TINY)
    assert rows["eval_loss"].notna().sum() == len(evals)


@pytest.mark.parametrize("name", HF)
def test_hf_step_times_add_up_to_the_bars_elapsed_clock(name):
    total = trainer_state(f"{name}.trainer_state.json")["global_step"]
    text = (SAMPLES / f"{name}.log").read_text(encoding="utf-8", errors="replace")
    mm, ss = re.findall(rf"\b{total}/{total} \[(\d+):(\d+)<", text)[-1]
    elapsed = 60 * int(mm) + int(ss)  # tqdm prints whole seconds (truncated)
    summed = float(hf_rows(name)["step_time_s"].sum())
    assert abs(summed - elapsed) <= 1.5, (summed, elapsed)


# ------------------------------------------------------------------------------------------------
# Composer: one multi-line record per batch (= optimizer step), SpeedMonitor(window_size=5)

MB = "composer_mb_cpu"


def test_composer_one_row_per_batch_with_the_loggers_loss():
    losses = composer_losses(inmemory(f"{MB}.inmemory.json"))
    assert len(losses) == 40
    rows = logparse.parse(SAMPLES / f"{MB}.log")
    assert rows["step"].tolist() == sorted(losses)
    for step, loss in zip(rows["step"], rows["loss"], strict=True):
        assert loss == pytest.approx(losses[step], abs=TINY), step


def test_composer_segments_show_one_epoch_boundary():
    truth = inmemory(f"{MB}.inmemory.json")
    assert composer_epoch_starts(truth) == [21]
    segments = logparse.resolve(SAMPLES / f"{MB}.log").segments
    assert [s.kind for s in segments] == ["start", "epoch"]
    assert segments[1].first_step == 21


def test_composer_phases_know_the_speed_is_a_5_step_window():
    meta = inmemory(f"{MB}.inmemory.json")["meta"]
    window = meta["speed_monitor_window_size"]
    assert window == 5
    a = logparse.analyze(SAMPLES / f"{MB}.log", gpus=1, seq_len=meta["seq_len"])
    # phases.choose_speed: Composer's throughput/* is declared windowed, so the rule states the window
    assert f"an average over the last {window} steps" in a.summary["stable"]["rule"]


# ------------------------------------------------------------------------------------------------
# Two Composer runs appended to one file: "20ba" ([batch=N/20]) then 2 epochs of 5 batches

TWO = "composer_two_runs_cpu"


def two_runs_truth() -> tuple[dict, dict]:
    return inmemory(f"{TWO}.run1.inmemory.json"), inmemory(f"{TWO}.run2.inmemory.json")


def test_composer_two_runs_parse_keeps_every_batch_of_both_runs():
    runs = [composer_losses(t) for t in two_runs_truth()]
    assert [len(r) for r in runs] == [20, 10]
    rows = logparse.parse(SAMPLES / f"{TWO}.log")
    assert len(rows) == sum(len(r) for r in runs)
    for run_id, losses in enumerate(runs):
        part = rows[rows["run"] == run_id]
        assert part["step"].tolist() == sorted(losses)
        assert part["loss"].tolist() == pytest.approx([losses[s] for s in part["step"]], abs=TINY)


def test_composer_two_runs_segments_have_new_run_then_epoch():
    _, second = two_runs_truth()
    segments = logparse.resolve(SAMPLES / f"{TWO}.log").segments
    new_runs = [s for s in segments if s.kind == "new_run"]
    assert len(new_runs) == 1 and new_runs[0].run == 1 and new_runs[0].first_step == 1
    epochs = [s.first_step for s in segments if s.kind == "epoch" and s.run == 1]
    assert epochs == composer_epoch_starts(second) == [6]


def test_composer_two_runs_batch_duration_run_has_no_epoch_boundary():
    first, _ = two_runs_truth()
    assert composer_epoch_starts(first) == []  # time/epoch goes to 1 only at fit end (batch 20)
    segments = logparse.resolve(SAMPLES / f"{TWO}.log").segments
    assert [s.kind for s in segments if s.run == 0] == ["start"]


def test_composer_two_runs_analyze_covers_the_last_run_and_warns():
    _, second = two_runs_truth()
    a = logparse.analyze(SAMPLES / f"{TWO}.log", gpus=1, seq_len=second["meta"]["seq_len"])
    steps = a.summary["steps"]
    assert (steps["count"], steps["first"], steps["last"]) == (10, 1, 10)
    assert any("holds 2 runs" in w for w in a.summary["warnings"]), a.summary["warnings"]


def test_composer_two_runs_segment_0_analyzes_the_first_run():
    first, _ = two_runs_truth()
    n = len(first["data"]["loss/train/total"])
    a = logparse.analyze(SAMPLES / f"{TWO}.log", gpus=1, seq_len=first["meta"]["seq_len"], segment=0)
    steps = a.summary["steps"]
    assert (steps["count"], steps["first"], steps["last"]) == (n, 1, n)
    assert a.steps["loss"].tolist() == pytest.approx(list(composer_losses(first).values()), abs=TINY)
