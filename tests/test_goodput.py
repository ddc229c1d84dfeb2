"""The goodput ledger against a job whose every duration the test chose.

The log is a Megatron-LM console log written line by line with the framework's own format strings
(training.py training_log's iteration line, print_datetime's markers, the init time, core/timers.py's
'(min, max) time across ranks (ms):' block for save-checkpoint / load-checkpoint / evaluate, checkpointing.py's
save and load lines, torch's NCCL watchdog line with its c10 prefix). The truth is the arithmetic of the
durations below, written out by hand in each test, never logparse's.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from datetime import datetime, timedelta, timezone
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from logparse import api
from logparse.phases.goodput import text_stamp
from tests import synth
from tests.conftest import ROOT

T0 = datetime(2025, 3, 1, 11, 0, 0, tzinfo=timezone.utc)
REF = 10.0  # seconds a step takes once warm
GBS, SEQ = 8, 1024


def _iteration(step: int, total: int, ms: float, loss: float) -> str:
    return (
        f" iteration {step:8d}/{total:8d} | consumed samples: {step * GBS:12d} | "
        f"elapsed time per iteration (ms): {ms:.1f} | learning rate: {3e-4:.6E} | "
        f"global batch size: {GBS:5d} | lm loss: {loss:.6E} | loss scale: {1.0:.1f} | grad norm: {1.25:.3f} | "
        f"number of skipped iterations: {0:3d} | number of nan iterations: {0:3d} |"
    )


def _timer(name: str, seconds: float) -> list[str]:
    ms = seconds * 1000.0
    return [
        "(min, max) time across ranks (ms):",
        "    {}: ({:.2f}, {:.2f})".format((name + " ").ljust(48, "."), ms * 0.98, ms),
    ]


class Job:
    """A clock and the lines printed so far; `stamps` False writes the same job without any timestamp."""

    def __init__(self, stamps: bool) -> None:
        self.now = T0
        self.stamps = stamps
        self.lines: list[str] = []

    def wait(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)

    def datetime(self, what: str) -> None:
        if self.stamps:
            self.lines.append(f"[{what}] datetime: {self.now:%Y-%m-%d %H:%M:%S} ")

    def header(self, init_s: float, build_s: float, load: tuple[int, float] | None) -> None:
        self.lines.append(
            "using world size: 8, data-parallel size: 8, context-parallel size: 1, tensor-model-parallel size: 1, pipeline-model-parallel size: 1"
        )
        self.lines += [
            "------------------------ arguments ------------------------",
            "  global_batch_size ............................... 8",
            "  seq_length ...................................... 1024",
            "  num_layers ...................................... 12",
            "  hidden_size ..................................... 768",
            "  num_attention_heads ............................. 12",
            "  log_interval .................................... 1",
            "  train_iters ..................................... 40",
            "-------------------- end of arguments ---------------------",
        ]
        self.wait(init_s)
        self.lines.append(f"time to initialize megatron (seconds): {init_s:.3f}")
        self.datetime("after megatron is initialized")
        if load is not None:
            step, seconds = load
            self.lines.append(f" loading distributed checkpoint from /ckpt at iteration {step}")
            self.wait(seconds)
            self.lines.append(
                f"  successfully loaded checkpoint from /ckpt [ t 1/1, p 1/1 ] at iteration {step}"
            )
            self.lines += _timer("load-checkpoint", seconds)
        self.wait(build_s)
        self.datetime("after model, optimizer, and learning rate scheduler are built")
        self.datetime("before the start of training step")

    def step(self, step: int, seconds: float) -> None:
        self.wait(seconds)
        stamp = f" [{self.now:%Y-%m-%d %H:%M:%S}]" if self.stamps else ""
        self.lines.append(stamp + _iteration(step, 40, seconds * 1000.0, 10.0 - step * 0.1))

    def save(self, step: int, seconds: float, in_next_step: bool = False) -> None:
        self.lines.append(f"saving checkpoint at iteration {step:7d} to /ckpt in torch_dist format")
        if not in_next_step:  # Megatron-LM since 2024-07 stops its interval timer for the save
            self.wait(seconds)
        self.lines.append(
            f"  successfully saved checkpoint from iteration {step:7d} to /ckpt [ t 1/1, p 1/1 ]"
        )
        self.lines += _timer("save-checkpoint", seconds)

    def evaluate(self, step: int, seconds: float) -> None:
        self.wait(seconds)
        self.lines += _timer("evaluate", seconds)
        self.lines.append("-" * 100)
        self.lines.append(
            f" validation loss at iteration {step} | lm loss value: {3.1:.6E} | lm loss PPL: {22.2:.6E} | "
        )
        self.lines.append("-" * 100)

    def hang(self, seconds: float) -> None:
        self.wait(seconds)
        ms = int(seconds * 1000)
        prefix = (
            f"[rank3]:[E{self.now.month * 100 + self.now.day} {self.now:%H:%M:%S}.288027913 ProcessGroupNCCL.cpp:616]"
            if self.stamps
            else "[E ProcessGroupNCCL.cpp:737]"
        )
        self.lines.append(
            f"{prefix} [Rank 3] Watchdog caught collective operation timeout: WorkNCCL(SeqNum=808, OpType=ALLREDUCE, "
            f"NumelIn=9801523, NumelOut=9801523, Timeout(ms)={ms}) ran for {ms} milliseconds before timing out."
        )
        self.lines.append("Traceback (most recent call last):")
        self.lines.append("torch.distributed.DistBackendError: NCCL communicator was aborted on rank 3.")


# The job, in the order it ran (seconds)
INIT_1, BUILD_1 = 30.0, 30.0  # attempt 1: process start -> first step's start = 60
WARM_1 = [40.0, 20.0, 15.0]  # steps 1-3, then REF
SAVE = 25.0  # every save (steps 10, 20, 30, 40), printed by the save-checkpoint timer
EVAL = 12.0  # after step 15
HANG = 600.0  # after step 27: the watchdog fires
REQUEUE = 900.0  # the scheduler's gap before attempt 2's process starts
INIT_2, LOAD_2, BUILD_2 = 20.0, 15.0, 5.0  # attempt 2, resumed from the step-20 checkpoint
WARM_2 = [30.0, 15.0]  # steps 21-22
SLOW = (35, 25.0)  # step 35 is slow, with no event


def job(stamps: bool, save_in_step: bool = False) -> str:
    """The job's log; with `save_in_step`, as Megatron-LM before 2024-07 times it: the saves at steps 10, 20
    and 30 are inside the next iteration's elapsed time (its line comes that much later, no gap before it)."""
    j = Job(stamps)
    j.header(INIT_1, BUILD_1, None)
    held = 0.0  # a save's seconds the next step's time holds
    for step in range(1, 28):
        j.step(step, (WARM_1[step - 1] if step <= len(WARM_1) else REF) + held)
        held = 0.0
        if step in (10, 20):
            j.save(step, SAVE, save_in_step)
            held = SAVE if save_in_step else 0.0
        if step == 15:
            j.evaluate(step, EVAL)
    j.hang(HANG)
    j.wait(REQUEUE)
    j.header(INIT_2, BUILD_2, (20, LOAD_2))
    for step in range(21, 41):
        k = step - 21
        j.step(step, (WARM_2[k] if k < len(WARM_2) else (SLOW[1] if step == SLOW[0] else REF)) + held)
        held = 0.0
        if step in (30, 40):
            j.save(step, SAVE, save_in_step and step == 30)
            held = SAVE if save_in_step and step == 30 else 0.0
    j.datetime("after training is done")
    return "\n".join(j.lines) + "\n"


# the ledger by hand
PRODUCTIVE = 40 * REF  # the 40 steps that count, at their reference time
STARTUP = (INIT_1 + BUILD_1) + (INIT_2 + BUILD_2)  # attempt 2's checkpoint load is checkpoint time
CHECKPOINT = 4 * SAVE + LOAD_2
WARMUP = sum(w - REF for w in WARM_1) + sum(w - REF for w in WARM_2)
SLOW_STEPS = SLOW[1] - REF
WASTED = 7 * REF  # steps 21-27 of attempt 1, redone by attempt 2
WALL = PRODUCTIVE + STARTUP + CHECKPOINT + EVAL + WARMUP + SLOW_STEPS + WASTED + HANG + REQUEUE


def _ledger(tmp_path: Path, stamps: bool) -> dict:
    log = tmp_path / ("job.log" if stamps else "job_nostamps.log")
    log.write_text(job(stamps))
    return api.analyze(log).summary["goodput"]


def test_the_arithmetic_of_the_job():
    # the test's own bookkeeping: the clock the generator advanced is the sum of the parts
    assert WALL == 400 + 85 + 115 + 12 + 70 + 15 + 70 + 600 + 900 == 2267


def test_a_two_attempt_job_with_timestamps(tmp_path):
    g = _ledger(tmp_path, stamps=True)
    assert g["clock"] == "timestamps"
    assert g["wall_s"] == pytest.approx(WALL, abs=1.0)
    assert g["productive_s"] == pytest.approx(PRODUCTIVE, rel=0.02)
    b = g["badput"]
    assert b["startup"] == pytest.approx(STARTUP, abs=1.0)
    assert b["checkpoint"] == pytest.approx(CHECKPOINT, abs=1.0)
    assert b["eval"] == pytest.approx(EVAL, abs=1.0)
    assert b["warmup"] == pytest.approx(WARMUP, abs=1.0)
    assert b["slow_steps"] == pytest.approx(SLOW_STEPS, abs=1.0)
    assert b["wasted_progress"] == pytest.approx(WASTED, abs=1.0)
    assert b["hang"] == pytest.approx(HANG, abs=1.0)
    assert b["restart_recovery"] == pytest.approx(REQUEUE, abs=1.0)
    assert b["other"] == pytest.approx(0.0, abs=1.0)
    assert g["goodput"] == pytest.approx(PRODUCTIVE / WALL, abs=0.005)
    assert g["productive_s"] + sum(b.values()) == pytest.approx(g["wall_s"], abs=0.01)


def test_the_ledgers_events_say_where_each_part_came_from(tmp_path):
    g = _ledger(tmp_path, stamps=True)
    by = {}
    for e in g["events"]:
        by.setdefault(e["category"], []).append(e)
    assert len(by["hang"]) == 1 and "Watchdog" in by["hang"][0]["detail"]
    assert len(by["restart_recovery"]) == 1
    assert sorted(e["step"] for e in by["checkpoint"] if e["step"] is not None) == [10, 20, 30, 40]
    assert [e["step"] for e in by["slow_steps"]] == [35]
    assert [e["step"] for e in by["wasted_progress"]] == [21]
    # per attempt, from each attempt's own steps: 20 steps each, at 8 x 1024 tokens a step
    a1, a2 = g["attempts"]
    assert (a1["first_step"], a1["last_step"], a2["first_step"], a2["last_step"]) == (1, 20, 21, 40)
    assert a1["tokens_per_s"] == pytest.approx(20 * GBS * SEQ / (sum(WARM_1) + 17 * REF), abs=0.1)


def test_the_same_job_without_timestamps(tmp_path):
    g = _ledger(tmp_path, stamps=False)
    assert g["clock"] == "step_times"
    assert g["wall_s"] is None and g["goodput"] is None
    b = g["badput"]
    # what the step times and the printed durations show
    assert g["productive_s"] == pytest.approx(PRODUCTIVE, rel=0.02)
    assert b["warmup"] == pytest.approx(WARMUP, abs=1.0)
    assert b["slow_steps"] == pytest.approx(SLOW_STEPS, abs=1.0)
    assert b["wasted_progress"] == pytest.approx(WASTED, abs=1.0)
    assert b["checkpoint"] == pytest.approx(CHECKPOINT, abs=1.0)  # every save and load has its timer
    assert b["eval"] == pytest.approx(EVAL, abs=1.0)  # the evaluate timer
    assert b["hang"] == pytest.approx(HANG, abs=1.0)  # the watchdog's 'ran for'
    # what only a clock shows
    for unknown in ("startup", "restart_recovery", "other"):
        assert b[unknown] is None, unknown
        assert "without timestamps" in g["unknown"][unknown]


def test_an_eval_without_a_printed_duration_is_unknown_without_a_clock(tmp_path):
    text = "\n".join(x for x in job(False).splitlines() if "evaluate ...." not in x) + "\n"
    log = tmp_path / "noeval.log"
    log.write_text(text)
    g = api.analyze(log).summary["goodput"]
    assert g["badput"]["eval"] is None
    assert g["unknown"]["eval"] == "eval: unknown without timestamps"
    # with a clock the gap shows it
    text = "\n".join(x for x in job(True).splitlines() if "evaluate ...." not in x) + "\n"
    log.write_text(text)
    assert api.analyze(log).summary["goodput"]["badput"]["eval"] == pytest.approx(EVAL, abs=1.0)


@pytest.mark.parametrize("name", ["megatron_llama2-7b_8xh100", "megatron_resumed_8xh100"])
def test_the_readme_samples_ledgers_add_up(name):
    log = Path(__file__).resolve().parent.parent / "sample_logs" / f"{name}.log"
    g = api.analyze(log, gpus=8, hw="h100").summary["goodput"]
    assert g["clock"] == "timestamps"
    assert g["productive_s"] + sum(g["badput"].values()) == pytest.approx(g["wall_s"], abs=0.01)
    # the wall time is the first line's stamp to the last: [before the start of training step] to
    # [after training is done], read off the file by hand
    text = log.read_text()
    first = text.split("[before the start of training step] datetime: ")[1][:19]
    last = text.split("[after training is done] datetime: ")[1][:19]
    span = (datetime.fromisoformat(last) - datetime.fromisoformat(first)).total_seconds()
    assert g["wall_s"] == pytest.approx(span, abs=1.0)


def test_the_resumed_sample_counts_the_redone_steps_and_the_requeue():
    log = Path(__file__).resolve().parent.parent / "sample_logs" / "megatron_resumed_8xh100.log"
    truth = json.loads(log.with_suffix(".truth.json").read_text())
    g = api.analyze(log, gpus=8, hw="h100").summary["goodput"]
    # the generator (tests/synth megatron_log) waits restart_gap_s = 600 s between the attempts and redoes
    # steps 301-340 (40 steps at about the stable step time)
    assert g["badput"]["restart_recovery"] == pytest.approx(600.0, abs=1.0)
    redone = truth["restart"]["at_step"] - truth["restart"]["resumed_from"]
    assert g["badput"]["wasted_progress"] == pytest.approx(redone * truth["step_time_s"], rel=0.05)
    # each attempt's MFU from its own tokens/s: the generator's FLOPs per token over 8 x H100's dense 989
    for a in g["attempts"]:
        assert a["mfu"] == pytest.approx(
            a["tokens_per_s"] * truth["flops_per_token"] / (989e12 * 8), rel=0.01
        )


@pytest.mark.parametrize(
    "text, expected",
    [
        # glog (MMDD) and torch's c10 logger (month*100 + day, nanoseconds not kept)
        ("E0301 11:37:01.288027 12345 file.cc:12] boom", "2025-03-01T11:37:01.288027"),
        ("[E301 11:37:01.288027913 ProcessGroupNCCL.cpp:616] [Rank 3] Watchdog", "2025-03-01T11:37:01"),
        ("[E1206 18:44:12.715298746 ProcessGroupNCCL.cpp:607] [Rank 0]", "2025-12-06T18:44:12"),
        ("[2025-03-01 11:37:01,250] INFO saving", "2025-03-01T11:37:01.250"),
    ],
)
def test_stamps_in_event_lines_take_the_logs_year(text, expected):
    want = datetime.fromisoformat(expected).replace(tzinfo=timezone.utc).timestamp()
    assert text_stamp(text, 2025) == pytest.approx(want, abs=1e-6)


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")


@pytest.mark.skipif(CHROMIUM is None, reason="chromium is not installed")
def test_index_html_shows_goodput_and_the_folder_total_in_chromium(tmp_path):
    runs = tmp_path / "runs"
    runs.mkdir()
    (runs / "job.log").write_text(job(True))
    (runs / "job_nostamps.log").write_text(job(False))
    out = tmp_path / "out"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "logparse",
            "batch",
            str(runs),
            "--out",
            str(out),
            "--gpus",
            "8",
            "--gpu-hour-cost",
            "2.5",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    index = pd.read_csv(out / "index.csv").set_index("run")
    assert index.at["job", "goodput"] == pytest.approx(PRODUCTIVE / WALL, abs=0.005)
    assert index.at["job", "gpu_hours"] == pytest.approx(WALL * 8 / 3600, abs=0.01)
    assert index.at["job", "gpu_hours_restart_recovery"] == pytest.approx(REQUEUE * 8 / 3600, abs=0.01)
    assert index.at["job", "cost"] == pytest.approx(WALL * 8 / 3600 * 2.5, abs=0.05)
    assert pd.isna(index.at["job_nostamps", "goodput"]) and pd.isna(index.at["job_nostamps", "gpu_hours"])

    url = (out / "index.html").as_uri() + "?sort=goodput&desc=1"
    proc = subprocess.run(
        [
            CHROMIUM,
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--virtual-time-budget=2000",
            "--dump-dom",
            url,
        ],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    dom = proc.stdout
    assert 'data-sort="goodput"' in dom  # the page's script sorted by the new column
    cells = re.findall(
        r'<tr class="ok" data-run="([^"]+)">.*?<td class="num goodput" data-value="([^"]*)">(.*?)</td>',
        dom,
        re.S,
    )
    assert [c[0] for c in cells] == ["job", "job_nostamps"]  # the run without a goodput sorts last
    assert re.sub("<[^>]+>", "", cells[0][2]) == f"{PRODUCTIVE / WALL:.0%}"
    total = re.search(r'id="folder-total">([^<]*)<', dom).group(1)
    hours = WALL * 8 / 3600
    lost = (WALL - PRODUCTIVE) * 8 / 3600
    assert (
        f"used {hours:,.0f} GPU-hours; {lost:,.0f} were not training: {REQUEUE / (WALL - PRODUCTIVE):.0%} restart"
        in total
    )
    assert "1 more without GPU-hours" in total


def test_a_save_inside_a_steps_time_is_checkpoint_time_and_its_dips_one_pattern():
    """Megatron-LM before 2024-07 did not stop its interval timer for a save: the step after each save is
    slow. tests/data/goodput/megatron_save_in_step_time.log is tests/synth's Megatron log with a save every
    100 steps and the step after each at 0.3 of full speed (synth.Spec(steps=400, save_interval=100, seed=21,
    dips at 101, 201, 301, factor 0.3)): each costs (1/0.3 - 1) stable step times, and it is checkpoint time,
    not a slow step; the three dips are one pattern, every 100 steps, at the checkpoint interval."""
    log = Path(__file__).resolve().parent / "data" / "goodput" / "megatron_save_in_step_time.log"
    g = api.analyze(log, gpus=8, hw="h100").summary["goodput"]
    stable_step_s = 6.786486220368587  # the generator's stable step time (its truth for this spec)
    assert g["badput"]["checkpoint"] == pytest.approx(3 * (1 / 0.3 - 1) * stable_step_s, rel=0.05)
    assert g["badput"]["slow_steps"] == pytest.approx(0.0, abs=2 * stable_step_s)
    (periodic,) = g["periodic_dips"]
    assert (periodic["every_steps"], periodic["count"], periodic["cause"]) == (
        100,
        3,
        "at the checkpoint interval",
    )
    assert periodic["depth"] == pytest.approx(0.7, abs=0.03)


def test_a_resumed_hf_bar_does_not_time_the_steps_with_the_skipped_ones():
    """sample_logs/hf_trainer_resumed_cpu.log is a real CPU run of HF Trainer (transformers 5.24,
    capture_hf_resumed.py): stopped after step 45, resumed from checkpoint-40 in a second process appended to
    the same log. The second bar jumps 0 -> 41/60 in one update and shows 200.35 it/s for the rest of the
    session, a rate that counts the 40 skipped steps (tqdm smooths over redraws). Those rates are not the
    steps' times: the resumed attempt's rows have none (said with warning code bar_jump), and the first
    attempt's step time agrees with the framework's own record: the second session's trainer_state.json
    gives train_runtime for its 20 steps (eval and save included, so a little above the steps alone)."""
    root = Path(__file__).resolve().parent.parent / "sample_logs"
    a = api.analyze(root / "hf_trainer_resumed_cpu.log")
    state = json.loads((root / "hf_trainer_resumed_cpu.trainer_state.json").read_text())
    runtime = next(h["train_runtime"] for h in state["log_history"] if "train_runtime" in h)
    per_step = runtime / 20
    rows = a.run.steps
    assert rows.loc[rows["segment"] == 1, "step_time_s"].isna().all()
    assert "bar_jump" in {w.code for w in a.run.warnings}
    st = a.summary["stable"]
    assert st["end_step"] <= 40
    assert st["step_time_s"] == pytest.approx(per_step, rel=0.06)
    attempts = a.summary["goodput"]["attempts"]
    assert attempts[0]["step_seconds"] == pytest.approx(40 * per_step, rel=0.06)
    assert attempts[1]["step_seconds"] is None


def test_every_ranks_watchdog_line_is_one_hang(tmp_path):
    """Each of 8 ranks prints the watchdog line with its own 'ran for': the hang is the longest, once."""
    lines = job(False).splitlines()
    at = next(i for i, x in enumerate(lines) if "Watchdog caught" in x)
    ranks = [
        lines[at]
        .replace("[Rank 3]", f"[Rank {r}]")
        .replace(f"ran for {int(HANG * 1000)}", f"ran for {int(HANG * 1000) - r}")
        for r in range(8)
    ]
    log = tmp_path / "ranks.log"
    log.write_text("\n".join(lines[:at] + ranks + lines[at + 1 :]) + "\n")
    assert api.analyze(log).summary["goodput"]["badput"]["hang"] == pytest.approx(HANG, abs=0.01)


@pytest.mark.parametrize("stamps", [True, False])
def test_a_save_held_in_the_next_steps_time_is_checkpoint_time_once(tmp_path, stamps):
    """The same job timed as Megatron-LM before 2024-07 times it: the saves at steps 10, 20 and 30 inside the
    next iteration's elapsed time. Their printed save-checkpoint timers say how much of that step was the
    save: checkpoint time, counted once, and not a slow step; productive and the other parts unchanged."""
    log = tmp_path / "held.log"
    log.write_text(job(stamps, save_in_step=True))
    g = api.analyze(log).summary["goodput"]
    b = g["badput"]
    assert b["checkpoint"] == pytest.approx(CHECKPOINT, abs=1.0)
    assert b["slow_steps"] == pytest.approx(SLOW_STEPS, abs=1.0)
    assert b["warmup"] == pytest.approx(WARMUP, abs=1.0)
    assert g["productive_s"] == pytest.approx(PRODUCTIVE, rel=0.02)
    if stamps:
        assert g["wall_s"] == pytest.approx(WALL, abs=1.0)
        assert b["other"] == pytest.approx(0.0, abs=1.0)


def test_a_log_that_saves_every_few_steps_keeps_its_ledger_short_and_exact(tmp_path):
    """A save every third step with its printed timer: hundreds of checkpoint entries fold into the 50
    largest and one that adds up the rest; the category's seconds are every save's (the timers' sum)."""
    text, _ = synth.megatron_log(synth.Spec(steps=900, seed=4, save_interval=3))
    out, saves = [], 0
    for line in text.splitlines():
        out.append(line)
        if line.startswith("  successfully saved checkpoint"):
            saves += 1
            out += [
                "(min, max) time across ranks (ms):",
                "    save-checkpoint ................................: (1990.00, 2000.00)",
            ]
    log = tmp_path / "saves.log"
    log.write_text("\n".join(out) + "\n")
    g = api.analyze(log, gpus=8, hw="h100").summary["goodput"]
    entries = [e for e in g["events"] if e["category"] == "checkpoint"]
    folded = [e for e in entries if "more checkpoints entries" in e["detail"]]
    assert len(entries) == 51 and len(folded) == 1
    assert folded[0]["seconds"] <= sum(
        e["seconds"] for e in entries
    )  # the rest, each smaller than the 50 listed
    assert sum(e["seconds"] for e in entries) == pytest.approx(g["badput"]["checkpoint"], abs=0.01)
    # the generator's saves take no time between steps; each one's printed 2 s sits inside the next step's
    # time, or before the first step of none: at most every save's 2 s
    assert g["badput"]["checkpoint"] <= 2.0 * saves + 0.01


@pytest.mark.parametrize("stamped", [True, False])
def test_a_job_that_ends_in_a_watchdog_hang_counts_the_hang(tmp_path, stamped):
    """The job's first attempt alone: it ends in the 600 s hang and the watchdog's traceback, never resumed.
    The hang is in the wall time whether the watchdog line carries a stamp (c10's prefix) or not (torch 1.x's
    `[E ProcessGroupNCCL.cpp:737]`, its duration only)."""
    lines = job(True).splitlines()
    end = next(i for i, x in enumerate(lines) if x.startswith("torch.distributed.DistBackendError"))
    lines = lines[: end + 1]
    if not stamped:
        lines = [
            re.sub(
                r"^\[rank3\]:\[E\d+ [\d:.]+ ProcessGroupNCCL.cpp:616\]",
                "[E ProcessGroupNCCL.cpp:737]",
                x,
            )
            for x in lines
        ]
        assert not any("E301" in x for x in lines)
    log = tmp_path / "hung.log"
    log.write_text("\n".join(lines) + "\n")
    g = api.analyze(log).summary["goodput"]
    steps = sum(WARM_1) + (27 - len(WARM_1)) * REF
    wall = INIT_1 + BUILD_1 + steps + 2 * SAVE + EVAL + HANG  # by hand: 60 + 315 + 50 + 12 + 600 = 1037
    assert wall == 1037
    assert g["wall_s"] == pytest.approx(wall, abs=1.0)
    assert g["badput"]["hang"] == pytest.approx(HANG, abs=1.0)
    assert g["badput"]["other"] == pytest.approx(0.0, abs=1.0)


@pytest.mark.parametrize("name", ["megatron_llama2-7b_8xh100.log", "megatron_resumed_8xh100.log"])
def test_gaps_given_at_once_are_given_as_one_by_one(name, tmp_path, monkeypatch):
    """The ledger's common case (a gap holding events of one kind with no printed duration, as a save every few
    steps makes) taken column-wise (_Lines.alone) gives the same ledger, entry for entry and in the same order,
    as handing every gap to _share_gaps; here on a sample and on the sample with a save after every step."""
    from logparse.phases import goodput

    text = (ROOT / "sample_logs" / name).read_text()
    saves = []
    for line in text.splitlines():
        saves.append(line)
        found = re.search(r"iteration\s+(\d+)/", line)
        if found:
            saves.append(
                f"saving checkpoint at iteration {int(found.group(1)):7d} to /ckpt in torch_dist format"
            )
    many = tmp_path / "saves.log"
    many.write_text("\n".join(saves) + "\n")
    for log in (ROOT / "sample_logs" / name, many):
        fast = api.analyze(log, gpus=8, hw="h100").ledger
        monkeypatch.setattr(
            goodput._Lines,
            "alone",
            lambda self, lo, hi: (np.zeros(len(lo), dtype=bool), [None] * len(lo), hi),
        )
        slow = api.analyze(log, gpus=8, hw="h100").ledger
        monkeypatch.undo()
        assert repr(fast) == repr(slow)
    assert sum(e.category == "checkpoint" for e in fast.events) > 10


def test_the_ledger_folds_pieces_entered_one_by_one_and_in_blocks_as_one_list_in_the_order_entered():
    """A log that saves every few steps enters its gaps in blocks (goodput._Block); the folded ledger is what
    a plain list of the same pieces, entered in the same order, folds to: per category in the order first
    entered, the EVENTS_KEPT largest (ties in the order entered), then one entry adding up the rest."""
    from logparse.phases import goodput as g

    rng = np.random.default_rng(7)
    book, plain = g._Book(), []

    def single(category, seconds, line):
        book.add(category, seconds, line, line + 1, None, f"{category} at {line}")
        if seconds > 0:
            plain.append((category, seconds, line, line + 1, None, f"{category} at {line}"))

    def block(categories, seconds, lines):
        steps = [int(x) for x in lines]
        texts = [f"  {c} block line {x}  " for c, x in zip(categories, lines, strict=True)]
        book.add_block(g._Block(categories, np.asarray(seconds), lines, lines + 2, steps, texts))
        for c, s, x, st, t in zip(categories, seconds, lines.tolist(), steps, texts, strict=True):
            if s > 0:
                plain.append((c, float(s), x, x + 2, st, t.strip()))

    line = 10
    for _ in range(6):
        single("other", 0.5, line)
        single("checkpoint", round(float(rng.uniform(0, 2)), 1), line + 1)
        n = int(rng.integers(0, 40))
        cats = [str(c) for c in rng.choice(["checkpoint", "eval"], n)]
        secs = np.round(rng.uniform(-0.2, 2, n), 1)  # ties, and some <= 0 that are not entered
        block(cats, secs, np.arange(line + 2, line + 2 + n, dtype=np.int64))
        line += 100

    # the rule, on the plain list (as the ledger folded before blocks existed)
    by = {}
    for p in plain:
        by.setdefault(p[0], []).append(p)
    want = []
    for category, entries in by.items():
        if len(entries) <= g.EVENTS_KEPT + 1:
            want += entries
            continue
        ranked = sorted(entries, key=lambda p: -p[1])
        rest = ranked[g.EVENTS_KEPT :]
        want += ranked[: g.EVENTS_KEPT]
        total = 0.0
        for p in rest:
            total += p[1]
        want.append((category, total, min(p[2] for p in rest), max(p[3] for p in rest), None, None))
    got = [(e.category, e.seconds, e.first_line, e.last_line, e.step, e.detail) for e in g._folded(book)]
    assert len(got) == len(want) and len(by["checkpoint"]) > g.EVENTS_KEPT + 1
    for a, b in zip(got, want, strict=True):
        assert a[:5] == b[:5] and (b[5] is None or a[5] == b[5])
    for category, entries in by.items():
        total = 0.0
        for p in entries:
            total += p[1]
        assert book.totals[category] == total


def test_a_log_whose_times_give_more_than_its_wall_time_knows_no_part_of_it(tmp_path):
    """The README's sample with its iteration lines shuffled (hostile input: every rank's counter and stamps go
    back and forth, hundreds of 'restarts'): the parts its times give come to more than the hour it ran (before,
    summary.json said goodput -109%, productive -3,948 s). No part is known, each says why, the ledger lists no
    entry, and the text does not blame missing step times."""
    import random

    lines = (ROOT / "sample_logs" / "megatron_llama2-7b_8xh100.log").read_text().splitlines(keepends=True)
    first = next(i for i, line in enumerate(lines) if " iteration " in line)
    body = lines[first:]
    random.Random(0).shuffle(body)
    log = tmp_path / "shuffled.log"
    log.write_text("".join(lines[:first] + body))
    analysis = api.analysis_of(str(log), {"gpus": 8, "hw": "h100"})
    g = analysis.summary["goodput"]
    assert g["clock"] == "timestamps" and g["wall_s"] == pytest.approx(3606.0)  # 15:52:43 to 16:52:49
    assert g["productive_s"] is None and g["goodput"] is None
    assert set(g["badput"].values()) == {None} and set(g["gpu_hours_badput"].values()) == {None}
    assert set(g["unknown"]) == set(g["badput"])
    assert all("add up to more than its wall time" in why for why in g["unknown"].values())
    assert g["events"] == []
    from logparse.report.ledger import ledger_lines

    text = "\n".join(ledger_lines(analysis.summary))
    assert "goodput unknown of 60 min (its parts come to more than the wall time)" in text
    assert "not every step's own time" not in text


def test_stamps_that_never_advance_measure_no_wall_time(tmp_path):
    """A run shorter than its stamps' tick: MMEngine's logger prints '%m/%d %H:%M:%S' (whole seconds), and a run
    of five logged intervals of milliseconds each reads the same second on every line. Its steps' own times are
    known (mmengine LogProcessor: `time: 0.0040`, the mean seconds of an iteration over the interval), its wall
    time is not: goodput unknown, not 100% of 0 s."""
    times = [0.0040, 0.0014, 0.0012, 0.0013, 0.0011]
    lines = [
        f"12/05 10:02:52 - mmengine - INFO - Epoch(train) [1][{10 * (k + 1)}/50]  lr: 1.0000e-02  eta: 0:00:00  "
        f"time: {t:.4f}  data_time: 0.0002  loss: {1.38 - k / 100:.4f}"
        for k, t in enumerate(times)
    ]
    log = tmp_path / "mmengine.log"
    log.write_text("\n".join(lines) + "\n")
    analysis = api.analysis_of(str(log), {})
    g = analysis.summary["goodput"]
    assert g["wall_s"] is None and g["goodput"] is None
    # ten steps a line at each line's own time, the first's time above the others' warm-up
    b = g["badput"]
    assert g["productive_s"] + b["warmup"] + b["slow_steps"] == pytest.approx(10 * sum(times), abs=1e-3)
    assert "do not advance" in g["unknown"]["other"]
    from logparse.report.ledger import ledger_lines

    text = "\n".join(ledger_lines(analysis.summary))
    assert "goodput unknown (the log's stamps do not advance: no wall time)" in text
    assert "100%" not in text
