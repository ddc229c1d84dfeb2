"""Keras 3 `model.fit` console logs (tests/data/captures/keras/), held to Keras's own record.

The truth files (*.truth.json) were written by a Keras Callback in the same run (capture_keras.py): every
`logs` dict Keras passed to on_train_batch_end and on_epoch_end, which are the dicts its ProgbarLogger
prints. Expected numbers are those values formatted as Keras formats them (keras/src/utils/progbar.py
lines 198-201: `.4f`, or `.4e` at or below 1e-3), step numbers are (epoch x batches per epoch) + batch + 1,
and step times are read off the lines by hand (Keras prints them, it does not record them).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import logparse
from logparse.read.reader import clean_text

HERE = Path(__file__).resolve().parent / "data" / "captures" / "keras"
TINY = 1e-9


def truth(name: str) -> dict:
    return json.loads((HERE / f"{name}.truth.json").read_text())


def printed(value: float) -> float:
    """A metric as the bar prints it (progbar.py lines 198-201)."""
    return float(f"{value:.4f}" if abs(value) > 1e-3 else f"{value:.4e}")


def rows(name: str):
    return logparse.parse(HERE / f"{name}.log").set_index("step", drop=False)


def batches_per_epoch(t: dict) -> int:
    return 1 + max(b["batch"] for b in t["batches"])


def global_step(b: dict, n: int) -> int:
    return b["epoch"] * n + b["batch"] + 1


# ------------------------------------------------------------------------------------------------
# verbose=1, every batch drawn (the capture sleeps 0.06 s a batch, above Keras's 0.05 s redraw interval)


def test_v1_one_row_per_batch_numbered_across_epochs():
    t = truth("keras_fit_v1_cpu")
    n = batches_per_epoch(t)
    assert (n, len(t["epochs"])) == (20, 3)
    got = rows("keras_fit_v1_cpu")
    assert got["step"].tolist() == [global_step(b, n) for b in t["batches"]] == list(range(1, 61))


def test_v1_loss_and_accuracy_are_keras_logs_at_printed_precision():
    t = truth("keras_fit_v1_cpu")
    n = batches_per_epoch(t)
    got = rows("keras_fit_v1_cpu")
    for b in t["batches"]:
        step = global_step(b, n)
        assert got.at[step, "loss"] == pytest.approx(printed(b["loss"]), abs=TINY), step
        assert got.at[step, "x_accuracy"] == pytest.approx(printed(b["accuracy"]), abs=TINY), step


def test_v1_validation_sits_on_each_epochs_last_step():
    t = truth("keras_fit_v1_cpu")
    n = batches_per_epoch(t)
    got = rows("keras_fit_v1_cpu")
    for e in t["epochs"]:
        step = (e["epoch"] + 1) * n
        assert got.at[step, "eval_loss"] == pytest.approx(printed(e["val_loss"]), abs=TINY)
        assert got.at[step, "x_val_accuracy"] == pytest.approx(printed(e["val_accuracy"]), abs=TINY)
    assert got["eval_loss"].notna().sum() == len(t["epochs"])


def test_v1_step_time_is_the_printed_ms_per_step():
    got = rows("keras_fit_v1_cpu")
    # read by hand: line 3 " 1/20 ... 1s 65ms/step", "20/20 ... 0s 63ms/step" (the batch's redraw; the
    # epoch-end redraw after validation says 64ms/step), line 5 " 1/20 ... 1s 64ms/step"
    assert got.at[1, "step_time_s"] == pytest.approx(0.065)
    assert got.at[20, "step_time_s"] == pytest.approx(0.063)
    assert got.at[21, "step_time_s"] == pytest.approx(0.064)


def test_v1_is_detected_as_keras_and_epochs_are_not_restarts():
    run = logparse.resolve(HERE / "keras_fit_v1_cpu.log")
    assert run.parsed.format == "keras"
    assert [s.kind for s in run.segments] == ["start", "epoch", "epoch"]
    assert [s.first_step for s in run.segments] == [1, 21, 41]


# ------------------------------------------------------------------------------------------------
# verbose=2: one line per epoch


def test_v2_one_row_per_epoch_at_its_last_step():
    t = truth("keras_fit_v2_cpu")
    n = batches_per_epoch(t)
    got = rows("keras_fit_v2_cpu")
    assert got["step"].tolist() == [(e["epoch"] + 1) * n for e in t["epochs"]] == [20, 40, 60]
    for e in t["epochs"]:
        step = (e["epoch"] + 1) * n
        assert got.at[step, "loss"] == pytest.approx(printed(e["loss"]), abs=TINY)
        assert got.at[step, "eval_loss"] == pytest.approx(printed(e["val_loss"]), abs=TINY)
    # read by hand: "20/20 - 1s - 68ms/step", "- 69ms/step", "- 66ms/step"
    assert got["step_time_s"].tolist() == pytest.approx([0.068, 0.069, 0.066])


# ------------------------------------------------------------------------------------------------
# verbose=1 with 2-3 ms steps: Keras skips redraws closer than 0.05 s (progbar.py line 141)

# read by hand from the file: the positions k/200 of the redraws, epoch 1 then epoch 2
FAST_DRAWN = [1, 30, 60, 90, 121, 152, 183, 200, 1, 32, 62, 92, 123, 154, 185, 200]


def test_fast_only_the_drawn_batches_with_keras_values():
    t = truth("keras_fit_fast_cpu")
    n = batches_per_epoch(t)
    assert n == 200
    want_steps = [k + 200 * (i >= 8) for i, k in enumerate(FAST_DRAWN)]
    got = rows("keras_fit_fast_cpu")
    assert got["step"].tolist() == want_steps
    by_step = {global_step(b, n): b for b in t["batches"]}
    for step in want_steps:
        assert got.at[step, "loss"] == pytest.approx(printed(by_step[step]["loss"]), abs=TINY), step
        assert got.at[step, "x_accuracy"] == pytest.approx(printed(by_step[step]["accuracy"]), abs=TINY)


# ------------------------------------------------------------------------------------------------
# a generator without a length: "k/Unknown" redraws, then the epoch's final "12/12" once Keras knows


def test_unknown_target_reads_every_batch():
    t = truth("keras_fit_unknown_cpu")
    got = rows("keras_fit_unknown_cpu")
    assert got["step"].tolist() == [b["batch"] + 1 for b in t["batches"]] == list(range(1, 13))
    for b in t["batches"]:
        assert got.at[b["batch"] + 1, "loss"] == pytest.approx(printed(b["loss"]), abs=TINY)


# ------------------------------------------------------------------------------------------------
# fit, then model.evaluate and model.predict: their bars are no training steps


def test_evaluate_and_predict_bars_after_fit_are_not_steps():
    t = truth("keras_fit_evaluate_cpu")
    n = batches_per_epoch(t)
    assert (n, len(t["epochs"])) == (10, 2)
    run = logparse.resolve(HERE / "keras_fit_evaluate_cpu.log")
    steps = run.all_steps.set_index("step")
    assert steps.index.tolist() == [global_step(b, n) for b in t["batches"]] == list(range(1, 21))
    for b in t["batches"]:
        assert steps.at[global_step(b, n), "loss"] == pytest.approx(printed(b["loss"]), abs=TINY)
    assert not [s for s in run.segments if s.kind in ("restart", "new_run")]
    # read by hand: line 6 is evaluate's bar ("1/3 ... - loss: 1.1931", "3/3 ..."), line 7 predict's (no metric)
    events = run.parsed.events
    assert events[events["event"] == "eval"]["line"].tolist() == [6]


# ------------------------------------------------------------------------------------------------
# ModelCheckpoint and EarlyStopping print between an epoch's last batch and its final redraw


def test_checkpoint_lines_are_save_events_and_steps_stay_whole():
    t = truth("keras_fit_checkpoint_cpu")
    n = batches_per_epoch(t)
    run = logparse.resolve(HERE / "keras_fit_checkpoint_cpu.log")
    steps = run.all_steps.set_index("step")
    assert steps.index.tolist() == [global_step(b, n) for b in t["batches"]] == list(range(1, 61))
    for b in t["batches"]:
        assert steps.at[global_step(b, n), "loss"] == pytest.approx(printed(b["loss"]), abs=TINY)
    for e in t["epochs"]:  # the final redraw after the checkpoint lines still joins the epoch's last step
        assert steps.at[(e["epoch"] + 1) * n, "eval_loss"] == pytest.approx(printed(e["val_loss"]), abs=TINY)
    events = run.parsed.events
    # read by hand: six "Epoch k: finished saving model to ..." lines, then "Epoch 6: early stopping" (line 38)
    assert (events["event"] == "checkpoint_save").sum() == 6
    assert events[events["event"] == "end"]["line"].tolist() == [38]


# ------------------------------------------------------------------------------------------------
# the reader: Keras starts each redraw with backspaces over the previous one, then "\r"


def test_reader_drops_backspaces_as_a_terminal_shows_them():
    assert clean_text(" 2/20 x - loss: 1.9608" + "\b" * 30)[0] == " 2/20 x - loss: 1.9608"
    assert clean_text("12345\b\b\bab")[0] == "12ab5"  # a backspace moves back, the next text overwrites


# ------------------------------------------------------------------------------------------------
# public excerpts (tests/data/public/SOURCES_keras.toml): the run's numbering across epochs

PUBLIC = Path(__file__).resolve().parent / "data" / "public"


@pytest.mark.parametrize(
    ("name", "losses", "times"),
    [
        # keras-team/keras-core#555: Keras 3, backend torch; read by hand
        ("keras_core_issue555_torch", [0.2566, 0.2151, 0.2056], [0.004, 0.004, 0.004]),
        # abhi8893/tensorflow-deep-learning-mrdbourke#8: tf.keras 2.x; read by hand
        ("keras2_abhi8893_issue8_fit", [1457.4397, 40.0271, 25.4607], [781e-6, 785e-6, 725e-6]),
    ],
)
def test_public_epochs_continue_the_step_count(name, losses, times):
    run = logparse.resolve(PUBLIC / f"{name}.log")
    assert run.parsed.format == "keras"
    steps = run.all_steps
    assert steps["step"].tolist() == [32, 64, 96]  # 32 batches an epoch ("32/32"), 3 epochs
    assert steps["loss"].tolist() == pytest.approx(losses)
    assert steps["step_time_s"].tolist() == pytest.approx(times)
