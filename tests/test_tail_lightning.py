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
    res = CliRunner().invoke(cli, ["analyze", str(RICH / "lightning_rich_file_cpu.log"), "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    assert "warning: 1 step recoverable: Lightning's RichProgressBar redraws in place" in res.output
    summary = json.loads((tmp_path / "summary.json").read_text())
    assert summary["status"] == "complete"  # "`Trainer.fit` stopped: `max_epochs=2` reached."


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

