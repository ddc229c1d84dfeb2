"""Run names: what a log is called in output folders, the batch index and comparison legends."""

from __future__ import annotations

import hashlib
import os
import re
from collections.abc import Iterable
from pathlib import Path

LOG_EXTENSIONS = (".gz", ".bz2", ".xz", ".zst", ".log", ".txt", ".out")


_UNSAFE = re.compile(r"[\x00-\x1f\x7f/\\]")
# a name's UTF-8 bytes at most: file systems take 255 for one name (NAME_MAX), and a run's folder holds its
# files' temporary names (`.summary.<pid>.tmp.json`) beside it; a longer name keeps its start and a digest
NAME_BYTES = 120


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
    return safe_name(_stem(Path(path).name))


def _stem(name: str) -> str:
    for ext in LOG_EXTENSIONS:
        if name.endswith(ext):
            name = name[: -len(ext)]
    return name


def run_names(
    paths: list[str | os.PathLike[str]],
    jobs: set[int] | frozenset[int] = frozenset(),
    root: str | os.PathLike[str] | None = None,
    reserved: Iterable[str] = (),
) -> list[str]:
    """One name per log, distinct (also when case is ignored: some file systems fold it) and none of
    `reserved` (the files a batch writes beside its runs' folders): the shortest that tells the runs apart,
    each step taken only by the names that still clash:

    1. the file's name without its extensions: `runs/a/train.log` -> `train`;
    2. the folders that tell the clashing ones apart (under their common folder) joined before it:
       runs/a/train.log, runs/b/train.log -> a_train, b_train;
    3. the extensions kept: b/train.log, b/train.txt -> b_train.log, b_train.txt; `x.log` beside `x.log.gz`;
       `index.html.log` (a batch's index.html is reserved);
    4. six hex digits of the path (relative to `root`, else to the logs' common folder) after it: names made
       the same by the characters a name cannot hold (`x\\ny.log` beside `x_y.log`), or by case.

    The same path given twice is `-2`, `-3` the later times. The names depend only on the paths, so a batch
    run again over the same folder writes to the same folders. The CLI's analyze, batch and compare all name
    runs this way.

    `jobs`: the indices of paths that stand for the attempts of one job (folder/job name without the
    attempt number): the scheduler named those files (slurm-1234.out, slurm-1300.out), the user named the
    folder, so the folder is kept (jobx/slurm -> jobx_slurm) unless it is `root` (the batch folder itself)."""
    # absolute, links not followed: a run is named after the path it was given (latest.log -> job42/train.log
    # is `latest`), not after what a link points at
    resolved = [Path(os.path.abspath(p)) for p in paths]
    first: dict[tuple[Path, bool], int] = {}
    for i, p in enumerate(resolved):
        first.setdefault((p, i in jobs), i)
    unique = sorted(first.values())
    top = Path(os.path.abspath(root)) if root is not None else _common([p.parent for p in resolved])
    named = dict(zip(unique, _distinct([resolved[i] for i in unique], [i in jobs for i in unique], top,
                                       {r.casefold() for r in reserved}), strict=True))  # fmt: skip
    out = []
    again: dict[int, int] = {}
    for i, p in enumerate(resolved):
        k = first[(p, i in jobs)]
        again[k] = again.get(k, 0) + 1
        out.append(named[k] if again[k] == 1 else f"{named[k]}-{again[k]}")
    return out


def _distinct(resolved: list[Path], job: list[bool], top: Path, taken: set[str]) -> list[str]:
    """run_names' steps over paths that differ."""
    names = [run_name(p) for p in resolved]
    files = [safe_name(p.name) for p in resolved]  # step 3: the file's whole name
    # where a name is told apart from: a job named with its folder is told apart by the folders above it
    where = [p.parent for p in resolved]
    for i, p in enumerate(resolved):
        if job[i] and p.parent != top and p.parent.name:
            names[i] = safe_name(f"{p.parent.name}_{names[i]}")
            files[i] = safe_name(f"{p.parent.name}_{files[i]}")
            where[i] = p.parent.parent
    names = [_fit(n, p, top) for n, p in zip(names, resolved, strict=True)]
    step = [1] * len(names)
    prefix = [""] * len(names)
    for _ in range(3):
        clashes = _clashes(names, taken)
        for group in clashes:
            common = _common([where[i] for i in group])
            for i in group:
                step[i] += 1
                if step[i] == 2:  # the folders that tell them apart
                    prefix[i] = "".join(f"{safe_name(part)}_" for part in _relative(where[i], common))
                    name = prefix[i] + names[i]
                elif step[i] == 3:  # the extensions
                    name = prefix[i] + files[i]
                else:  # the path's digest
                    name = f"{names[i]}-{_digest(resolved[i], top)}"
                names[i] = _fit(name, resolved[i], top)
    for group in _clashes(names, taken):  # (only names made to clash on purpose come here)
        for k, i in enumerate(group, start=1):
            names[i] = f"{names[i]}-{k}"
    return names


def _clashes(names: list[str], taken: set[str]) -> list[list[int]]:
    """The indices of names that are the same when case is ignored (or that are a reserved name), by name."""
    by: dict[str, list[int]] = {}
    for i, n in enumerate(names):
        by.setdefault(n.casefold(), []).append(i)
    return [group for key, group in by.items() if len(group) > 1 or key in taken]


def _common(folders: list[Path]) -> Path:
    try:
        return Path(os.path.commonpath([str(f) for f in folders])) if folders else Path("/")
    except ValueError:  # paths on different drives (Windows)
        return Path(folders[0].anchor)


def _relative(path: Path, common: Path) -> tuple[str, ...]:
    try:
        return path.relative_to(common).parts
    except ValueError:
        return path.parts[1:]


def _digest(path: Path, top: Path) -> str:
    """Six hex digits of the path relative to the batch folder: the same wherever the folder is."""
    rel = "/".join(_relative(path, top)) or path.name
    return hashlib.sha256(rel.encode("utf-8", "surrogateescape")).hexdigest()[:6]


def _fit(name: str, path: Path, top: Path) -> str:
    """A name of at most NAME_BYTES bytes: a longer one keeps its start and the path's digest."""
    if len(name.encode("utf-8")) <= NAME_BYTES:
        return name
    cut = name.encode("utf-8")[: NAME_BYTES - 8].decode("utf-8", "ignore")
    return f"{cut}-{_digest(path, top)}"
