"""A run folder's step record beside its console (steps/withrecord.py): the record numbers the optimizer steps when
the console counts micro-batches, the accumulation follows from the two, and the console adds its step times.

Truth: the libraries' own records (tests/data/runfolders/lightning_accum, a real Lightning 2.6.6 run with
accumulate_grad_batches=2 that its console never prints; sample_logs/lightning_ga4_cpu.* with 4 and epochs of 10
micro-batches, see sample_logs/CAPTURES.md), and values written by the test itself."""

from __future__ import annotations

import csv
import json
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

import logparse
from logparse.cli import cli as main
from tests.test_runfolders import write_events

ROOT = Path(__file__).resolve().parent.parent
ACCUM = ROOT / "tests" / "data" / "runfolders" / "lightning_accum"
METRICS = ACCUM / "lightning_logs" / "version_0" / "metrics.csv"


def _metrics(path: Path) -> list[dict[str, float]]:
    with open(path, newline="") as fh:
        return [{k: float(v) for k, v in row.items() if v} for row in csv.DictReader(fh)]


def test_lightning_folder_numbers_steps_by_metrics_csv_and_derives_the_accumulation(tmp_path):
    """`logparse analyze FOLDER`: metrics.csv's 30 optimizer steps with its losses, not the bar's 60 micro-batches;
    accumulate_grad_batches=2 derived (the console never prints it) and said; step times from the console's bar."""
    result = CliRunner().invoke(main, ["analyze", str(ACCUM), "--out", str(tmp_path / "out")])
    assert result.exit_code == 0, result.output
    truth = _metrics(METRICS)
    with open(tmp_path / "out" / "steps.csv", newline="") as fh:
        rows = list(csv.DictReader(fh))
    # CSVLogger's `step` is the trainer's global step from 0; logparse counts optimizer steps from 1
    assert [int(r["step"]) for r in rows] == [int(t["step"]) + 1 for t in truth] == list(range(1, 31))
    for row, t in zip(rows, truth, strict=True):
        assert float(row["loss"]) == pytest.approx(t["train_loss"], rel=1e-12)
        assert float(row["step_time_s"]) > 0
    summary = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert (
        summary["facts"]["grad_accum"]["value"] == 2 and summary["facts"]["grad_accum"]["source"] == "derived"
    )
    assert any("gradient accumulation of 2 (derived" in w for w in summary["warnings"])
    assert summary["folder"]["steps_from"] == "lightning_logs/version_0/metrics.csv"
    assert summary["folder"]["times_from"] == "train.log"
    assert (
        "metrics.csv" in summary["steps"]["numbering"]
        and "2 a step (derived)" in summary["steps"]["numbering"]
    )
    # the bar's rate is the epoch's average (smoothing=0): its clock at an epoch's last redraw, 20 micro-batches x
    # seconds per micro-batch, is the epoch's 10 step times together
    last = {}
    for m in re.finditer(
        r"Epoch (\d+): 100%\|[^|]*\| 20/20 \[[^,]*, +([\d.]+)it/s", ACCUM.joinpath("train.log").read_text()
    ):
        last[int(m.group(1))] = 20 / float(m.group(2))
    by_epoch: dict[int, float] = {}
    for row, t in zip(rows, truth, strict=True):
        by_epoch[int(t["epoch"])] = by_epoch.get(int(t["epoch"]), 0.0) + float(row["step_time_s"])
    assert by_epoch == pytest.approx(last, rel=1e-9) and sorted(last) == [0, 1, 2]


def _ga4_folder(run: Path, logger: str = "csv", epoch_of_step_2: int = 0) -> list[dict[str, float]]:
    """sample_logs/lightning_ga4_cpu's console as train.log beside a version folder holding its CSVLogger record, or
    the same values as Lightning's TensorBoardLogger writes them (hparams.yaml, hp_metric at step 0, train_loss and
    epoch at each global step); `epoch_of_step_2` edits the epoch of the third step (truly 0). Returns the record."""
    version = run / "lightning_logs" / "version_0"
    version.mkdir(parents=True)
    shutil.copy(ROOT / "sample_logs" / "lightning_ga4_cpu.log", run / "train.log")
    truth = _metrics(ROOT / "sample_logs" / "lightning_ga4_cpu.metrics.csv")
    assert truth[2]["step"] == 2 and truth[2]["epoch"] == 0
    truth[2]["epoch"] = epoch_of_step_2
    if logger == "csv":
        rows = "".join(f"{int(t['epoch'])},{int(t['step'])},{t['train_loss']!r}\n" for t in truth)
        (version / "metrics.csv").write_text("epoch,step,train_loss\n" + rows)
        return truth
    pytest.importorskip("tensorboard")
    (version / "hparams.yaml").write_text("lr: 0.003\n")
    events = [(0, 1_700_000_000.0, {"hp_metric": -1.0})]
    events += [
        (int(t["step"]), 1_700_000_001.0 + t["step"], {"train_loss": t["train_loss"], "epoch": t["epoch"]})
        for t in truth
    ]
    write_events(version, events)
    return truth


@pytest.mark.parametrize("logger", ["csv", "tb"])
def test_an_epoch_that_is_not_a_multiple_of_the_accumulation_ends_in_a_short_step(tmp_path, logger):
    """Lightning steps at an epoch's last batch (training_epoch_loop.py _should_accumulate): 10 micro-batches an epoch
    at accumulation 4 make steps after micro-batches 4, 8 and 10, 9 in 3 epochs, as its logger records them."""
    truth = _ga4_folder(tmp_path / "run", logger)
    a = logparse.analyze(str(tmp_path / "run"))
    assert a.steps["step"].tolist() == [int(t["step"]) + 1 for t in truth]
    assert a.steps["loss"].tolist() == pytest.approx([t["train_loss"] for t in truth], rel=1e-6)
    assert a.steps["micro_step"].tolist() == [4, 8, 10] * 3  # the micro-batch that completes each step
    assert (a.run.facts["grad_accum"].value, a.run.facts["grad_accum"].source) == (4, "derived")
    assert a.steps["step_time_s"].notna().all()


@pytest.mark.parametrize("logger", ["csv", "tb"])
def test_a_record_whose_epochs_the_bar_does_not_make_is_not_matched(tmp_path, logger):
    """The record's epoch is checked: with the third step put in epoch 1 (the bar's first epoch ends with it), no
    accumulation fits, so the record's steps stand alone and a warning says why."""
    _ga4_folder(tmp_path / "run", logger, epoch_of_step_2=1)
    a = logparse.analyze(str(tmp_path / "run"))
    assert a.steps["step"].tolist() == list(range(1, 10))
    assert [w.code for w in a.run.warnings].count("console_differs") == 1 and "grad_accum" not in a.run.facts


def test_an_accumulation_given_that_does_not_fit_the_record_takes_nothing_from_the_console():
    a = logparse.analyze(str(ACCUM), grad_accum=4)  # 60 micro-batches at 4 would be 15 steps, not 30
    assert a.steps["step"].tolist() == list(range(1, 31))
    assert [w.code for w in a.run.warnings].count("console_differs") == 1
    assert "step_time_s" not in a.steps or a.steps["step_time_s"].isna().all()
    assert a.summary["folder"]["steps_from"] == "lightning_logs/version_0/metrics.csv"


@pytest.mark.parametrize("first", [0, 1])
def test_a_custom_loop_printing_every_micro_batch_is_folded_into_its_tensorboard_steps(tmp_path, first):
    """Not Lightning: a loop that prints `step i | loss | ms` at every batch (i from `first`) and writes TensorBoard
    scalars at every optimizer step (accumulation 3, not printed). The event file numbers 20 steps with its losses;
    each step's time is its 3 micro-batches' printed times together."""
    pytest.importorskip("tensorboard")
    g, n = 3, 20
    ms = [30.0 + 7 * (i % 4) for i in range(g * n)]  # micro-batch j (0-based) took ms[j]
    lines = ["loading data"] + [
        f"step {j + first} | loss {6 - 0.01 * j:.4f} | {ms[j]:.1f} ms" for j in range(g * n)
    ]
    (tmp_path / "run").mkdir()
    (tmp_path / "run" / "train.log").write_text("\n".join(lines) + "\n")
    scalars = [(k, 1_700_000_000.0 + 0.5 * k, {"train/loss": 5.0 - 0.125 * k}) for k in range(1, n + 1)]
    write_events(tmp_path / "run", scalars)
    a = logparse.analyze(str(tmp_path / "run"))
    steps = a.steps.set_index("step")
    assert list(steps.index) == [k for k, _, _ in scalars]
    for k, _, tags in scalars:
        assert steps.at[k, "loss"] == pytest.approx(tags["train/loss"], rel=1e-6)
        assert steps.at[k, "step_time_s"] == pytest.approx(sum(ms[(k - 1) * g : k * g]) / 1000, rel=1e-9)
    assert (a.run.facts["grad_accum"].value, a.run.facts["grad_accum"].source) == (3, "derived")
    assert [w.code for w in a.run.warnings].count("grad_accum_derived") == 1
    assert a.summary["folder"]["times_from"] == "train.log"


def test_a_console_that_shows_every_step_keeps_its_rows_with_the_records_exact_figures():
    """HF's output dir: the console's rows (its bar and loss dicts) stay, and where trainer_state.json logs the same
    figure that the console prints rounded ('5.533'), the record's full value is the step's."""
    hf = ROOT / "tests" / "data" / "runfolders" / "hf_output"
    a = logparse.analyze(str(hf))
    history = {
        e["step"]: e
        for e in json.loads((hf / "trainer_state.json").read_text())["log_history"]
        if "loss" in e
    }
    steps = a.steps.set_index("step")
    assert len(steps) == 6 and a.summary["folder"]["steps_from"] is None
    for step, e in history.items():
        assert steps.at[step, "loss"] == pytest.approx(e["loss"], rel=1e-12)
        assert steps.at[step, "grad_norm"] == pytest.approx(e["grad_norm"], rel=1e-12)
    assert a.summary["folder"]["times_from"] == "train.log"  # its bar's rate
