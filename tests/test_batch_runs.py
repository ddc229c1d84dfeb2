"""What a batch counts as a run: a file analyze would read as a training log, or a run folder with the consoles
its reader takes; other files are skipped and named, never failed, and a run folder's console is never a second
run."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pandas as pd

from logparse.batch.engine import find_runs
from tests.conftest import ROOT, run_apart

FOLDERS = ROOT / "tests" / "data" / "runfolders"
# a design note that quotes a few log lines: analyze refuses it as "not a training log" (frame/assemble.py)
NOTES = "# Tuning notes\n\n```\nstep 10 loss 4.51 lr 0.0003\n```\n\n" + "".join(
    f"Run {n} moved the learning rate down after the first week, because the loss went up twice in a row.\n"
    for n in range(30)
)


def _log(steps: int) -> str:
    return "".join(f"step {s} loss {5 - 0.01 * s:.3f} lr 0.001\n" for s in range(1, steps + 1))


def test_files_that_are_not_training_logs_are_skipped_and_named(tmp_path):
    runs, out = tmp_path / "runs", tmp_path / "out"
    (runs / "job").mkdir(parents=True)
    (runs / "job" / "train.log").write_text(_log(12))
    (runs / "job" / "log.txt").write_text(_log(9))  # a .txt that is a log
    (runs / "job" / "requirements.txt").write_text("torch>=2.1\nnumpy\ntransformers==4.44.0\n")
    (runs / "notes.txt").write_text(NOTES)
    (runs / "job" / "slurm-1.err").write_text("")
    res = run_apart(["batch", str(runs), "--out", str(out), "--jobs", "1"])
    assert res.exit_code == 0, res.stderr  # nothing failed
    assert res.stdout.splitlines()[-1] == (
        "skipped: 3 files that are not training logs: job/requirements.txt, job/slurm-1.err, notes.txt"
    )
    index = pd.read_csv(out / "index.csv")
    assert sorted(index["run"]) == ["log", "train"] and (index["status"] == "ok").all()
    assert sorted(index["steps"]) == [9, 12]
    rows = json.loads((out / "index.json").read_text())  # the runs' rows, then a row per skipped file
    assert [r["status"] for r in rows] == ["ok", "ok", "skipped", "skipped", "skipped"]
    reasons = {Path(r["source"]).name: r["error"] for r in rows if r["status"] == "skipped"}
    assert reasons.keys() == {"requirements.txt", "slurm-1.err", "notes.txt"}
    assert "no pattern set recognises" in reasons["requirements.txt"]
    assert reasons["notes.txt"].startswith("not a training log")
    assert "empty" in reasons["slurm-1.err"]
    assert "skipped: 3 files that are not training logs" in (out / "index.html").read_text()
    # the same files analyze refuses, and only those
    for name in ("job/requirements.txt", "notes.txt"):
        alone = run_apart(["analyze", str(runs / name), "--out", str(tmp_path / "alone")])
        assert alone.exit_code == 1 and alone.stderr.count("\n") == 1, alone.stderr
    assert run_apart(["analyze", str(runs / "job" / "log.txt"), "--out", str(tmp_path / "a")]).exit_code == 0


def _stray_tree(root: Path) -> None:
    """Copies of real run folders with console files lying around them."""
    # W&B: the terminal's output (console.log) lies beside the wandb/ folder, as the capture wrote it
    # (its binary record left out: reading it imports wandb, which costs this test seconds)
    shutil.copytree(
        FOLDERS / "wandb_offline", root / "wb", symlinks=True, ignore=shutil.ignore_patterns("*.wandb")
    )
    # Lightning, two versions of one run: its console beside lightning_logs/ is read by each version
    lit = root / "lit"
    version = FOLDERS / "lightning_run" / "lightning_logs" / "version_0"
    for n in (0, 1):
        shutil.copytree(version, lit / "lightning_logs" / f"version_{n}")
    shutil.copy(FOLDERS / "lightning_run" / "train.log", lit / "train.log")
    # a Hugging Face output dir with its console inside, and a copy of that console beside it
    shutil.copytree(FOLDERS / "hf_output", root / "hf")
    shutil.copy(FOLDERS / "hf_output" / "train.log", root / "hf_train.log")


def test_a_run_folders_console_is_not_a_run_of_its_own(tmp_path):
    root, out = tmp_path / "runs", tmp_path / "out"
    _stray_tree(root)
    res = run_apart(["batch", str(root), "--out", str(out), "--jobs", "1"])
    assert res.exit_code == 0, res.stderr
    index = pd.read_csv(out / "index.csv")
    sources = sorted(Path(s).relative_to(root).as_posix() for s in index["source"])
    assert sources == [
        "hf",
        "lit/lightning_logs/version_0",
        "lit/lightning_logs/version_1",
        "wb/wandb/offline-run-20261203_071937-b7i2ui9l",
    ]
    assert (
        "skipped: 1 file that is a copy of a run folder's console (read with that run): hf_train.log"
        in res.stdout
    )
    # the console beside lightning_logs/ is part of both versions' inputs: changed, they are analyzed again
    os.utime(root / "lit" / "train.log", ns=(1, 1))
    again = run_apart(["batch", str(root), "--out", str(out), "--jobs", "1"])
    assert again.exit_code == 0, again.stderr
    cached = pd.read_csv(out / "index.csv").set_index("source")["cached"]
    assert {Path(s).relative_to(root).parts[0]: c for s, c in cached.items()} == {
        "hf": True,
        "lit": False,
        "wb": True,
    }
    # the W&B run says it saw the terminal's copy of its console
    folder = json.loads((out / index.loc[index["source"].str.contains("wandb"), "run"].iloc[0] / "summary.json")
                        .read_text())["folder"]  # fmt: skip
    assert any(f["file"] == "../../console.log" for f in folder["files"]), folder["files"]


def test_the_shipped_run_folders_are_one_run_each(tmp_path):
    """tests/data/runfolders (W&B with the terminal's console.log beside wandb/, HF, Lightning, TensorBoard) as a
    batch folder: a run per folder, no log left over as a second copy."""
    shutil.copytree(
        FOLDERS, tmp_path / "runs", symlinks=True, ignore=shutil.ignore_patterns("scripts", "README.md")
    )
    dirs, logs, skipped = find_runs(tmp_path / "runs")
    folders = [p for p in FOLDERS.iterdir() if p.is_dir() and p.name != "scripts"]
    assert len(dirs) == len(folders) and logs == [] and skipped == []


def test_a_renamed_wandb_run_still_owns_the_terminals_copy_of_its_console(tmp_path):
    """wandb names the run's folder `run-<date>-<id>` in the terminal's lines; a folder renamed since is known by
    the id its `run-<id>.wandb` keeps."""
    wandb_run = FOLDERS / "wandb_offline" / "wandb" / "offline-run-20261203_071937-b7i2ui9l"
    shutil.copytree(wandb_run, tmp_path / "runs" / "baseline", symlinks=True)
    shutil.copy(FOLDERS / "wandb_offline" / "console.log", tmp_path / "runs" / "console.log")
    dirs, logs, skipped = find_runs(tmp_path / "runs")
    assert [d.name for d in dirs] == ["baseline"] and logs == [] and skipped == []
