"""Two batches into one --out at once: neither fails a run of the other.

Each output file is written to a temporary name (`.summary.<pid>.tmp.json`) and renamed into place; a batch
that cleaned up "leftovers" before writing a run removed the other batch's files in flight, and the other
batch's rename then failed (`.../steps.csv: No such file or directory`). Here the other batch is a live process
whose temporary file lies in the run's folder, as it would mid-write."""

from __future__ import annotations

import json
import os
import subprocess
import sys

from tests.conftest import run_apart


def test_a_batch_leaves_another_live_writers_files_alone(tmp_path):
    runs, out = tmp_path / "runs", tmp_path / "out"
    runs.mkdir()
    (runs / "a.log").write_text("".join(f"step {s} loss {5 - 0.01 * s:.3f}\n" for s in range(1, 13)))
    folder = out / "a"
    folder.mkdir(parents=True)
    other = os.getppid()  # a process that runs while this test does, and is not this one
    theirs = folder / f".summary.{other}.tmp.json"
    theirs.write_text('{"the other batch": "writing"}\n')
    gone = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    )
    dead = folder / f".steps.{int(gone.stdout)}.tmp.csv"  # a writer killed before it renamed its file
    dead.write_text("step\n1\n")

    res = run_apart(["batch", str(runs), "--out", str(out), "--jobs", "1"])
    assert res.exit_code == 0, res.stderr
    assert json.loads((folder / "summary.json").read_text())["steps"]["count"] == 12
    assert not dead.exists()  # a dead writer's leftover is still cleaned up
    # the other batch's rename, once it has written its file, succeeds
    os.replace(theirs, folder / "summary.json")
