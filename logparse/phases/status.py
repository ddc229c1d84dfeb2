"""Run status: did the run finish, stop early, crash or diverge?

Rules, first that holds:
- `diverged`: the loss or gradient norm goes NaN or infinite and stays so: the last step that logs either
  logs it non-finite (the run stops on it, or goes on without a finite one again; dgxc-benchmarking's llmb-run
  marks a run invalid at its first `grad norm: nan`). A non-finite step the run recovers from, or one the
  framework stepped over (flagged `skipped_nan`: Megatron-LM's skipped NaN iterations) before going on, is a
  flagged step, not a divergence.
- `crashed`: an error line (traceback, NCCL error or timeout, out of memory, Xid) comes after the last step,
  with no end-of-training line after it.
- `complete`: the last step reached the planned total (`iteration 50/50`, `train_iters`, HF's max steps), or
  the framework printed its end-of-training line after the last step.
- `incomplete`: the planned total is known and the log stops before it, without an error.
- otherwise `null`: the log states no planned total and no ending, so it cannot be known.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pandas as pd

from ..core.summary_types import StatusPart
from ..steps.kinds import RunStatus, SegmentKind
from ..steps.run import Run
from ..steps.stepframe import flagged


def planned_steps(run: Run) -> tuple[int | None, str | None]:
    """The planned number of optimizer steps and where it was read."""
    iters = run.facts.get("train_iters")
    steps = run.steps
    # a plan the steps pass is not this counter's (a phase's `Training for 100 steps.` beside a counter of
    # environment steps): the run's end is then judged without it
    if iters is not None and iters.value and int(steps["step"].max()) <= int(iters.value):
        return int(iters.value), f"train_iters ({iters.source})"
    per_epoch = any(s.kind == SegmentKind.EPOCH for s in run.segments)
    if not per_epoch and "progress_total" in steps and steps["progress_total"].notna().any():
        return int(steps["progress_total"].dropna().iloc[-1]), "the step counter's total (n/total)"
    return None, None


@dataclass
class Status:
    """Whether the run finished, and how that is known (summary.json's `status_detail`, `run_status`)."""

    status: RunStatus | None  # None: the log cannot say
    detail: str
    planned_steps: int | None
    planned_from: str | None
    last_step: int

    def as_dict(self) -> StatusPart:
        """The summary's `status_detail`, keys in the order it has always had."""
        return {
            "status": self.status,
            "detail": self.detail,
            "planned_steps": self.planned_steps,
            "planned_from": self.planned_from,
            "last_step": self.last_step,
        }


def run_status(run: Run, basis: int | None) -> StatusPart:
    """status_of as the summary's `status_detail` dict."""
    return status_of(run, basis).as_dict()


def status_of(run: Run, basis: int | None) -> Status:
    """Diverged (a NaN loss or gradient norm), else crashed (an error after the last step and no end
    after it), else complete, incomplete or unknown against the planned steps and the log's end marks."""
    steps = run.steps
    last_step = int(steps["step"].iloc[-1])
    last_line = int(steps["line"].max())
    total, total_from = planned_steps(run)
    events = run.parsed.events
    after = events[events["line"] > last_line] if not events.empty else events
    ends = after[after["event"] == "end"] if not after.empty else after
    errors = after[after["event"] == "error"] if not after.empty else after
    status, detail = (
        _diverged(steps)
        or _crashed(errors, ends, last_step, last_line)
        or _finished(ends, last_step, last_line, total, total_from, run.cadence, basis)
    )
    return Status(status, detail, total, total_from, last_step)


def _diverged(steps: pd.DataFrame) -> tuple[RunStatus, str] | None:
    """The non-finite loss or gradient norm the run ends on: from the first step of the last stretch of them
    to the last step that logs either, when that one is non-finite (or a skipped NaN); None when the run
    logs a finite one after them (it recovered, or stepped over them)."""
    loss = flagged(steps, "nonfinite_loss")
    bad = loss | flagged(steps, "nonfinite_grad_norm", "skipped_nan")
    if not bad.any():
        return None
    told = bad.copy()  # the steps that say how the loss or the gradient fared
    for col in ("loss", "grad_norm"):
        if col in steps:
            told |= steps[col].notna().to_numpy()
    at = np.flatnonzero(told)
    if not bad[at[-1]]:
        return None
    finite = at[~bad[at]]
    start = int(at[at > finite[-1]][0]) if len(finite) else int(at[0])
    first = steps.iloc[start]
    what = "loss" if loss[start] else "gradient norm"
    return RunStatus.DIVERGED, (
        f"the {what} is NaN or infinite at step {int(first['step'])} (line {int(first['line'])}) and no later "
        f"step logs a finite one; {int(bad[start:].sum())} step(s) in all"
    )


def _crashed(
    errors: pd.DataFrame, ends: pd.DataFrame, last_step: int, last_line: int
) -> tuple[RunStatus, str] | None:
    """An error after the last step, with no end mark after it."""
    if errors.empty or not (ends.empty or int(ends["line"].max()) < int(errors["line"].min())):
        return None
    e = errors.iloc[0]
    return RunStatus.CRASHED, (
        f"after the last step ({last_step}, line {last_line}) the log ends in an error at line "
        f"{int(e['line'])}: {str(e['text']).strip()[:120]}"
    )


def _finished(
    ends: pd.DataFrame,
    last_step: int,
    last_line: int,
    total: int | None,
    total_from: str | None,
    cadence: int | None,
    basis: int | None,
) -> tuple[RunStatus | None, str]:
    """Complete (the planned steps reached, or the framework's end mark), incomplete, or unknown."""
    # the last step the run plans: total - 1 when counting from 0; with a log interval above one the last
    # step may not be logged, so the run reached it when the next logged step would lie beyond it
    every = cadence or 1
    if total is not None and last_step + every - 1 >= total - (1 if basis == 0 else 0):
        return RunStatus.COMPLETE, f"the last step {last_step} reaches the planned {total} ({total_from})"
    if not ends.empty:
        e = ends.iloc[-1]
        return RunStatus.COMPLETE, (
            f"the framework says training finished (line {int(e['line'])}: {str(e['text']).strip()[:80]})"
        )
    if total is not None:
        return RunStatus.INCOMPLETE, (
            f"the log stops at step {last_step} of {total} (line {last_line}) without an error: cut short, "
            "killed from outside, or still running"
        )
    return None, "the log states no planned number of steps and no ending, so whether it finished is unknown"
