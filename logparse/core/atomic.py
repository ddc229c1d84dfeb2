"""Outputs that are whole or absent: each file is written to a temporary name in its own folder and renamed
into place (rename is atomic within one file system), so a process killed mid-write, a full disk or an
exception leaves the earlier file or none, never a cut one."""

from __future__ import annotations

import os
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import regex

from .errors import interrupted

# .report.1234.tmp.png: hidden, the writer's pid, the final suffix kept (matplotlib and pandas choose the
# format by it)
_TEMP = regex.compile(r"^\..+\.(\d+)\.tmp(?:\.[A-Za-z0-9]+)?$")


def temp_name(path: Path) -> Path:
    return path.with_name(f".{path.stem}.{os.getpid()}.tmp{path.suffix}")


@contextmanager
def staged() -> Iterator[Callable[[str | os.PathLike[str]], Path]]:
    """Several files replaced together: the block gets `stage(path) -> temporary path` and writes each; only
    when all are written are they renamed into place, in the order staged (put the file whose presence
    says "complete" last). On any error none is replaced and every temporary file is removed."""
    pending: list[tuple[Path, Path]] = []

    def stage(path: str | os.PathLike[str]) -> Path:
        final = Path(path)
        pending.append((temp_name(final), final))
        return pending[-1][0]

    try:
        yield stage
        interrupted()  # (a SIGTERM whose exception was lost: nothing is replaced)
        for tmp, final in pending:
            os.replace(tmp, final)
    except BaseException as exc:
        if isinstance(exc, OSError) and pending:
            # the file the user knows of, not its temporary name; when the error does not say (a write
            # through a file object), the one being written: the last staged
            named = {str(tmp): str(final) for tmp, final in pending}
            exc.filename = named.get(
                str(exc.filename), str(pending[-1][1]) if exc.filename is None else exc.filename
            )
        for tmp, _final in pending:
            try:
                tmp.unlink()
            except OSError:
                pass
        raise


@contextmanager
def replacing(path: str | os.PathLike[str]) -> Iterator[Path]:
    """Yield a temporary path beside `path`; once the block has written it without error, it replaces
    `path`. On any error (or interrupt) the temporary file is removed and `path` is left as it was: `staged`
    with one file."""
    with staged() as stage:
        yield stage(path)


def write_text(path: str | os.PathLike[str], text: str) -> None:
    with replacing(path) as tmp:
        tmp.write_text(text, encoding="utf-8")


def remove_leftovers(folder: str | os.PathLike[str]) -> int:
    """Remove the temporary files a killed writer left in `folder`; return how many. A file whose writer is
    alive is another process's work in progress (a second batch into the same --out), and stays."""
    removed = 0
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return 0
    for entry in entries:
        m = _TEMP.match(entry.name)
        if m and entry.is_file(follow_symlinks=False) and not _alive(int(m[1])):
            try:
                os.unlink(entry.path)
                removed += 1
            except OSError:
                pass
    return removed


def _alive(pid: int) -> bool:
    """Whether another process `pid` runs (this process's own files are never in flight when it cleans up)."""
    if pid == os.getpid() or pid <= 0 or sys.platform == "win32":  # (os.kill there would end the process)
        return False
    try:
        os.kill(pid, 0)  # signal 0: only asks whether it exists
    except PermissionError:
        return True  # another user's
    except (OSError, OverflowError):
        return False
    return True
