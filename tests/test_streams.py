"""Two streams in one file are not a restart: stdout block-buffered (a file or a pipe), stderr not.

A program's stdout reaches a file or a pipe in blocks (Python's 8 KiB buffer, and whenever tqdm opens a bar), its
stderr as it is written. torchtune prints its `Step N | ...` lines on stdout and its bar on stderr; a loop prints
its step line beside a tqdm bar. Read down the file, the step counter goes back at every block, and the job never
restarted. The truth here is the framework's own record (tests/data/captures/torchtune/: the JSONL of every payload
torchtune's StdoutLogger printed, see its README; tests/data/captures/hf_piped/: the Trainer's trainer_state.json)
or, for the logs built here, the loop's values written below.
"""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest

from logparse import api
from logparse.report.outputs import text_summary
from tests.conftest import ROOT

TORCHTUNE = ROOT / "tests" / "data" / "captures" / "torchtune"


def _records(name: str) -> list[dict]:
    return [json.loads(line) for line in (TORCHTUNE / f"{name}.metrics.jsonl").read_text().splitlines()]


def _no_restart_in_ledger(summary: dict) -> None:
    goodput = summary["goodput"]
    assert goodput["badput"]["restart_recovery"] == 0 and goodput["badput"]["wasted_progress"] == 0
    assert "restart" not in goodput["unknown"] and "wasted_progress" not in goodput["unknown"]
    assert len(goodput["attempts"]) == 1


# ------------------------------------------------------------------------------------------------
# real captures: torchtune 0.6.1 through `2>&1 | tee`


@pytest.mark.parametrize("name", ["torchtune_piped_cpu", "torchtune_piped_long_cpu"])
def test_torchtune_through_a_pipe_never_restarted(name):
    records = _records(name)
    a = api.analyze(str(TORCHTUNE / f"{name}.log"))
    s = a.summary
    assert s["restarts"] == []
    assert [seg["kind"] for seg in s["segments"]] == ["start"]
    _no_restart_in_ledger(s)
    assert "; 0 restarts" in text_summary(a)
    steps = a.steps
    assert list(steps["step"]) == [r["step"] for r in records]  # every step once, in order
    assert list(steps["loss"]) == [r["loss"] for r in records]  # the record's loss, exactly as printed


def test_torchtune_through_a_pipe_keeps_every_value_the_file_holds():
    """The 8 KiB blocks cut two Step lines (README): step 64 loses its grad_norm and step 181 its tokens/s and
    grad_norm to the next block, where they stand alone; every other value is the record's."""
    records = _records("torchtune_piped_long_cpu")
    steps = api.resolve(TORCHTUNE / "torchtune_piped_long_cpu.log").steps.set_index("step")
    cut = {(64, "grad_norm"), (181, "tokens_per_second_per_gpu"), (181, "grad_norm")}
    columns = {"lr": "lr", "grad_norm": "grad_norm", "tokens_per_second_per_gpu": "tokens_per_s_per_gpu"}
    for r in records:
        for key, column in columns.items():
            got = steps.at[r["step"], column]
            if (r["step"], key) in cut:
                assert math.isnan(got)
            else:
                assert got == r[key], (r["step"], key)


def test_torchtune_resumed_through_a_pipe_is_one_restart():
    """A real resume in the same two streams: failed after step 35, resumed from the end of epoch 2 (step 28),
    steps 29-42 redone with other losses. One restart; the later attempt's values win for 29-42."""
    records = _records("torchtune_piped_resumed_cpu")
    first, second = records[:35], records[35:]
    assert [r["step"] for r in first] == list(range(1, 36))
    assert [r["step"] for r in second] == list(range(29, 43))
    a = api.analyze(str(TORCHTUNE / "torchtune_piped_resumed_cpu.log"))
    (r,) = a.summary["restarts"]
    assert (r["at_step"], r["resumed_from"], r["redone_steps"]) == (35, 28, 7)
    assert r["cause"].startswith("Traceback")
    assert [seg["kind"] for seg in a.summary["segments"]] == ["start", "restart"]
    want = {rec["step"]: rec["loss"] for rec in first[:28] + second}
    assert list(a.steps["step"]) == list(range(1, 43))
    assert list(a.steps["loss"]) == [want[k] for k in range(1, 43)]


def test_a_block_that_cuts_a_step_line_after_its_number_keeps_the_step_from_the_bar(tmp_path):
    """torchtune's StdoutLogger prints a Step line in pieces (print(f"Step {step} | ", end=""), then each
    "key:value " and the newline: torchtune/training/metric_logging.py log_dict), so a full buffer can leave with
    "Step 12 | " alone; the rest of that line comes with the next block. The bar's redraw of step 12 (stderr) is
    the one the next block's first line is glued to. Step 12 is then known from its bar alone: it stays a step."""
    n, total = 20, 20
    # full floats, as v0.6.1 prints them in both the bar and the line
    losses = {k: 5.5 - 0.05 * k + 0.001 * (k % 3) for k in range(1, n + 1)}

    def writes(k: int) -> list[str]:
        return [
            f"Step {k} | ",
            f"loss:{losses[k]} ",
            f"lr:{0.002 - 0.0001 * k} ",
            "tokens_per_second_per_gpu:1234.5 ",
            "\n",
        ]

    head = "".join(w for k in range(1, 12) for w in writes(k)) + "Step 12 | "
    block = len(head)  # the buffer fills with "Step 12 | ": the next write leaves it behind
    out, held = [], ""
    for k in range(1, n + 1):
        out.append(
            f"\r1|{k}|Loss: {losses[k]}: {100 * k // total:3d}%|#         | {k}/{total} [00:00<00:00, 50.00it/s]"
        )
        for w in writes(k):
            if len(held) + len(w) > block:
                out.append(held)
                held = ""
            held += w
    out.append(held)
    text = "".join(out)
    assert "it/s]Step 1 | " in text and "Step 12 | \r1|13|" in text  # the shape described above
    path = tmp_path / "torchtune.log"
    path.write_text(text)
    a = api.analyze(str(path), format="torchtune")
    assert a.summary["restarts"] == []
    assert list(a.steps["step"]) == list(range(1, n + 1))
    assert list(a.steps["loss"]) == [losses[k] for k in range(1, n + 1)]
    assert math.isnan(a.steps.set_index("step").at[12, "lr"])  # its line's values left with the next block


def test_hf_trainer_through_a_pipe_numbers_its_blocked_dicts_without_a_restart():
    """The Trainer's loss dicts (stdout) reach the file in pairs when the evaluation bar opens, behind the training
    bar (stderr): every logged step of trainer_state.json once, with its loss as printed (4 significant digits),
    and no restart."""
    folder = ROOT / "tests" / "data" / "captures" / "hf_piped"
    state = json.loads((folder / "hf_ls5_piped_cpu.trainer_state.json").read_text())
    logged = [(h["step"], h["loss"]) for h in state["log_history"] if "loss" in h]
    a = api.analyze(str(folder / "hf_ls5_piped_cpu.log"))
    assert a.summary["restarts"] == [] and [seg["kind"] for seg in a.summary["segments"]] == ["start"]
    _no_restart_in_ledger(a.summary)
    dicts = a.steps.dropna(subset=["loss"])
    assert list(dicts["step"]) == [step for step, _ in logged]
    assert list(dicts["loss"]) == [float(f"{loss:.4g}") for _, loss in logged]


# ------------------------------------------------------------------------------------------------
# built here: a loop's tqdm bar (stderr, live) and its logging to stdout (in blocks), read by the generic set

N = 120
T0 = pd.Timestamp("2025-03-01 12:00:00")


def _loss(step: int, attempt: int = 0) -> float:
    # the loop's loss; a resumed attempt sees other batches, so its redone steps have other losses
    return 3.0 * math.exp(-step / 90) + 0.1 * math.sin(step + 7 * attempt)


def _bar(step: int, attempt: int = 0) -> str:
    # tqdm's format_meter with set_postfix(loss=..., lr=...): numbers with 3 significant digits
    return f"\r{100 * step // N:3d}%|#         | {step}/{N} [00:{step // 5:02d}<00:10,  5.00it/s, loss={_loss(step, attempt):.3g}, lr=0.001]"


def _record(step: int, attempt: int = 0) -> str:
    # logging.basicConfig(format="%(asctime)s - %(levelname)s - %(name)s - %(message)s", stream=sys.stdout), as
    # the Hugging Face examples set it up (their handlers=[logging.StreamHandler(sys.stdout)])
    stamp = (T0 + pd.Timedelta(seconds=0.2 * step + 600 * attempt)).strftime("%Y-%m-%d %H:%M:%S,%f")[:-3]
    return f"{stamp} - INFO - __main__ - step {step}/{N} | loss {_loss(step, attempt):.5f} | 200.0 ms/step"


def _run(steps: range, out: list[str], block: int, attempt: int = 0, exits: bool = True) -> None:
    """One attempt: each step redraws the bar (stderr: into `out` at once) and writes its record (stdout: the
    text and its newline, two writes, held until the next write would overflow `block` characters, then the
    held writes leave together, as io.BufferedWriter does). `exits`: the interpreter flushes what is held at
    exit; a killed process loses it."""
    held = ""
    for step in steps:
        out.append(_bar(step, attempt))
        for write in (_record(step, attempt), "\n"):
            if len(held) + len(write) > block:
                out.append(held)
                held = ""
            held += write
    if exits:
        out.append(held)


def test_a_loop_logging_beside_its_bar_through_a_pipe_never_restarted(tmp_path):
    out: list[str] = []
    _run(range(1, N + 1), out, block=1024)
    out.append("\n")
    path = tmp_path / "loop.log"
    path.write_text("".join(out))
    a = api.analyze(str(path))
    assert a.run.parsed.format == "generic"
    s = a.summary
    assert s["restarts"] == [] and [seg["kind"] for seg in s["segments"]] == ["start"]
    _no_restart_in_ledger(s)
    assert s["goodput"]["clock"] == "timestamps"
    # the stamps run from 0.2 s to 24.0 s, and step 1 took its 0.2 s before its stamp
    assert s["goodput"]["wall_s"] == pytest.approx(0.2 * N)
    steps = a.steps
    assert list(steps["step"]) == list(range(1, N + 1))
    # each step's loss is the loop's, to the precision one of its two lines printed it
    assert np.allclose(steps["loss"], [_loss(k) for k in range(1, N + 1)], atol=0.005, rtol=0)


def test_a_loop_resumed_through_a_pipe_is_one_restart(tmp_path):
    """Attempt 0 logs 1..70 and fails (what stdout held flushed at exit); attempt 1 resumes from 50 and redoes
    51..70 with other losses, then goes on to 120, both in the same two streams."""
    out: list[str] = []
    _run(range(1, 71), out, block=1024, attempt=0)
    out.append("\nTraceback (most recent call last):\nRuntimeError: the node went away\n")
    _run(range(51, N + 1), out, block=1024, attempt=1)
    out.append("\n")
    path = tmp_path / "resumed.log"
    path.write_text("".join(out))
    a = api.analyze(str(path))
    (r,) = a.summary["restarts"]
    assert (r["at_step"], r["resumed_from"], r["redone_steps"]) == (70, 50, 20)
    assert [seg["kind"] for seg in a.summary["segments"]] == ["start", "restart"]
    want = [_loss(k, 0) for k in range(1, 51)] + [_loss(k, 1) for k in range(51, N + 1)]
    assert list(a.steps["step"]) == list(range(1, N + 1))
    assert np.allclose(a.steps["loss"], want, atol=0.005, rtol=0)
    assert a.summary["goodput"]["badput"]["wasted_progress"] > 0  # the 20 redone steps' time


def test_a_resume_seen_only_in_the_values_it_redoes_is_a_restart(tmp_path):
    """Attempt 0 (bar and records) is killed after step 40, what stdout held lost; attempt 1 resumes from the last
    step whose record reached the file, without a bar, and logs on to 60. The record's own counter never goes
    back, but the steps it redoes differ from what the bar gave them, where the two agreed on every step before."""
    out: list[str] = []
    _run(range(1, 41), out, block=1024, attempt=0, exits=False)
    written = [int(k) for k in re.findall(r"step (\d+)/", "".join(out))]
    last = max(written)  # the last record the kill left in the file
    assert written == list(range(1, last + 1)) and last < 40
    out.append("\nKilled\n")
    out.extend(_record(k, 1) + "\n" for k in range(last + 1, 61))
    path = tmp_path / "killed.log"
    path.write_text("".join(out))
    a = api.analyze(str(path))
    (r,) = a.summary["restarts"]
    assert (r["at_step"], r["resumed_from"]) == (40, last)
    want = [_loss(k, 0) for k in range(1, last + 1)] + [_loss(k, 1) for k in range(last + 1, 61)]
    assert list(a.steps["step"]) == list(range(1, 61))
    assert np.allclose(a.steps["loss"], want, atol=0.005, rtol=0)


# ------------------------------------------------------------------------------------------------
# the rule itself, on hand-made rows


def test_boundaries_judge_each_kind_of_line_by_its_own_counter():
    """segments.boundaries with a `pattern` column: the counter goes back on lines 13, 19 and 20. Line 13: the
    line kind's first row (1, after bar 1-3): none. Line 19: line 4 after bar 6, the line kind continuing its own
    1-3, with bar 4's loss: none. Line 20: the bar itself goes back from 6 to 2: a restart."""
    from logparse.steps.segments import boundaries

    kinds = ["bar", "bar", "bar", "line", "line", "line", "bar", "bar", "bar", "line", "bar", "line"]
    steps = [1, 2, 3, 1, 2, 3, 4, 5, 6, 4, 2, 5]
    loss = [3.0, 2.9, 2.8, 3.0, 2.9, 2.8, 2.7, 2.6, 2.5, 2.7, 2.95, 2.6]
    rows = pd.DataFrame({"step": steps, "line": range(10, 22), "pattern": kinds, "loss": loss})
    empty = pd.DataFrame({"event": [], "line": []})
    assert boundaries(rows, empty) == [20]
    # one kind of line: every step back is a cut, as it always was
    assert boundaries(rows.drop(columns="pattern"), empty) == [13, 19, 20]
