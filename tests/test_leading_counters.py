"""A line-leading `N: ` is srun --label's task id, or the program's own step counter.

srun --label writes "%*d: " (slurm's _build_label: the task id right-aligned to the width of the largest) before each
line of each task: a few ids, repeated, interleaved. Programs print their own counter the same way:

- darknet (pjreddie/darknet examples/detector.c, train_detector):
  printf("%ld: %f, %f avg, %f rate, %lf seconds, %d images\\n", get_current_batch(net), loss, avg_loss, ...);
  AlexeyAB/darknet src/detector.c: printf("\\n %d: %f, %f avg loss, %f rate, %lf seconds, %d images, %f hours
  left\\n", iteration, ...), a blank line and one space before the iteration;
- CatBoost (catboost/libs/loggers/logger.h, TConsoleLoggingBackend): Flush writes currentIteration << ":" and then
  "\\t<set>: <metric>" per set, "\\tbest: <value> (<iteration>)", "\\ttotal: <passed>\\tremaining: <eta>" (pasted
  copies often have the tabs expanded to spaces, which is what reads as srun's "N: ");
- the cross-entropy method of Deep Reinforcement Learning Hands-On (PacktPublishing/Deep-Reinforcement-Learning-
  Hands-On-3E Chapter04/01_cartpole.py): print("%d: loss=%.3f, reward_mean=%.1f, rw_bound=%.1f" % (iter_no, ...)),
  iter_no from 0, after print(net).

The reader decides once per file, from its head, which one it has (reader.leading_counters); every way of reading
(one pass, ranges read in parallel, the fast lane, _native.fit) follows that decision."""

from __future__ import annotations

from pathlib import Path

import pytest

from logparse.frame.assemble import parse_log
from logparse.patterns.sets import load_sets
from logparse.read.reader import read_records

from .test_chunks import _lane_rows, _parse, _same

SETS = load_sets()


def _darknet(first: int, n: int, alexey: bool = False) -> list[str]:
    """darknet's iteration lines (and the line it prints before each), loss 5.0 - 0.05 i, 64 images a batch."""
    out = []
    for i in range(first, first + n):
        out.append("Loaded: 0.000031 seconds")
        loss, avg, rate, secs = 5.0 - 0.05 * i, 5.2 - 0.05 * i, 0.001, 1.5 + i / 100
        if alexey:
            out += [
                "",
                f" {i}: {loss:f}, {avg:f} avg loss, {rate:f} rate, {secs:f} seconds, {i * 64} images, "
                f"{2.0:f} hours left",
            ]
        else:
            out.append(f"{i}: {loss:f}, {avg:f} avg, {rate:f} rate, {secs:f} seconds, {i * 64} images")
    return out


def _catboost(first: int, n: int) -> list[str]:
    """CatBoost's console lines, the tabs expanded to 8-column stops as in a pasted copy."""
    return [
        f"{i}:\tlearn: {0.95 + i / 1e4:.7f}\ttest: {0.83 + i / 1e4:.7f}\tbest: 0.8356368 (1)\ttotal: {45 + i / 2:.1f}s"
        f"\tremaining: 1h 42m 22s".expandtabs(8)
        for i in range(first, first + n)
    ]


def _lapan(n: int) -> list[str]:
    return ["Net(", "  (net): Sequential(", "  )", ")"] + [
        f"{i}: loss={0.69 - i / 100:.3f}, reward_mean={20 + 3 * i:.1f}, rw_bound={25 + 3 * i:.1f}"
        for i in range(n)
    ]


def _srun(lines_of: dict[int, list[str]], width: int) -> list[str]:
    """srun --label's output of tasks each printing its lines, interleaved line by line."""
    out = []
    for k in range(max(map(len, lines_of.values()))):
        for task, lines in lines_of.items():
            if k < len(lines):
                out.append(f"{task:{width}d}: {lines[k]}")
    return out


def _head(lines: list[str]) -> bytes:
    return ("\n".join(lines) + "\n").encode()


STEP = "step {} | loss {:.3f}"


@pytest.mark.parametrize(
    "lines, counter",
    [
        (_darknet(1, 20), True),  # 1..20: the width grows, unpadded
        (_darknet(75, 17), True),  # 75..91, one width: no task ids start past 0
        (_darknet(75, 17, alexey=True), True),  # " 75: " with its blank line before
        (_catboost(87, 10), True),
        (_lapan(30), True),
        # srun --label: 4 tasks interleaved; 16 tasks (" 0: " ... "15: "), one line each in task order, then task 0
        (_srun({t: [STEP.format(s, 2.0) for s in range(20)] for t in range(4)}, 1), False),
        (
            _srun({t: ["Loading checkpoint"] for t in range(16)}, 2)
            + [f" 0: {STEP.format(s, 2.0)}" for s in range(20)],
            False,
        ),
        (_srun({t: ["Loading checkpoint"] for t in range(8)}, 1), False),  # 0..7 once each: as srun writes it
        ([f" 0: {STEP.format(s, 2.0)}" for s in range(30)], False),  # one task
        (_darknet(1, 2), False),  # two lines: too few to tell
    ],
    ids=[
        "darknet",
        "darknet_75",
        "alexeyab",
        "catboost",
        "cartpole",
        "srun4",
        "srun16",
        "srun8_once",
        "srun1",
        "few",
    ],
)
def test_a_leading_counter_is_told_from_srun_labels(lines, counter):
    from logparse.read.reader import leading_counters

    assert leading_counters(_head(lines)) is counter


def test_the_reader_keeps_a_counter_in_the_text_and_peels_srun_labels(tmp_path: Path):
    counted = tmp_path / "darknet.log"
    counted.write_text("\n".join(_darknet(8, 4)) + "\n")
    steps = [r for r in read_records(str(counted)) if "avg" in r.text]
    assert [(r.text.split(":")[0], r.rank) for r in steps] == [
        ("8", None),
        ("9", None),
        ("10", None),
        ("11", None),
    ]
    cat = tmp_path / "catboost.log"
    cat.write_text("\n".join(_catboost(87, 3)) + "\n")
    assert [(r.text[:3], r.rank, r.host) for r in read_records(str(cat))] == [
        ("87:", None, None),
        ("88:", None, None),
        ("89:", None, None),
    ]
    labelled = tmp_path / "srun.log"
    labelled.write_text(
        "\n".join(_srun({t: [STEP.format(s, 2.0) for s in range(5)] for t in range(2)}, 1)) + "\n"
    )
    got = [(r.text, r.rank) for r in read_records(str(labelled))]
    assert got[:3] == [("step 0 | loss 2.000", 0), ("step 0 | loss 2.000", 1), ("step 1 | loss 2.000", 0)]


def test_an_srun_label_before_the_programs_counter_is_peeled_once(tmp_path: Path):
    """srun writes one label a line: the cartpole counter after it is the record's."""
    log = tmp_path / "srun_cartpole.log"
    log.write_text("\n".join(_srun({0: _lapan(12)[4:], 1: _lapan(12)[4:]}, 1)) + "\n")
    got = [(r.text[:8], r.rank) for r in read_records(str(log))]
    assert got[:4] == [("0: loss=", 0), ("0: loss=", 1), ("1: loss=", 0), ("1: loss=", 1)]
    assert got[-1] == ("11: loss", 1)


def test_darknet_and_cartpole_steps_are_their_counters(tmp_path: Path):
    darknet = tmp_path / "darknet.log"
    darknet.write_text("\n".join(_darknet(1, 40)) + "\n")
    rows = parse_log(str(darknet), SETS).rows
    assert rows[rows["kind"] == "step"]["step"].tolist() == list(range(1, 41))
    cartpole = tmp_path / "cartpole.log"
    cartpole.write_text("\n".join(_lapan(30)) + "\n")
    rows = parse_log(str(cartpole), SETS).rows
    steps = rows[rows["kind"] == "step"]
    assert steps["step"].tolist() == list(range(30))
    assert steps["loss"].tolist()[:3] == [0.69, 0.68, 0.67]  # 0.69 - i / 100, printed %.3f
    assert steps["rank"].isna().all()


@pytest.mark.parametrize("native", [True, False], ids=["native", "regex"])
def test_every_lane_reads_a_counter_as_one_pass_does(tmp_path: Path, monkeypatch, native: bool):
    """Ranges read in parallel, the fast lane and _native.fit follow the decision the head made: steps are the
    counters, and the lane reads most lines (it sends a line that may carry a launcher prefix the ordinary way)."""
    from logparse.frame import fastlane

    if native and fastlane._native is None:
        pytest.skip("logparse.frame._native is not built")
    monkeypatch.setattr(fastlane, "NATIVE", native)
    log = tmp_path / "cartpole.log"
    log.write_text("\n".join(_lapan(3000)) + "\n")
    made_rows = _lane_rows(monkeypatch)
    one = _parse(log, listing=False)
    steps = one[0].rows[one[0].rows["kind"] == "step"]
    assert steps["step"].tolist() == list(range(3000))
    assert steps.loc[steps["step"] == 2500, "x_reward_mean"].tolist() == [7520.0]  # 20 + 3 * 2500
    for jobs in (1, 2):
        made_rows.clear()
        _same(one, _parse(log, jobs=jobs, chunk_bytes=20_000, listing=False))
        if jobs == 1:
            assert sum(made_rows) > 0.8 * 3000


def test_a_set_written_from_a_counter_log_passes_its_samples_and_reads_the_counters(tmp_path: Path):
    """`patterns new` keeps a sample line as printed ("12: loss=..."); a sample is checked without its file, so a
    sample that only reads with its leading counter kept is read so (the log it came from keeps it)."""
    from logparse import api
    from tests.conftest import run_apart

    log = tmp_path / "cartpole.log"
    log.write_text("\n".join(_lapan(30)) + "\n")
    out = tmp_path / "sets" / "mine.toml"
    assert run_apart(["patterns", "new", str(log), "-o", str(out)]).exit_code == 0
    assert run_apart(["patterns", "test", str(out.parent)]).exit_code == 0
    mine = api.resolve(str(log), patterns=(str(out.parent),), format="mine")
    assert list(mine.steps["step"]) == list(range(30))
