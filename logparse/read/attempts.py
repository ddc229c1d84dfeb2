"""Attempts of one job: the logs in a run folder that one training job wrote across restarts
(`train-0.log`, `train-1.log`; `slurm-1234.out`, `slurm-1300.out`; `log.txt`, `log.txt.1`), in the order they ran."""

from __future__ import annotations

import os
from datetime import datetime
from itertools import islice
from pathlib import Path

import regex

from ..core.errors import LogparseError
from .reader import read_records

# `<base><sep><number>[.log|.txt|.out|.err][.gz|...]`: train-0.log, slurm-1234.out, log.txt.1
_ATTEMPT = regex.compile(
    r"^(?P<base>.+?)[-_.](?P<n>\d+)(?P<ext>\.(?:log|txt|out|err))?(?P<z>\.(?:gz|bz2|xz|zst))?$"
)
_STAMP = regex.compile(r"(?<!\d)(\d{4})[-/](\d{2})[-/](\d{2})[ T_](\d{2}):(\d{2}):(\d{2})(?!\d)")
STAMP_RECORDS = 5000  # how far into a file to look for its first timestamp


def attempt_key(path: Path) -> tuple[str, int | None]:
    """The job a log belongs to (its name without the attempt number) and its attempt number, if any."""
    m = _ATTEMPT.match(path.name)
    if m is None:
        return path.name, None
    return m["base"] + (m["ext"] or ""), int(m["n"])


def first_timestamp(path: Path) -> datetime | None:
    """The first date-and-time printed in the log (`2024-09-03 15:54:08`), or None."""
    try:
        for rec in islice(read_records(str(path)), STAMP_RECORDS):
            m = _STAMP.search(rec.text)
            if m is not None:
                try:
                    return datetime(*(int(g) for g in m.groups()))  # type: ignore[arg-type]
                except ValueError:
                    continue
    except LogparseError:
        return None
    return None


def in_time_order(paths: list[Path]) -> list[Path]:
    """Attempts ordered by the first timestamp in each file when every file has one, else by their
    number (the unnumbered file first), else by modification time."""
    stamps = [first_timestamp(p) for p in paths]
    if all(s is not None for s in stamps):
        return [p for _, p in sorted(zip(stamps, paths, strict=True), key=lambda sp: (sp[0], str(sp[1])))]
    numbers = [attempt_key(p)[1] for p in paths]
    if len({n for n in numbers if n is not None}) == sum(n is not None for n in numbers):
        return sorted(paths, key=lambda p: (-1 if attempt_key(p)[1] is None else attempt_key(p)[1], p.name))
    return sorted(paths, key=lambda p: (os.stat(p).st_mtime_ns, p.name))


def group_attempts(logs: list[Path]) -> list[list[Path]]:
    """The logs grouped into runs: files in one folder that differ only by an attempt number are one
    run, in time order; every other file is a run of its own. Groups come in the order of their first file."""
    groups: dict[tuple[Path, str], list[Path]] = {}
    for p in logs:
        base, _ = attempt_key(p)
        groups.setdefault((p.parent, base), []).append(p)
    out: list[list[Path]] = []
    for members in groups.values():
        numbered = [p for p in members if attempt_key(p)[1] is not None]
        if len(members) < 2 or not numbered:
            out.extend([p] for p in members)
        else:
            out.append(in_time_order(members))
    return sorted(out, key=lambda g: min(str(p) for p in g))
