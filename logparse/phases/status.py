"""Run status: did the run finish, stop early, crash or diverge?

Rules, first that holds:
- `diverged`: a step logs a NaN or infinite loss or gradient norm (dgxc-benchmarking's llmb-run marks a run
  invalid at its first `grad norm: nan`).
- `crashed`: an error line (traceback, NCCL error or timeout, out of memory, Xid) comes after the last step,
  with no end-of-training line after it.
- `complete`: the last step reached the planned total (`iteration 50/50`, `train_iters`, HF's max steps), or
  the framework printed its end-of-training line after the last step.
- `incomplete`: the planned total is known and the log stops before it, without an error.
- otherwise `null`: the log states no planned total and no ending, so it cannot be known.
"""

from __future__ import annotations

from typing import Any

from ..steps.kinds import SegmentKind, Word
from ..steps.run import Run
from ..steps.stepframe import flagged


class RunStatus(Word):
    """Whether the run finished (summary.json's `run_status`; None when the log cannot say)."""

    COMPLETE = "complete"  # it reached its planned steps, or the framework says it finished
    INCOMPLETE = "incomplete"  # it stops before its planned steps without an error
    CRASHED = "crashed"  # the log ends in an error after the last step
    DIVERGED = "diverged"  # the loss or gradient norm went NaN or infinite


def planned_steps(run: Run) -> tuple[int | None, str | None]:
    """The planned number of optimizer steps and where it was read."""
    iters = run.facts.get("train_iters")
    if iters is not None and iters.value:
        return int(iters.value), f"train_iters ({iters.source})"
    steps = run.steps
    per_epoch = any(s.kind == SegmentKind.EPOCH for s in run.segments)
    if not per_epoch and "progress_total" in steps and steps["progress_total"].notna().any():
        return int(steps["progress_total"].dropna().iloc[-1]), "the step counter's total (n/total)"
    return None, None


def run_status(run: Run, basis: int | None) -> dict[str, Any]:
    steps = run.steps
    last_step = int(steps["step"].iloc[-1])
    last_line = int(steps["line"].max())
    total, total_from = planned_steps(run)
    out: dict[str, Any] = {"status": None, "detail": "", "planned_steps": total, "planned_from": total_from}
    out["last_step"] = last_step

    loss = flagged(steps, "nonfinite_loss")
    bad = loss | flagged(steps, "nonfinite_grad_norm")
    if bad.any():
        first = steps[bad].iloc[0]
        what = "loss" if loss[bad][0] else "gradient norm"
        out.update(
            status=RunStatus.DIVERGED,
            detail=f"the {what} is NaN or infinite at step {int(first['step'])} (line {int(first['line'])}); "
            f"{int(bad.sum())} step(s) in all",
        )
        return out

    events = run.parsed.events
    after = events[events["line"] > last_line] if not events.empty else events
    ends = after[after["event"] == "end"] if not after.empty else after
    errors = after[after["event"] == "error"] if not after.empty else after
    if not errors.empty and (ends.empty or int(ends["line"].max()) < int(errors["line"].min())):
        e = errors.iloc[0]
        out.update(
            status=RunStatus.CRASHED,
            detail=f"after the last step ({last_step}, line {last_line}) the log ends in an error at line "
            f"{int(e['line'])}: {str(e['text']).strip()[:120]}",
        )
        return out

    # the last step the run plans: total - 1 when counting from 0; with a log interval above one the last
    # step may not be logged, so the run reached it when the next logged step would lie beyond it
    every = run.cadence or 1
    reached = total is not None and last_step + every - 1 >= total - (1 if basis == 0 else 0)
    if reached:
        out.update(
            status=RunStatus.COMPLETE, detail=f"the last step {last_step} reaches the planned {total} ({total_from})"
        )
    elif not ends.empty:
        e = ends.iloc[-1]
        out.update(
            status=RunStatus.COMPLETE,
            detail=f"the framework says training finished (line {int(e['line'])}: {str(e['text']).strip()[:80]})",
        )
    elif total is not None:
        out.update(
            status=RunStatus.INCOMPLETE,
            detail=f"the log stops at step {last_step} of {total} (line {last_line}) without an error: cut short, "
            "killed from outside, or still running",
        )
    else:
        out["detail"] = (
            "the log states no planned number of steps and no ending, so whether it finished is unknown"
        )
    return out
