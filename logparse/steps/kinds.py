"""The words the outputs carry for kinds, phases and statuses, as Enums.

A `Word` is a `str`: it compares equal to its value, hashes like it, and is written as its value by
json, csv, pandas and f-strings, so summary.json, steps.csv, index.csv and the text summary read exactly
as they did when these were plain strings. The code compares members, not spelled-out strings.
"""

from __future__ import annotations

from enum import Enum


class Word(str, Enum):
    """An Enum whose members are the words written to the outputs."""

    def __str__(self) -> str:
        return self.value

    def __format__(self, spec: str) -> str:
        return format(self.value, spec)


class SegmentKind(Word):
    """How a stretch of the step counter begins (Segment.kind)."""

    START = "start"  # the first stretch of the file
    EPOCH = "epoch"  # the counter restarts each epoch
    RESTART = "restart"  # a later attempt of the same run resumed
    NEW_RUN = "new_run"  # another run appended to the same file


class RunStatus(Word):
    """Whether the run finished (summary.json's `run_status`; None when the log cannot say; phases/status.py
    decides it)."""

    COMPLETE = "complete"  # it reached its planned steps, or the framework says it finished
    INCOMPLETE = "incomplete"  # it stops before its planned steps without an error
    CRASHED = "crashed"  # the log ends in an error after the last step
    DIVERGED = "diverged"  # the loss or gradient norm went NaN or infinite
