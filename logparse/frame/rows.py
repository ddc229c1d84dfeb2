"""Rows: what a matched line's values become before the frame files them.

Shared by the frame (one pass, record by record) and the parallel reader's workers (chunks.py), which build
runs of step rows in bulk: both must make the same row of the same line.
"""

from __future__ import annotations

import math
from typing import Any

from ..core.schema import Row
from ..patterns.sets import LineSpec, LineValues
from ..read.reader import Record


def prepare(spec: LineSpec, values: LineValues) -> tuple[list[str] | None, list[str] | None, list[tuple]]:
    """What a match noted beside its values: the problems (values that did not convert), the windowed
    columns, and the (group, printed key, column) triples a key map used."""
    problems = list(values.problems) or None
    windowed = list(values.windowed) or None
    used: list[tuple[str, str, str]] = []
    if values.mapped or values.kept or values.skipped:
        group = "facts" if spec.kind in ("config", "summary") else "mapped"
        for what, pairs in ((group, values.mapped), ("kept", values.kept), ("skipped", values.skipped)):
            used.extend((what, key, column) for key, column in pairs)
    return problems, windowed, used


def step_row(
    rec: Record,
    spec: LineSpec,
    values: Row,
    problems: list[str] | None,
    windowed: list[str] | None,
) -> Row:
    """The row a step or progress line makes (before attached values join it)."""
    row = {
        "kind": spec.kind,
        "pattern": spec.qualname,
        "line": rec.line,
        "rank": rec.rank,
        "host": rec.host,
    }
    if problems:
        row["malformed"] = True
    unread = {getattr(p, "column", None) for p in problems or ()}  # NaN because it did not convert
    nonfinite = [
        k for k, v in values.items() if isinstance(v, float) and not math.isfinite(v) and k not in unread
    ]
    if nonfinite:
        row["nonfinite"] = ",".join(nonfinite)  # NaN is otherwise indistinguishable from "not logged"
    row.update(values)
    if windowed:
        row["windowed"] = ",".join(windowed)
    return row


def event_row(spec: LineSpec, line: int, rank: Any, text: str, values: Row) -> Row:
    """The row an event line makes: its event, pattern, line, rank and first 200 characters, then its values
    (read in one pass, or by a range's reader for a block of them: chunks.Events)."""
    row = {"event": spec.event, "pattern": spec.qualname, "line": line, "rank": rank, "text": text[:200]}
    row.update(values)
    return row


def order_free(spec: LineSpec) -> bool:
    """An event, config or end-of-run line that joins no row and that no row joins: where it falls among
    the step rows changes nothing the assembler builds (only its line number places it), so a range may
    send it after the run of step rows it sits in instead of cutting that run in two."""
    return (
        spec.kind in ("event", "config", "summary")
        and spec.attach is None
        and spec.continues is None
        and not spec.guest
        and not spec.note
    )


def bulkable(spec: LineSpec) -> bool:
    """A step line whose row nothing but later lines' joins can change: it may be appended in bulk."""
    return (
        spec.kind in ("step", "progress")
        and spec.attach is None
        and spec.continues is None
        and not spec.list_columns
        and not spec.guest  # the script's prints beside a framework: each is kept or dropped by compose.settle
    )
