"""steps/run.split_segments finds each attempt's rows once and each restart's redone rows through the run's rows
sorted by step (a log cut into thousands of attempts took a masked copy of the whole frame for each: 17 s for
100,000 shuffled lines). Held here to the plain reading it replaced, written out below as it was: every row
compared with every attempt by boolean masks."""

from __future__ import annotations

import functools
from types import SimpleNamespace

import numpy as np
import pandas as pd
import pytest

from logparse.steps import run as run_mod
from logparse.steps.kinds import SegmentKind
from logparse.steps.segments import boundaries, fresh_start, new_run_reason

# ------------------------------------------------------------------------------------------------
# the reference: split_segments' restarts as they were read before (commit 8fd7aa3), masks over every row


def _reference(steps, parsed, cadence):
    cuts = boundaries(steps, parsed.events)
    steps = steps.copy()
    steps["segment"] = np.searchsorted(np.array(cuts, dtype=float), steps["line"].to_numpy(), side="right")
    kinds = []
    for seg in range(1, len(cuts) + 1):
        old, new = steps[steps["segment"] == seg - 1], steps[steps["segment"] == seg]
        reason = new_run_reason(old, new, parsed.facts, cuts[seg - 1])
        if not reason:
            ev = parsed.events
            loads = ev[(ev["event"] == "checkpoint_load") & (ev["step"] != 0)]
            between = loads[(loads["line"] > old["line"].max()) & (loads["line"] < new["line"].min())]
            own = sorted(set(new["step"]))
            every = own[1] - own[0] if len(own) > 1 else cadence
            # these logs state no facts and print no start-up line: no attempt is seen to start afresh
            reason = fresh_start(float(new["step"].min()), every, resumed=len(between) > 0, started=False)
        kinds.append(SegmentKind.NEW_RUN if reason else SegmentKind.RESTART)
    run_of_segment = np.cumsum([0] + [k == SegmentKind.NEW_RUN for k in kinds])
    steps["run"] = run_of_segment[steps["segment"].to_numpy()]
    restarts = []
    keep = pd.Series(True, index=steps.index)
    for seg in range(1, len(cuts) + 1):
        if kinds[seg - 1] != SegmentKind.RESTART:
            continue
        new = steps[steps["segment"] == seg]
        earlier = (steps["segment"] < seg) & (steps["run"] == run_of_segment[seg]) & keep
        old = steps[earlier]
        if new.empty or old.empty:
            continue
        redone_mask = earlier & steps["step"].isin(set(new["step"]))
        restarts.append(_ref_restart(steps, new, old, steps[redone_mask], parsed.events, cuts, seg, cadence))
        keep &= ~redone_mask
    return steps[keep], restarts, steps[~keep], kinds


def _ref_restart(steps, new, old, redone, events, cuts, seg, cadence):
    first_new = int(new["step"].min())
    at_step = int(old.sort_values("line", kind="stable")["step"].iloc[-1])
    resumed_from, source = None, "unknown"
    loads = events[(events["event"] == "checkpoint_load")] if "event" in events else events
    if not loads.empty and "step" in loads:
        prev_line = cuts[seg - 2] if seg >= 2 else -1
        near = loads[(loads["line"] > prev_line) & (loads["line"] < cuts[seg - 1])].dropna(subset=["step"])
        if len(near):
            resumed_from, source = (
                int(near["step"].iloc[-1]),
                f"checkpoint load, line {int(near['line'].iloc[-1])}",
            )
    if resumed_from is None and cadence and first_new - cadence >= 0:  # (no step before 0 to resume from)
        resumed_from, source = (
            first_new - cadence,
            f"first step of the new attempt minus the log cadence ({cadence})",
        )
    redo_s = None
    if "step_time_s" in steps and len(redone):
        redo_s = float((redone["step_time_s"] * (cadence or 1)).sum())
    gap_s = None
    if "timestamp" in steps and steps["timestamp"].notna().any():
        last_old = old.sort_values("line", kind="stable")["timestamp"].dropna()
        first_ts = new["timestamp"].dropna()
        if len(last_old) and len(first_ts):
            own = new.loc[first_ts.index[0]].get("step_time_s")
            own_s = float(own) * (cadence or 1) if own is not None and not pd.isna(own) else 0.0
            gap_s = max(0.0, float(first_ts.iloc[0] - last_old.iloc[-1]) - own_s)
    lost = None if redo_s is None and gap_s is None else (redo_s or 0.0) + (gap_s or 0.0)
    redone_steps = (
        max(0, at_step - resumed_from) if resumed_from is not None else int(redone["step"].nunique())
    )
    cause, cause_line = None, None
    old_first, new_first = int(old["line"].min()), int(new["line"].min())
    if not events.empty and {"event", "line", "text"} <= set(events.columns):
        lines = pd.to_numeric(events["line"], errors="coerce")
        errors = events[(events["event"] == "error") & (lines > old_first) & (lines < new_first)]
        if len(errors):
            last = errors.loc[pd.to_numeric(errors["line"], errors="coerce").idxmax()]
            cause, cause_line = str(last["text"]).strip(), int(last["line"])
    return run_mod.Restart(at_step, resumed_from, source, new_first, redone_steps, lost, cause, cause_line)


# ------------------------------------------------------------------------------------------------
# random logs: attempts that go back, some a new run (another progress total), stamps with holes, 1-3 ranks


def _random_log(seed: int):
    rng = np.random.default_rng(seed)
    rows, events, line, total = [], [], 10, 1000
    step, t = 0, 1_700_000_000.0
    ranks = int(rng.integers(1, 4))
    for _attempt in range(int(rng.integers(1, 40))):
        if rng.random() < 0.5:  # a checkpoint load or an error between attempts
            kind = "checkpoint_load" if rng.random() < 0.6 else "error"
            ev_step = float(max(0, step - int(rng.integers(0, 5)))) if rng.random() < 0.7 else np.nan
            events.append({"event": kind, "line": line, "text": f"{kind} at {line} ", "step": ev_step})
            line += 1
        if rng.random() < 0.1:
            total += 500  # another run
        for _ in range(int(rng.integers(1, 30))):
            if rows and rng.random() < 0.15:  # an error line inside an attempt, right after a step line
                events.append({"event": "error", "line": line, "text": f"error at {line}", "step": np.nan})
                line += 1
            step += int(rng.integers(1, 3))
            t += float(rng.uniform(0.5, 2.0))
            for rank in range(ranks):
                rows.append(
                    {
                        "step": step,
                        "line": line,
                        "rank": rank if ranks > 1 else np.nan,
                        "timestamp": t if rng.random() < 0.8 else np.nan,
                        "step_time_s": float(rng.uniform(0.5, 2.0)) if rng.random() < 0.9 else np.nan,
                        "progress_total": float(total),
                    }
                )
                line += 1
        step = max(0, step - int(rng.integers(0, 25)))  # the next attempt goes back (or not)
    steps = pd.DataFrame(rows)
    if ranks == 1:
        steps = steps.drop(columns="rank")
    ev = pd.DataFrame(events, columns=["event", "line", "text", "step"])
    return (
        steps,
        SimpleNamespace(events=ev, facts={}),
        (None if rng.random() < 0.3 else int(rng.integers(1, 3))),
    )


@functools.cache
def _reference_of(seed: int):
    """The reference's reading of a seed's log (read only by the tests: kept once a process)."""
    return _reference(*_random_log(seed))


@pytest.mark.parametrize("seed", range(60))
def test_restarts_found_through_sorted_steps_are_those_the_masks_found(seed):
    steps, parsed, cadence = _random_log(seed)
    kept, restarts, _segments, redone = run_mod.split_segments(steps, parsed, cadence, False)
    ref_kept, ref_restarts, ref_redone, _kinds = _reference_of(seed)
    assert kept.index.tolist() == ref_kept.index.tolist()
    assert redone.index.tolist() == ref_redone.index.tolist()
    assert kept["run"].tolist() == ref_kept["run"].tolist()
    assert [r.as_dict() for r in restarts] == [r.as_dict() for r in ref_restarts]


def test_the_random_logs_have_what_the_comparison_needs():
    """Restarts that redo steps, new runs, causes and checkpoint loads among the seeds (else the test above
    compares little)."""
    found = {"restarts": 0, "redone": 0, "new_run": 0, "cause": 0, "load": 0, "lost": 0}
    for seed in range(60):
        _kept, restarts, _redone, kinds = _reference_of(seed)
        found["restarts"] += len(restarts)
        found["redone"] += sum(r.redone_steps > 0 for r in restarts)
        found["new_run"] += sum(k == SegmentKind.NEW_RUN for k in kinds)
        found["cause"] += sum(r.cause is not None for r in restarts)
        found["load"] += sum(r.resumed_from_source.startswith("checkpoint") for r in restarts)
        found["lost"] += sum(r.lost_s is not None for r in restarts)
    assert min(found.values()) >= 5, found


def test_a_restart_after_thousands_of_attempts_still_reads_the_attempt_just_before():
    """A hand case: 3,000 attempts, each logging steps 2-4 again after the one before logged 2-4 (a job that
    keeps failing at step 4 and resuming after step 1): each restart redoes the 3 steps of the attempt before
    it, and only those. (An attempt that starts again from step 1 with no checkpoint is another run.)"""
    n = 3000
    steps = pd.DataFrame(
        {
            "step": np.tile([2, 3, 4], n),
            "line": np.arange(3 * n) + 1,
            "step_time_s": 1.0,
            "progress_total": 3.0,
        }
    )
    parsed = SimpleNamespace(events=pd.DataFrame(columns=["event", "line", "text", "step"]), facts={})
    kept, restarts, _segments, redone = run_mod.split_segments(steps, parsed, 1, False)
    assert len(restarts) == n - 1
    assert kept["line"].tolist() == [3 * n - 2, 3 * n - 1, 3 * n]  # the last attempt's rows
    assert len(redone) == 3 * (n - 1)
    assert {r.at_step for r in restarts} == {4}
    assert {r.resumed_from for r in restarts} == {1}  # first step 2 minus the cadence 1
    assert {r.lost_s for r in restarts} == {3.0}  # three redone steps of 1 s, no stamps
