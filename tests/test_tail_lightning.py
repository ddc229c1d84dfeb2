"""Lightning logs beyond the TQDM bar (tests/data/captures/lightning_rich/, .../fabric/), held to the run's
own CSVLogger metrics.csv.

RichProgressBar (Lightning's default when `rich` is installed) draws in place: a file keeps its last frame
only (stdout redirected), or one frame per refresh (a terminal recording with `script`). logparse reads
the frames there are and says how many steps that is and what would read them all. Expected values are
metrics.csv's, formatted as the bar prints them (`.3f`, rich_progress.py MetricsTextColumn), at the
positions read off the frames by hand; metrics.csv counts steps from 0, logparse from 1.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import logparse
from logparse.cli import cli

CAPTURES = Path(__file__).resolve().parent / "data" / "captures"
RICH = CAPTURES / "lightning_rich"
TINY = 1e-9


def metrics_csv(path: Path) -> list[dict[str, str]]:
    with open(path, newline="") as fh:
        return list(csv.DictReader(fh))


def train_loss(rows: list[dict[str, str]]) -> dict[int, float]:
    """1-based optimizer step -> train_loss as the bar prints it (3 decimals)."""
    return {int(r["step"]) + 1: float(f"{float(r['train_loss']):.3f}") for r in rows if r["train_loss"]}


def val_loss(rows: list[dict[str, str]]) -> dict[int, float]:
    return {int(r["step"]) + 1: float(f"{float(r['val_loss']):.3f}") for r in rows if r["val_loss"]}


# ------------------------------------------------------------------------------------------------
# stdout to a file: the final frame only


def test_rich_file_reads_the_one_step_the_final_frame_holds():
    truth = metrics_csv(RICH / "lightning_rich_file_cpu.metrics.csv")
    losses, vals = train_loss(truth), val_loss(truth)
    last = max(losses)
    assert last == 20  # 2 epochs x 10 batches
    run = logparse.resolve(RICH / "lightning_rich_file_cpu.log", grad_accum=1)
    assert run.parsed.format == "lightning"  # detected, no --format
    steps = run.all_steps
    assert steps["step"].tolist() == [last]
    assert steps["loss"].iloc[0] == pytest.approx(losses[last], abs=TINY)
    assert steps["eval_loss"].iloc[0] == pytest.approx(vals[last], abs=TINY)  # epoch 1's validation


def test_rich_file_says_what_the_log_holds_and_what_reads_every_step(tmp_path):
    run = logparse.resolve(RICH / "lightning_rich_file_cpu.log")
    said = [w for w in run.warnings if "recoverable" in w]
    assert len(said) == 1 and said[0].startswith("1 step recoverable: ")
    assert "TQDMProgressBar" in said[0] and "CSVLogger" in said[0]
    res = CliRunner().invoke(
        cli, ["analyze", str(RICH / "lightning_rich_file_cpu.log"), "--out", str(tmp_path)]
    )
    assert res.exit_code == 0, res.output
    assert "warning: 1 step recoverable: Lightning's RichProgressBar redraws in place" in res.output
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["status"] == "complete"  # "`Trainer.fit` stopped: `max_epochs=2` reached."


def test_rich_leave_keeps_each_epochs_last_frame():
    truth = metrics_csv(RICH / "lightning_rich_leave_cpu.metrics.csv")
    losses, vals = train_loss(truth), val_loss(truth)
    run = logparse.resolve(RICH / "lightning_rich_leave_cpu.log", grad_accum=1)
    steps = run.all_steps.set_index("step")
    assert steps.index.tolist() == [10, 20, 30]  # 3 epochs x 10 batches, RichProgressBar(leave=True)
    for step in steps.index:
        assert steps.at[step, "loss"] == pytest.approx(losses[step], abs=TINY), step
        assert steps.at[step, "eval_loss"] == pytest.approx(vals[step], abs=TINY), step
    assert any(w.startswith("3 steps recoverable: ") for w in run.warnings), run.warnings


# ------------------------------------------------------------------------------------------------
# a terminal recording (`script`): one frame per refresh

# read by hand from lightning_rich_tty_cpu.log: the frames "Epoch 0/1 ... 4/10", "10/10" (twice, the second
# with its time column wrapped), "Epoch 1/1 ... 0/10" (no batch yet), "6/10", "10/10" (twice)
TTY_STEPS = [4, 10, 16, 20]


def test_rich_tty_reads_every_frame_with_metrics_csv_values():
    truth = metrics_csv(RICH / "lightning_rich_tty_cpu.metrics.csv")
    losses, vals = train_loss(truth), val_loss(truth)
    run = logparse.resolve(RICH / "lightning_rich_tty_cpu.log", grad_accum=1)
    steps = run.all_steps.set_index("step")
    assert steps.index.tolist() == TTY_STEPS
    for step in TTY_STEPS:
        assert steps.at[step, "loss"] == pytest.approx(losses[step], abs=TINY), step
    # the last frame shows epoch 1's validation; earlier frames of epoch 1 still show epoch 0's
    assert steps.at[20, "eval_loss"] == pytest.approx(vals[20], abs=TINY)
    assert steps.at[16, "eval_loss"] == pytest.approx(vals[10], abs=TINY)
    assert any(w.startswith("4 steps recoverable: ") for w in run.warnings), run.warnings
    assert not any("NaN or infinite" in w for w in run.warnings)  # "0.00it/s" means no speed yet


# ------------------------------------------------------------------------------------------------
# Lightning Fabric: the print of examples/fabric/language_model/train.py, Fabric's CSVLogger as truth

FABRIC = CAPTURES / "fabric"


def fabric_truth(name: str) -> tuple[dict[tuple[int, int], float], dict[int, float]]:
    """(epoch, batch_idx) -> loss as printed (.4f); epoch -> val_loss as printed."""
    rows = metrics_csv(FABRIC / f"{name}.metrics.csv")
    losses = {
        (int(float(r["epoch"])), int(float(r["batch_idx"]))): float(f"{float(r['loss']):.4f}")
        for r in rows
        if r["loss"]
    }
    last_step_epoch = {int(r["step"]): int(float(r["epoch"])) for r in rows if r["loss"]}
    vals = {
        last_step_epoch[int(r["step"])]: float(f"{float(r['val_loss']):.4f}") for r in rows if r["val_loss"]
    }
    return losses, vals


def test_fabric_printed_every_batch_reads_every_step_with_its_global_number():
    losses, vals = fabric_truth("lightning_fabric_every_cpu")
    truth = metrics_csv(FABRIC / "lightning_fabric_every_cpu.metrics.csv")
    run = logparse.resolve(FABRIC / "lightning_fabric_every_cpu.log")
    assert run.parsed.format == "lightning"  # detected, no --format
    steps = run.all_steps.set_index("step")
    want = sorted(int(r["step"]) + 1 for r in truth if r["loss"])  # global_step from 0 -> 1-based
    assert steps.index.tolist() == want == list(range(1, 61))
    for r in truth:
        if r["loss"]:
            key = (int(float(r["epoch"])), int(float(r["batch_idx"])))
            assert steps.at[int(r["step"]) + 1, "loss"] == pytest.approx(losses[key], abs=TINY), key
    for epoch, v in vals.items():  # "val loss" follows the epoch's last step
        assert steps.at[20 * (epoch + 1), "eval_loss"] == pytest.approx(v, abs=TINY)
    assert steps["eval_loss"].notna().sum() == 3
    assert [s.kind for s in run.segments] == ["start", "epoch", "epoch"]


# read by hand from lightning_fabric_cpu.log: iterations 0, 5, 10, 15 of each of epochs 0, 1, 2
FABRIC_EVERY_5 = [(e, i) for e in range(3) for i in (0, 5, 10, 15)]


def test_fabric_printed_every_5_batches_reads_every_printed_step():
    losses, vals = fabric_truth("lightning_fabric_cpu")
    run = logparse.resolve(FABRIC / "lightning_fabric_cpu.log")
    steps = run.all_steps
    assert list(zip(steps["epoch_index"].astype(int), steps["step"].astype(int), strict=True))[:4] == [
        (0, 1),
        (0, 6),
        (0, 11),
        (0, 16),  # epoch 0: step = iteration + 1, exact
    ]
    assert len(steps) == len(FABRIC_EVERY_5)
    for (epoch, it), (_, row) in zip(FABRIC_EVERY_5, steps.iterrows(), strict=True):
        assert int(row["epoch_index"]) == epoch
        assert row["loss"] == pytest.approx(losses[(epoch, it)], abs=TINY), (epoch, it)
    # the epoch's length is not printed: a later epoch is numbered on from the last printed iteration
    # (16), not from the 20 batches it had; the positions within it stay exact
    firsts = steps.groupby("epoch_index")["step"].min().tolist()
    assert firsts == [1, 17, 33]
    for epoch, v in vals.items():
        last = steps[steps["epoch_index"] == epoch].iloc[-1]
        assert last["eval_loss"] == pytest.approx(v, abs=TINY)
