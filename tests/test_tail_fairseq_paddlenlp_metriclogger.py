"""fairseq, PaddleNLP's Trainer and the MetricLogger style: what the resolve stage makes of the public
excerpts in tests/data/public (SOURCES_fairseq_paddlenlp_metriclogger.toml credits them and checks what the frame reads off each line).

Every expected number here is read off the excerpt's lines by hand, or is plain arithmetic on printed values
written out in the test; none comes from running logparse.
"""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

import logparse
from logparse.cli import cli

PUBLIC = Path(__file__).resolve().parent / "data" / "public"


def _frame(name: str) -> pd.DataFrame:
    return logparse.parse(str(PUBLIC / f"{name}.log"))


# ---------------------------------------------------------------------------------------------------
# MetricLogger: "[i/len]" restarts every epoch; steps are epoch x len + i


@pytest.mark.parametrize(
    ("name", "steps"),
    [
        # Epoch: [67] [ 0/31] ... [30/31], Epoch: [68] ..., Epoch: [69] [ 0/31]: 67 x 31 = 2077
        ("metric_logger_pyra_issue3_epochs66_69", [2077, 2087, 2097, 2107, 2108, 2118, 2128, 2138, 2139]),
        # Epoch: [1] [1480/1504] .. [1500/1504], Epoch: [2] [0/1504] .. [30/1504]: 1504 + 1480 = 2984
        ("metric_logger_llama2_accessory_issue48", [2984, 2994, 3004, 3008, 3018, 3028, 3038]),
        # Epoch: [2] [ 150/1251] ... [ 220/1251]: 2 x 1251 + 150 = 2652
        ("metric_logger_deit_issue76_mpi_stamps", [2652, 2662, 2672, 2682, 2692, 2702, 2712, 2722]),
        # Epoch: [0/100] [2240/2502] ...: epoch 0, the position is the step
        ("metric_logger_dino_issue69_epoch_of_total", [2240, 2250, 2260, 2270, 2280, 2290]),
    ],
)
def test_metric_logger_steps_count_across_epochs(name, steps):
    frame = _frame(name)
    assert list(frame["step"]) == steps


def test_metric_logger_epoch_boundary_keeps_each_lines_values():
    """PYRA#3: the last line of epoch 67 and the first of epoch 68 are different steps with their own values."""
    frame = _frame("metric_logger_pyra_issue3_epochs66_69").set_index("step")
    # "Epoch: [67]  [30/31]  ... loss: 0.0065 (0.0141)  time: 0.1399"
    assert frame.at[2107, "loss"] == 0.0065 and frame.at[2107, "step_time_s"] == 0.1399
    # "Epoch: [68]  [ 0/31]  ... lr: 0.000376  loss: 0.0062 (0.0062)  time: 3.0840"
    assert frame.at[2108, "loss"] == 0.0062 and frame.at[2108, "lr"] == 0.000376
    assert frame.at[2108, "step_time_s"] == 3.084


def test_metric_logger_says_how_the_steps_were_numbered():
    run = logparse.resolve(str(PUBLIC / "metric_logger_pyra_issue3_epochs66_69.log"))
    assert run.parsed.format == "metric_logger"
    assert "31 steps per epoch" in run.step_numbering


# ---------------------------------------------------------------------------------------------------
# fairseq: the step is num_updates


def test_fairseq_step_is_num_updates_not_the_position_in_the_epoch():
    """fairseq#940: '| epoch 001:    450 / 1891 ... num_updates=445, ...': position 450 is update 445."""
    frame = _frame("fairseq_issue940_v08_valid")
    assert list(frame["step"]) == [445, 495, 545, 595, 645]
    # no counter was printed besides num_updates, so the step time is wpb / wps
    assert frame["step_time_s"].iloc[0] == pytest.approx(104928 / 52922, rel=1e-12)
    assert frame["step_time_s"].iloc[-1] == pytest.approx(104904 / 53573, rel=1e-12)


def test_fairseq_skipped_updates_are_not_steps():
    """FSDP README: two 'gradient overflow detected, ignoring gradient' lines between updates 2 and 3 are
    skipped updates; num_updates goes 1..10 and the overflows are events."""
    run = logparse.resolve(str(PUBLIC / "fairseq_fsdp_readme_json_8gpu.log"))
    assert list(run.steps["step"]) == list(range(1, 11))
    assert int((run.parsed.events["event"] == "overflow").sum()) == 2
    assert run.value("world_size") == 8  # "training on 8 devices (GPUs/TPUs)"


def test_fairseq_first_records_zero_wps_is_unknown_not_zero():
    """The speed meter starts on its first call: the first record prints wps "0", which is no measurement."""
    frame = _frame("fairseq_fsdp_readme_json_8gpu").set_index("step")
    assert math.isnan(frame.at[1, "tokens_per_s"])
    assert math.isnan(frame.at[1, "step_time_s"])
    # update 2: "wpb": "131072", "wps": "3283.4"
    assert frame.at[2, "step_time_s"] == pytest.approx(131072 / 3283.4, rel=1e-12)


def test_fairseq_valid_line_is_an_eval_event_at_its_update():
    run = logparse.resolve(str(PUBLIC / "fairseq_issue940_v08_valid.log"))
    ev = run.parsed.events
    evals = ev[ev["event"] == "eval"]
    # "| epoch 001 | valid on 'valid' subset | valid_loss 8.11425 | ... | num_updates 600"
    assert list(evals["step"]) == [600] and list(evals["eval_loss"]) == [8.11425]
    assert 600 not in set(run.steps["step"])  # an evaluation, not a step row


# ---------------------------------------------------------------------------------------------------
# PaddleNLP: global_step, 1 / interval_steps_per_second, and which samples/s is a throughput


def test_paddlenlp_step_time_and_job_samples_per_second():
    """Qwen2.5 tutorial: 'interval_samples_per_second: 3.913, ..., interval_steps_per_second: 3.913'."""
    frame = _frame("paddlenlp_qwen25_pretrain_tutorial").set_index("step")
    assert frame.at[2, "step_time_s"] == pytest.approx(1 / 3.913, rel=1e-12)
    assert frame.at[2, "samples_per_s"] == 3.913
    assert frame.at[2, "tokens_per_s_per_gpu"] == 4006.9441


def test_paddlenlp_2022_samples_per_second_is_not_read_as_a_throughput():
    """2022: 'interval_runtime: 1.5474, interval_samples_per_second: 5.17, interval_steps_per_second: 6.463'
    with a batch of 8: 10 steps x 8 samples / 1.5474 s = 51.7 samples/s; 5.17 is 8 / 1.5474 (one step)."""
    frame = _frame("paddlenlp_2022_epoch_form_eval_ckpt").set_index("step")
    assert frame.at[20, "x_interval_samples_per_second"] == 5.17
    # the throughput comes from the header's "Total train batch size (...) = 8" and the step time instead
    assert frame.at[20, "samples_per_s"] == pytest.approx(8 * 6.463, rel=1e-12)
    assert frame.at[20, "step_time_s"] == pytest.approx(1 / 6.463, rel=1e-12)
    assert frame.at[100, "eval_loss"] == 2.104221820831299  # the eval line after step 100
    run = logparse.resolve(str(PUBLIC / "paddlenlp_2022_epoch_form_eval_ckpt.log"))
    assert run.value("global_batch_size") == 8 and run.value("train_iters") == 37800


# ---------------------------------------------------------------------------------------------------
# bad input: a clear line, no traceback


def test_a_garbled_value_is_flagged_not_a_traceback(tmp_path):
    """A fairseq record whose loss does not read as a number ('loss=ERR,') keeps its other values."""
    log = tmp_path / "train.log"
    good = (PUBLIC / "fairseq_issue2338_train_inner.log").read_text().splitlines()
    log.write_text("\n".join([*good[:2], good[2].replace("loss=9.376,", "loss=ERR,"), *good[3:]]) + "\n")
    res = CliRunner().invoke(cli, ["parse", str(log), "-o", str(tmp_path / "steps.csv")])
    assert res.exit_code == 0, res.output
    assert "Traceback" not in res.output
    steps = pd.read_csv(tmp_path / "steps.csv").set_index("step")
    assert math.isnan(steps.at[3000, "loss"]) and steps.at[3000, "tokens_per_s"] == 16.2


# ---------------------------------------------------------------------------------------------------
# A real capture: DeiT's MetricLogger on the CPU (tests/data/captures/metric_logger, README.md there)

CAPTURE = Path(__file__).resolve().parent / "data" / "captures" / "metric_logger"


def _iterations() -> list[dict]:
    return [json.loads(line) for line in (CAPTURE / "iterations.jsonl").read_text().splitlines()]


def _median_as_printed(values: list[float]) -> str:
    """SmoothedValue.median: torch.tensor(list(deque)).median() of the last 20 values, a float32 tensor
    (the lower middle value for an even count), printed '{:.4f}'."""
    window = np.sort(np.array(values[-20:], dtype=np.float32))
    return f"{float(window[(len(window) - 1) // 2]):.4f}"


def test_metric_logger_capture_reads_every_printed_iteration():
    run = logparse.resolve(str(CAPTURE / "deit_style_cpu.log"))
    assert run.parsed.format == "metric_logger"
    assert run.parsed.lines["malformed"] == 0
    # log_every prints i % 10 == 0 and the last i (24) of each 25-batch epoch; steps are epoch x 25 + i
    printed = [(e, i) for e in range(3) for i in (0, 10, 20, 24)]
    assert list(run.steps["step"]) == [e * 25 + i for e, i in printed]
    its = _iterations()
    assert len(its) == 75
    frame = logparse.parse(str(CAPTURE / "deit_style_cpu.log")).set_index("step")
    for e, i in printed:
        epoch = [r["loss"] for r in its if r["epoch"] == e and r["i"] <= i]
        row = frame.loc[e * 25 + i]
        assert f"{row['loss']:.4f}" == _median_as_printed(epoch), (e, i)
        assert f"{row['x_loss_avg']:.4f}" == f"{sum(epoch) / len(epoch):.4f}", (e, i)
        lr = next(r["lr"] for r in its if r["epoch"] == e and r["i"] == i)
        assert row["lr"] == float(f"{lr:.6f}")
        assert row["step_time_s"] > 0
    assert "memory_gib" not in frame or frame["memory_gib"].isna().all()  # no CUDA: no "max mem"


def test_metric_logger_capture_epoch_averages_match_deits_log_txt():
    """The last printed line of each epoch carries the epoch's running average: DeiT's log.txt train_loss."""
    frame = logparse.parse(str(CAPTURE / "deit_style_cpu.log")).set_index("step")
    for line in (CAPTURE / "log.txt").read_text().splitlines():
        stats = json.loads(line)
        last = frame.loc[stats["epoch"] * 25 + 24]
        assert f"{last['x_loss_avg']:.4f}" == f"{stats['train_loss']:.4f}"
        assert last["lr"] == float(f"{stats['train_lr']:.6f}")


# ---------------------------------------------------------------------------------------------------
# the three sets claim no other framework's log

MINE = ("fairseq", "paddlenlp", "metric_logger")
DATA = PUBLIC.parent


def _other_logs() -> list[Path]:
    """Every public excerpt, peer log and capture of another framework."""
    logs = [p for p in PUBLIC.glob("*.log") if not p.stem.startswith(MINE)]
    logs += sorted((DATA / "peers").rglob("*.log")) + sorted((DATA / "captures").rglob("*.log"))
    return sorted(p for p in logs if CAPTURE not in p.parents)
