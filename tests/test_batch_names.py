"""A batch's output folders: one per run, each holding that run's own numbers, whatever the file names.

Every log here is a generic `step N loss X` log written by the test with its own number of steps (and its own
first loss), so each run's summary.json can be checked against the file it came from."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pandas as pd

from logparse.core.naming import run_names
from tests.conftest import run_apart

# file (under the batch folder) -> the steps the test writes into it: two runs whose names are the same but for
# the extension, a log beside its compressed twin, names that only a path separator, a newline or dots tell apart
# (case: test_names_are_the_shortest_that_tell_runs_apart), names of the files the batch writes itself, and a nested
# tree
TREE = {
    "jobB/train.log": 12,
    "jobB/train.txt": 13,
    "x.log": 14,
    "x.log.gz": 15,
    "a_b.log": 16,
    "a/b.log": 17,
    "c/b.log": 18,
    "x\ny.log": 19,
    "x_y.log": 20,
    "...log": 23,
    ".log": 24,
    "index.html.log": 25,
    "index.csv.log": 26,
    "runs/a/train.log": 27,
    "runs/b/train.log": 28,
}
BATCH_FILES = ("index.csv", "index.json", "index.html", "leaderboard.png")


def _log(steps: int, first_loss: float) -> str:
    return "".join(f"step {s} loss {first_loss - 0.01 * s:.3f} lr 0.001\n" for s in range(1, steps + 1))


def _write_tree(root: Path) -> dict[str, int]:
    for rel, steps in TREE.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        text = _log(steps, first_loss=float(steps))
        if rel.endswith(".gz"):
            path.write_bytes(gzip.compress(text.encode()))
        else:
            path.write_text(text)
    return {str(root / rel): steps for rel, steps in TREE.items()}


def test_every_run_keeps_its_own_folder_and_numbers(tmp_path):
    runs, out = tmp_path / "runs", tmp_path / "out"
    expected = _write_tree(runs)
    res = run_apart(["batch", str(runs), "--out", str(out), "--jobs", "1"])
    assert res.exit_code == 0, res.stderr
    index = json.loads((out / "index.json").read_text())
    assert sorted(r["source"] for r in index) == sorted(expected)  # every file a run, each once
    names = [r["run"] for r in index]
    assert len({n.casefold() for n in names}) == len(names)  # distinct on a file system that folds case too
    assert not {n.casefold() for n in names} & set(BATCH_FILES)
    for row in index:
        folder = Path(row["out"])
        assert folder.parent == out and folder.name == row["run"], row
        summary = json.loads((folder / "summary.json").read_text())
        steps = expected[row["source"]]
        assert (row["status"], row["steps"], summary["steps"]["count"]) == ("ok", steps, steps), row
        first = pd.read_csv(folder / "steps.csv").iloc[0]
        assert first["loss"] == round(steps - 0.01, 3), row  # the first loss the test wrote into this file
    # the batch's own files are its index, not a run's
    assert len(pd.read_csv(out / "index.csv")) == len(TREE)
    assert "<html" in (out / "index.html").read_text().lower()
    # readable where nothing clashes: the extension only where two runs would share a name
    by_source = {Path(r["source"]).relative_to(runs).as_posix(): r["run"] for r in index}
    assert by_source["x.log"] == "x.log" and by_source["x.log.gz"] == "x.log.gz"
    assert by_source["jobB/train.log"] != by_source["jobB/train.txt"]
    assert by_source["index.html.log"] == "index.html.log"

    # the same names again, and each cached row still its own run's
    again = run_apart(["batch", str(runs), "--out", str(out), "--jobs", "1"])
    assert again.exit_code == 0, again.stderr
    rows = json.loads((out / "index.json").read_text())
    assert {r["source"]: r["run"] for r in rows} == {r["source"]: r["run"] for r in index}
    assert all(r["cached"] and r["steps"] == expected[r["source"]] for r in rows)


def test_names_are_the_shortest_that_tell_runs_apart(tmp_path):
    root = tmp_path / "runs"

    def names(*rel: str, reserved: tuple[str, ...] = ()) -> list[str]:
        return run_names([root / r for r in rel], root=root, reserved=reserved)

    assert names("a/train.log", "b/train.log", "solo.out") == ["a_train", "b_train", "solo"]
    assert names("jobB/train.log", "jobB/train.txt") == ["train.log", "train.txt"]
    assert names("a/train.log", "b/train.log", "b/train.txt") == ["a_train", "b_train.log", "b_train.txt"]
    assert names("x.log", "x.log.gz") == ["x.log", "x.log.gz"]
    assert names("...log", ".log") == ["...log", ".log"]
    assert names("index.html.log", "leaderboard.png.log", reserved=BATCH_FILES) == [
        "index.html.log",
        "leaderboard.png.log",
    ]
    assert names("INDEX.JSON.log", reserved=BATCH_FILES) == ["INDEX.JSON.log"]  # case ignored
    # names a folder cannot tell apart: the path's digest, the same wherever the batch folder is
    told = names("x\ny.log", "x_y.log")
    assert len(set(told)) == 2 and all(n.startswith("x_y.log-") for n in told)
    moved = run_names(
        [tmp_path / "elsewhere" / r for r in ("x\ny.log", "x_y.log")], root=tmp_path / "elsewhere"
    )
    assert moved == told
    upper, lower = names("Case.log", "case.log")
    assert upper.casefold() != lower.casefold()
    # the same file given twice (compare a.log a.log): the second numbered
    assert names("a.log", "a.log") == ["a", "a-2"]
    # a name of any length fits in one folder name
    (long,) = names("q" * 300 + ".log")
    assert len(long.encode()) <= 120


def test_analyze_of_several_logs_names_their_folders_as_batch_does(tmp_path):
    """`analyze jobB/train.log jobB/train.txt --out d` wrote both into d/train: the second replaced the first."""
    runs = tmp_path / "runs"
    (runs / "jobB").mkdir(parents=True)
    (runs / "jobB" / "train.log").write_text(_log(12, 12.0))
    (runs / "jobB" / "train.txt").write_text(_log(13, 13.0))
    out = tmp_path / "out"
    res = run_apart(
        ["analyze", str(runs / "jobB" / "train.log"), str(runs / "jobB" / "train.txt"), "--out", str(out)]
    )
    assert res.exit_code == 0, res.stderr
    counts = {p.name: json.loads((p / "summary.json").read_text())["steps"]["count"] for p in out.iterdir()}
    assert counts == {"train.log": 12, "train.txt": 13}
