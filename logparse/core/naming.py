"""Run names: what a log is called in output folders, the batch index and comparison legends."""

from __future__ import annotations

import os
import re
from pathlib import Path

LOG_EXTENSIONS = (".gz", ".bz2", ".xz", ".zst", ".log", ".txt", ".out")


_UNSAFE = re.compile(r"[\x00-\x1f\x7f/\\]")


def safe_name(name: str) -> str:
    """A name that is one folder inside the output folder and one line of text: no path separator, control
    character or newline (each becomes `_`), bytes that are not UTF-8 shown as U+FFFD (a name read with
    surrogate escapes, `caf\\xe9.log`), and never `.` or `..` (a log named `...log` wrote into the parent of
    --out): those become `run`."""
    name = name.encode("utf-8", "surrogateescape").decode("utf-8", "replace")
    name = _UNSAFE.sub("_", name)
    return "run" if not name.strip(".") else name


def run_name(path: str | os.PathLike[str]) -> str:
    """A log's file name without its log and compression extensions (`train.log.gz` -> `train`), made safe."""
    name = Path(path).name
    for ext in LOG_EXTENSIONS:
        if name.endswith(ext):
            name = name[: -len(ext)]
    return safe_name(name)


def run_names(
    paths: list[str | os.PathLike[str]],
    jobs: set[int] | frozenset[int] = frozenset(),
    root: str | os.PathLike[str] | None = None,
) -> list[str]:
    """One name per log, distinct: the file's name, and where several logs share one, the folders that tell
    them apart (under their common folder) joined before it: runs/a/train.log, runs/b/train.log -> a_train,
    b_train. The CLI's analyze, batch and compare all name runs this way.

    `jobs`: the indices of paths that stand for the attempts of one job (folder/job name without the
    attempt number): the scheduler named those files (slurm-1234.out, slurm-1300.out), the user named the
    folder, so the folder is kept (jobx/slurm -> jobx_slurm) unless it is `root` (the batch folder itself)."""
    # absolute, links not followed: a run is named after the path it was given (latest.log -> job42/train.log
    # is `latest`), not after what a link points at
    resolved = [Path(os.path.abspath(p)) for p in paths]
    top = Path(os.path.abspath(root)) if root is not None else None
    names = [run_name(p) for p in resolved]
    # where a name is told apart from: a job named with its folder is told apart by the folders above it
    where = [p.parent for p in resolved]
    for i in jobs:
        if resolved[i].parent != top and resolved[i].parent.name:
            names[i] = safe_name(f"{resolved[i].parent.name}_{names[i]}")
            where[i] = resolved[i].parent.parent
    out = list(names)
    for name in set(names):
        same = [i for i, n in enumerate(names) if n == name]
        if len(same) < 2:
            continue
        common = Path(os.path.commonpath([str(where[i]) for i in same]))
        for i in same:
            parts = where[i].relative_to(common).parts
            out[i] = safe_name("_".join([*parts, name])) if parts else name
    return out
