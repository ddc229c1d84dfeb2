"""A step counter going back: a new run, a restart or a new epoch; no step is lost.

The spliced files are made of real lines: public excerpts (tests/data/public/, sources in SOURCES.toml)
and the shipped Megatron sample. What each splice must give is written out by hand below.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from logparse import api
from logparse.core.errors import LogparseError
from tests.conftest import ROOT, SAMPLES

PUBLIC = ROOT / "tests" / "data" / "public"


def splice(write_log, *parts: str, name: str = "spliced.log"):
    return str(write_log("".join(parts), name))


def test_two_jobs_in_one_file_keep_every_iteration(write_log):
    # ModelLink iterations 1665-1666 (one job), then Megatron-DeepSpeed iterations 1-2 (another job)
    path = splice(
        write_log,
        (PUBLIC / "modellink_llama2_70b_tgs.log").read_text(),
        (PUBLIC / "megatron_deepspeed_aurora_iter1_2.log").read_text(),
    )
    rows = api.parse(path, format="megatron")
    assert list(rows["step"]) == [1665, 1666, 1, 2]  # in the order they ran, none dropped
    assert list(rows["run"]) == [0, 0, 1, 1]
    run = api.resolve(path, format="megatron")
    assert [(s.kind, s.first_step, s.last_step) for s in run.segments] == [
        ("start", 1665, 1666),
        ("new_run", 1, 2),
    ]
    assert "5,000 to 317,892" in run.segments[1].reason  # "iteration 1665/ 5000", "iteration 1/ 317892"
    assert list(run.steps["step"]) == [1, 2]  # the analysis covers the last run ...
    assert any("holds 2 runs" in w for w in run.warnings)  # ... and says so
    first = api.resolve(path, format="megatron", segment=0)
    assert list(first.steps["step"]) == [1665, 1666]
    # the CLI's parse writes every row too, or one segment's
    from click.testing import CliRunner

    from logparse.cli import cli

    for extra, want in (([], "1665,1666,1,2"), (["--segment", "1"], "1,2")):
        res = CliRunner().invoke(cli, ["parse", path, "--format", "megatron", *extra])
        assert res.exit_code == 0, res.output
        assert ",".join(line.split(",")[0] for line in res.output.splitlines()[1:]) == want


def test_nemo2_printer_starting_again_at_zero_is_another_run(write_log):
    path = splice(
        write_log,
        (PUBLIC / "nemo2_bionemo_pr740_iter120.log").read_text(),
        (PUBLIC / "nemo2_speech_pr10128_iter0.log").read_text(),
    )
    rows = api.parse(path, format="nemo")
    assert list(rows["step"]) == [120, 121, 122, 123, 124, 125, *range(0, 9)]
    s = api.analyze(path, format="nemo", gpus=1, seq_len=128).summary
    assert [seg["kind"] for seg in s["segments"]] == ["start", "new_run"]
    assert s["steps"]["first"] == 0 and s["steps"]["last"] == 8
    assert s["restarts"] == []  # another run is not a restart: no redone work is claimed


def _megatron_lines() -> tuple[list[str], dict[int, str]]:
    lines = (SAMPLES / "megatron_llama2-7b_8xh100.log").read_text().splitlines(keepends=True)
    by_step = {}
    for line in lines:
        m = re.search(r"iteration\s+(\d+)/", line)
        if m:
            by_step[int(m.group(1))] = line
    return lines, by_step


def test_a_restart_replaces_only_the_steps_it_logs_again(write_log):
    # attempt 0 logs 1..250 and dies; attempt 1 loads the checkpoint of step 200 and logs 201..230
    # before the file ends: 231..250 were logged once, by attempt 0, and stay
    lines, by_step = _megatron_lines()
    cut = lines.index(by_step[250]) + 1
    resume = " loading checkpoint from /ckpt at iteration 200\n"
    again = [by_step[s].replace("[2024-09-03", "[2024-09-04") for s in range(201, 231)]
    path = splice(write_log, *lines[:cut], resume, *again)
    rows = api.parse(path)
    assert len(rows) == 250 and set(rows["step"]) == set(range(1, 251))
    order = list(rows["step"])
    assert order == [*range(1, 201), *range(231, 251), *range(201, 231)]  # as they ran
    assert set(rows.loc[rows["segment"] == 1, "step"]) == set(range(201, 231))
    a = api.analyze(path, gpus=8, hw="h100", model="llama2-7b")
    (r,) = a.summary["restarts"]
    assert (r["at_step"], r["resumed_from"], r["redone_steps"]) == (250, 200, 50)
    assert [s["kind"] for s in a.summary["segments"]] == ["start", "restart"]
    assert a.summary["steps"]["count"] == 250


def test_a_restart_with_a_changed_batch_is_a_new_run(write_log):
    lines, by_step = _megatron_lines()
    cut = lines.index(by_step[100]) + 1
    dump_start = next(i for i, line in enumerate(lines) if "arguments" in line)
    dump_end = next(i for i, line in enumerate(lines) if "end of arguments" in line) + 1
    dump = [re.sub(r"(global_batch_size \.+ )\d+", r"\g<1>256", line) for line in lines[dump_start:dump_end]]
    assert dump != lines[dump_start:dump_end]
    path = splice(write_log, *lines[:cut], *dump, *[by_step[s] for s in range(1, 21)])
    s = api.analyze(path, gpus=8, hw="h100", model="llama2-7b").summary
    kinds = [(seg["kind"], seg.get("reason", "")) for seg in s["segments"]]
    assert kinds[1][0] == "new_run" and "global_batch_size changes from 128 to 256" in kinds[1][1]
    assert s["steps"]["count"] == 20


@pytest.mark.parametrize("resume", [True, False])
def test_the_same_job_resumed_from_scratch_or_checkpoint_is_a_restart(write_log, resume):
    lines, by_step = _megatron_lines()
    cut = lines.index(by_step[120]) + 1
    marker = [" loading checkpoint from /ckpt at iteration 100\n"] if resume else []
    path = splice(write_log, *lines[:cut], *marker, *[by_step[s] for s in range(101, 151)])
    s = api.analyze(path, gpus=8, hw="h100", model="llama2-7b").summary
    assert [seg["kind"] for seg in s["segments"]] == ["start", "restart"]
    assert s["steps"]["count"] == 150  # 1..100 from the first attempt, 101..150 from the second


def test_a_run_done_again_to_the_same_step_is_another_run():
    # Surprise's cross_validate (scikit-surprise 1.1.5, SVD(n_epochs=10, verbose=True), cv=3): each fold fits again,
    # `Processing epoch 0` .. `Processing epoch 9` (surprise/prediction_algorithms/matrix_factorization.pyx), with
    # no total and no start-up line between: three runs of one plan, not one run restarted twice
    path = ROOT / "tests" / "data" / "unseen" / "surprise_svd_cross_validate.log"
    s = api.analyze(str(path)).summary
    assert [(seg["kind"], seg["first_step"], seg["last_step"]) for seg in s["segments"]] == [
        ("start", 0, 9),
        ("new_run", 0, 9),
        ("new_run", 0, 9),
    ]
    assert s["restarts"] == []


def _nemo_bar(epoch: int, n: int, total: int, global_step: float | None) -> str:
    # NeMo's MegatronProgressBar, as the real line in patterns/nemo.toml prints it
    gs = f", global_step={global_step:.2f}" if global_step is not None else ""
    return (
        f"Epoch {epoch}: : {100 * n // total:3d}%|##########| {n}/{total} [10:48<00:00, "
        f"reduced_train_loss=0.0172{gs}, consumed_samples=25600.0, train_step_timing in s=3.130]"
    )


@pytest.mark.parametrize("printed_global_step", [True, False])
def test_a_per_epoch_bar_continues_its_steps_across_epochs(write_log, printed_global_step):
    # two epochs of 3 optimizer steps each; the bar's postfix shows the previous batch's global_step
    lines = [
        _nemo_bar(e, n, 3, (3 * e + n - 1) if printed_global_step else None)
        for e in (0, 1)
        for n in (1, 2, 3)
    ]
    run = api.resolve(splice(write_log, "\r".join(lines) + "\n"), format="nemo")
    assert list(run.all_steps["step"]) == [1, 2, 3, 4, 5, 6]  # not 1, 2, 3 of the last epoch only
    assert [(s.kind, s.first_step, s.last_step) for s in run.segments] == [("start", 1, 3), ("epoch", 4, 6)]
    assert ("global step" in run.step_numbering) == printed_global_step


def test_the_printed_global_step_wins_over_the_epoch_length(write_log):
    # an epoch cut short (3 of 5 batches, e.g. limit_train_batches): the printed global step knows
    lines = [_nemo_bar(0, n, 5, n - 1) for n in (1, 2, 3)] + [_nemo_bar(1, n, 5, 3 + n - 1) for n in (1, 2)]
    run = api.resolve(splice(write_log, "\r".join(lines) + "\n"), format="nemo")
    assert list(run.all_steps["step"]) == [1, 2, 3, 4, 5]


def test_deepspeed_startup_report_is_not_a_step_and_user_loss_lines_join_their_step():
    # the excerpt ends before training: its "step=0, skipped=0" report is the engine's start-up, no step
    with pytest.raises(LogparseError, match="no training step lines"):
        api.resolve(PUBLIC / "deepspeed_hello_startup.log", format="deepspeed")
    user = api.resolve(PUBLIC / "deepspeed_hello_user_loss.log", format="deepspeed")
    text = (PUBLIC / "deepspeed_hello_user_loss.log").read_text()
    # "[Rank 0] Loss: X" printed by the user's script after the engine's step line, read by hand
    printed = [float(x) for x in re.findall(r"\[Rank 0\] Loss: ([\d.]+)", text)]
    assert (
        printed and list(user.all_steps["loss"].dropna()) == printed[: user.all_steps["loss"].notna().sum()]
    )


@settings(max_examples=200, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(0, 2), st.one_of(st.integers(-3, 30), st.floats(-3, 30), st.just(float("nan")))
        ),
        max_size=40,
    ),
    st.booleans(),
)
def test_repeats_steps_answers_as_duplicated_does(pairs, in_order):
    """sources.repeats_steps (its shortcut: pairs in order, an equal neighbour the answer) says what
    DataFrame.duplicated(["segment", "step"]).any() says: repeated pairs, NaN steps, unsorted rows, one row."""
    from logparse.steps.sources import repeats_steps

    if in_order:
        pairs = sorted(pairs, key=lambda p: (p[0], -1e9 if p[1] != p[1] else p[1]))
    frame = (
        pd.DataFrame(pairs, columns=["segment", "step"])
        if pairs
        else pd.DataFrame({"segment": [], "step": []})
    )
    if pairs and all(isinstance(p[1], int) for p in pairs):
        frame["step"] = frame["step"].astype("int64")
    assert repeats_steps(frame) == bool(frame.duplicated(["segment", "step"]).any())


def test_boundaries_are_where_the_counter_goes_back_or_a_start_follows_steps():
    """segments.boundaries: the line of each step below the one before (on the rank that prints most), and the
    first step line after a start or checkpoint-load line that follows steps (hand-made rows)."""
    from logparse.steps.segments import boundaries

    steps = pd.DataFrame({"step": [1, 2, 3, 1, 2, 5, 4, 6], "line": [10, 11, 12, 20, 21, 30, 31, 40]})
    events = pd.DataFrame({"event": ["start", "checkpoint_load", "start", "save"], "line": [5, 25, 35, 39]})
    # 20 and 31: the counter goes back; 30: first step after the load at 25; 40: first after the start at 35;
    # the start at 5 comes before any step, the save at 39 is no start
    assert boundaries(steps, events) == [20, 30, 31, 40]
    shuffled = steps.sample(frac=1.0, random_state=1)  # rows out of line order read alike
    assert boundaries(shuffled, events) == [20, 30, 31, 40]


@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.tuples(st.integers(0, 3), st.integers(1, 50)), min_size=1, max_size=40), st.integers(1, 10)
)
def test_step_span_is_the_step_less_the_one_before_it_in_its_segment(rows, cadence):
    """run._step_span (column-wise when each segment's rows are together) gives what the group-by definition
    gives: the step less the previous row's in the segment, a segment's first row its step (segment 0, within
    the cadence) or the cadence, at least 1."""
    from logparse.steps.run import _step_span

    rows = sorted(rows)
    steps = pd.DataFrame(rows, columns=["segment", "step"])
    want = steps.groupby("segment")["step"].diff()
    for i in steps.groupby("segment").head(1).index:
        s = int(steps.at[i, "step"])
        want.at[i] = s if (steps.at[i, "segment"] == 0 and s <= cadence) else cadence
    want = want.fillna(1).clip(lower=1).astype(int)
    assert _step_span(steps, cadence).tolist() == want.tolist()


def test_a_run_whose_first_attempt_was_logged_again_whole_still_begins_as_a_new_run(write_log):
    # torchensemble's VotingClassifier trains its members in turn, each printing `Estimator: k | Epoch: e |
    # Batch: b`; read as steps, member 1's batches repeat member 0's, a run that starts again, and member 2's
    # repeat member 1's whole: the run's first attempt leaves no row, yet the run still begins where it began
    lines = [
        f"Estimator: {k:03d} | Epoch: {e:03d} | Batch: {b:03d} | Loss: {1.2 - 0.01 * (9 * e + 3 * k + b // 10):.5f} | Correct: 8/32\n"
        for e in range(2)
        for k in range(3)
        for b in (0, 10, 20)
    ]
    run = api.resolve(str(write_log("".join(lines), "voting.log")))
    kinds = [s.kind.value for s in run.segments]
    assert kinds[0] == "start"
    assert "new_run" in kinds
    # every run the rows hold begins with the start or a new run, never with a restart of nothing
    firsts = {}
    for s in run.segments:
        firsts.setdefault(s.run, s.kind.value)
    assert set(firsts.values()) <= {"start", "new_run"}
