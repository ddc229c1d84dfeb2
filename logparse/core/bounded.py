"""Reading the small files a user or a library wrote beside a run (pattern sets, key maps, a logparse.toml, a run
folder's JSON and YAML) within bounds: a regular file only, at most so many bytes, nested at most so deep.

A name ending in `.toml` or `.json` may be a FIFO (opening it waits for a writer: the batch hangs), a device
(`/dev/zero` never ends) or a file of gigabytes; a JSON or YAML file nested a few thousand levels deep makes a
recursive reader raise RecursionError, and YAML's aliases can make a small file stand for billions of values.
Each is refused here with the reason in words, before it costs more than the limit.
"""

from __future__ import annotations

import os
import stat
from typing import Any, BinaryIO

MIB = 1 << 20
# without blocking (a FIFO would wait for a writer), in binary (no newline translation, on Windows)
_FLAGS = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | getattr(os, "O_BINARY", 0)


class FileRefused(Exception):
    """A file not read, and why (`reason`: words for a message, without the file's content)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def open_bounded(path: str | os.PathLike[str], limit: int) -> BinaryIO:
    """The regular file at `path` opened for reading, when it holds at most `limit` bytes: FileRefused
    otherwise (checked as read_bounded does), for a reader that streams it."""
    fd = os.open(path, _FLAGS)
    try:
        _check(os.fstat(fd), limit)
        if hasattr(os, "O_NONBLOCK"):  # (no such flag, nor set_blocking before 3.12, on Windows)
            os.set_blocking(fd, True)
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _check(st: os.stat_result, limit: int) -> None:
    if not stat.S_ISREG(st.st_mode):
        raise FileRefused(f"not a regular file ({file_kind(st.st_mode)})")
    if st.st_size > limit:
        raise FileRefused(f"{size_text(st.st_size)}, more than the {size_text(limit)} logparse reads of it")


def read_bounded(path: str | os.PathLike[str], limit: int) -> bytes:
    """The bytes of the regular file at `path` (links followed), at most `limit` of them: FileRefused for
    anything else, OSError when it cannot be opened. Opened without blocking, so a FIFO is refused at once
    instead of waiting for a writer; the kind and the size are those of the file opened, not of a name that
    may have been swapped since it was looked at."""
    fd = os.open(path, _FLAGS)
    try:
        _check(os.fstat(fd), limit)
        chunks, got = [], 0
        while got <= limit:  # a file that grows while it is read is cut off at the limit too
            chunk = os.read(fd, min(limit + 1 - got, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            got += len(chunk)
        if got > limit:
            raise FileRefused(f"more than the {size_text(limit)} logparse reads of it")
        return b"".join(chunks)
    finally:
        os.close(fd)


def size_text(n: int) -> str:
    """A size in words: 64 MiB, 300 MB, 1,048,700 bytes (exact below 10 MB, where a rounded figure could read as
    the limit it exceeds)."""
    if n >= MIB and n % MIB == 0:
        return f"{n // MIB} MiB"
    if n >= 10**7:
        return f"{n / 10**6:.0f} MB"
    return f"{n:,} bytes"


def file_kind(mode: int) -> str:
    """What a file that is no regular file is, in words (from its st_mode)."""
    if stat.S_ISFIFO(mode):
        return "a FIFO"
    if stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        return "a device"
    if stat.S_ISDIR(mode):
        return "a folder"
    if stat.S_ISSOCK(mode):
        return "a socket"
    return "not a file"


def check_nesting(data: Any, depth: int, values: int) -> None:
    """FileRefused when `data` (as json or yaml read it) nests lists and tables deeper than `depth` levels or
    holds more than `values` values, counted as a reader that walks it would meet them (a YAML alias counts each
    time it is used). Walked without recursion, so the check itself cannot run out of stack."""
    stack = [(data, 1)]
    seen = 0
    while stack:
        item, level = stack.pop()
        seen += 1
        if seen > values:
            raise FileRefused(f"more than {values:,} values")
        if isinstance(item, dict):
            children: Any = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if level > depth:
            raise FileRefused(f"nested deeper than {depth} levels")
        stack.extend((child, level + 1) for child in children)
