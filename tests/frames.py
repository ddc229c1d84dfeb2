"""What the tests of the inferred reading look at in a frame (frame.assemble.ParsedLog): the frame of a log, its
step counters, the row of a line, its evaluation events."""

from __future__ import annotations

from logparse.frame.assemble import ParsedLog, parse_log
from logparse.patterns.sets import load_sets


def frame(path, without: str | None = None) -> ParsedLog:
    """The frame of a log; `without`: a set taken away, for a framework's format the shipped sets name (the
    reading of the same lines where no set knows them)."""
    sets = {name: ps for name, ps in load_sets().items() if name != without}
    return parse_log(str(path), sets)


def steps_of(parsed: ParsedLog) -> list[int]:
    rows = parsed.rows
    return [int(s) for s in rows.loc[rows["kind"] == "step", "step"]]


def row_at(parsed: ParsedLog, line: int) -> dict:
    rows = parsed.rows
    hit = rows[rows["line"] == line]
    assert len(hit) == 1, f"no single row at line {line}"
    return hit.iloc[0].to_dict()


def evals(parsed: ParsedLog) -> list[dict]:
    ev = parsed.events
    return [] if ev.empty else ev[ev["event"] == "eval"].to_dict("records")
