"""The step frame's internal columns (steps.stepframe), where a step's time and throughput come from
(steps.timing), and the Enums whose members are output words (steps.kinds). Toy frames; every expected
value is written here by hand."""

from __future__ import annotations

import csv
import io
import json

import numpy as np
import pandas as pd

from logparse.phases.phases import Phase, choose_speed
from logparse.phases.status import RunStatus
from logparse.steps.kinds import SegmentKind
from logparse.steps.stepframe import add_flag, flagged, merge_flags, unmark_windowed, windowed
from logparse.steps.timing import (
    KEPT_AS_LOGGED,
    STEP_TIME_SOURCES,
    StepTime,
    StepTimeFrom,
    Throughput,
    ThroughputFrom,
    TimingInputs,
    fill_step_time,
    fill_throughput,
)


def test_flags_are_names_not_substrings():
    steps = pd.DataFrame({"step": [1, 2, 3]})
    add_flag(steps, pd.Series([True, False, True]), "nonfinite_loss_scale")
    add_flag(steps, pd.Series([False, False, True]), "nonfinite_loss")
    assert list(steps["flags"].fillna("")) == [
        "nonfinite_loss_scale",
        "",
        "nonfinite_loss_scale,nonfinite_loss",
    ]
    assert list(flagged(steps, "nonfinite_loss")) == [False, False, True]
    assert list(flagged(steps, "nonfinite_", prefix=True)) == [True, False, True]
    assert merge_flags(pd.Series(["b,a", None, "a,c"])) == "a,b,c"
    assert merge_flags(pd.Series([None, None])) is None
    assert not flagged(pd.DataFrame({"step": [1]}), "cut").any()  # no flags column: nothing flagged


def test_windowed_marks_and_their_removal():
    steps = pd.DataFrame({"step_time_s": [1.0, 1.0, 1.0], "windowed": ["step_time_s", "step_time_s", None]})
    assert windowed(steps, "step_time_s")  # 2 of 3 rows
    unmark_windowed(steps, "step_time_s")
    assert not windowed(steps, "step_time_s")


def test_throughput_names_its_column_and_the_summary_sentence():
    # the four sentences summary.json's steps.throughput_source has always carried
    assert [(k.column, k.sentence) for k in ThroughputFrom] == [
        ("tokens_per_s", "tokens/s as logged (cluster)"),
        ("tokens_per_s_per_gpu", "tokens/s per GPU as logged x GPUs"),
        ("samples_per_s", "samples/s as logged (cluster) x sequence length"),
        ("step_time_s", "global batch x sequence length / step time"),
    ]
    t = Throughput(ThroughputFrom.STEP_TIME, KEPT_AS_LOGGED)
    assert t.column == "step_time_s"
    assert t.sentence == (
        "global batch x sequence length / step time (the logged throughput, an average over a window, is kept "
        "as *_logged)"
    )


def test_a_per_gpu_throughput_is_judged_on_its_own_window():
    # 8 GPUs logging 1000 tokens/s each, the figure averaged over the last 10 steps (a windowed field)
    steps = pd.DataFrame(
        {
            "step": [10, 20, 30],
            "step_span": [10, 10, 10],
            "tokens_per_step": [np.nan] * 3,
            "global_batch_size": [np.nan] * 3,
            "tokens_per_s_per_gpu": [1000.0, 1000.0, 1000.0],
            "windowed": ["tokens_per_s_per_gpu"] * 3,
        }
    )
    warnings: list[str] = []
    source = fill_throughput(steps, np.nan, 8.0, warnings)
    assert source == Throughput(ThroughputFrom.PER_GPU_TOKENS)
    assert list(steps["tokens_per_s"]) == [8000.0, 8000.0, 8000.0]
    _, unit, lag_rows, signal = choose_speed(steps, {"tokens_per_s_per_gpu": {"window": 10}}, source)
    assert (unit, lag_rows, signal) == ("tokens/s", 1, "an average over the last 10 steps")
    # without the record, the step time's (absent) window would be judged instead
    assert choose_speed(steps, {"tokens_per_s_per_gpu": {"window": 10}}, None)[2:] == (0, "")


def _timing(steps: pd.DataFrame) -> TimingInputs:
    return TimingInputs(steps, pd.DataFrame(), {}, False, [])


def test_step_time_sources_are_tried_in_order():
    assert [s.__name__ for s in STEP_TIME_SOURCES] == [
        "_logged",
        "_from_phase_total",
        "_from_tokens",
        "_from_timestamps",
        "_from_training_clock",
        "_from_bar_rate",
    ]
    both = pd.DataFrame(
        {
            "segment": [0, 0, 0],
            "step": [1, 2, 3],
            "step_span": [1, 1, 1],
            "timestamp": [0.0, 2.0, 4.0],
            "tokens_per_step": [100.0, 100.0, 100.0],
            "tokens_per_s": [50.0, 50.0, 25.0],
        }
    )
    assert fill_step_time(_timing(both)) == StepTime(
        StepTimeFrom.TOKENS, "tokens per step / tokens per second, both as logged"
    )
    assert list(both["step_time_s"]) == [2.0, 2.0, 4.0]
    stamps = both.drop(columns=["tokens_per_s", "step_time_s"])
    stamps["step_span"] = [1, 2, 2]
    assert fill_step_time(_timing(stamps)) == StepTime(
        StepTimeFrom.TIMESTAMPS, "timestamps of consecutive step lines"
    )
    assert list(stamps["step_time_s"].fillna(-1)) == [-1, 1.0, 1.0]  # 2 s over 2 steps
    t = _timing(pd.DataFrame({"segment": [0], "step": [1], "step_span": [1]}))
    assert fill_step_time(t) is None
    assert t.warnings == [
        "the log has no step-time field, no timestamp on its step lines and no progress bar: throughput and "
        "MFU are unknown"
    ]


def test_output_words_are_written_as_their_values():
    assert json.dumps({"status": RunStatus.DIVERGED}) == '{"status": "diverged"}'
    assert f"{Phase.STABLE} {SegmentKind.NEW_RUN:>8}" == "stable  new_run"
    assert Phase.WARMUP == "warmup" and {"restart": 1}[SegmentKind.RESTART] == 1
    out = io.StringIO()
    csv.writer(out).writerow([RunStatus.COMPLETE])
    pd.DataFrame({"phase": [Phase.DIP, pd.NA]}).to_csv(out, index=False)
    assert out.getvalue().splitlines() == ["complete", "phase", "dip", '""']
