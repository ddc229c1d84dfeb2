"""Drawing a report in another process (fork): `Drawer`, forked when `analyze` starts, imports matplotlib while
the log is read and draws a small run's report from the figures it is sent (figdata.ReportData: numbers, so it
never imports pandas, and it is forked before pandas is imported); `apart` runs one call in a fork (a large
run's report, or half of its steps.csv, while this process writes the rest). A failure there is raised here as
the same exception. No pandas and no matplotlib are imported by this module."""

from __future__ import annotations

import ctypes
import gc
import os
import pickle
import signal
import threading
from collections.abc import Callable
from typing import Any

from ..core.collector import settle
from ..core.errors import LogparseError, interrupted
from .figdata import ReportData


def may_fork() -> bool:
    """Forking is possible and safe here: a fork of a process with other threads may inherit a lock one of
    them held."""
    return hasattr(os, "fork") and threading.active_count() == 1


def apart(fn: Callable[..., None], *args: Any) -> Child | None:
    """Start `fn(*args)` in a forked process; returns the child, whose call waits for it and raises its error here
    (the same exception, an OSError with its file name, when it can be pickled). None where forking is unsafe or
    impossible (no fork, other threads running): the caller then calls `fn` itself."""
    if not may_fork():
        return None
    read_end, write_end = os.pipe()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child (its coverage is not collected)
        # no collection here: one would write to every object the parent made (a page copied for each), and
        # the child ends when the report is drawn
        gc.disable()
        os.close(read_end)
        _child_runs(lambda: fn(*args), write_end, parent)
    os.close(write_end)
    return Child(pid, read_end)


class Child:
    """A process `apart` or a Drawer started: called, waits for it (its error raised here); `stop` ends it unwaited
    for, at any point (an interrupt while it is waited for too), and is harmless once it has ended."""

    def __init__(self, pid: int, reply: int) -> None:
        self.pid, self.reply = pid, reply
        self.reaped = False

    def __call__(self) -> None:
        interrupted()  # (before the wait: a lost SIGTERM would leave it waiting on a writer that never ends)
        reply, self.reply = self.reply, None
        if reply is None:
            return
        with os.fdopen(reply, "rb") as fh:
            message = fh.read()
        _, status = os.waitpid(self.pid, 0)
        self.reaped = True
        _raise_from(message, status)

    def stop(self) -> None:
        if self.reaped:
            return
        try:
            os.kill(self.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        if self.reply is not None:
            os.close(self.reply)
            self.reply = None
        os.waitpid(self.pid, 0)
        self.reaped = True


def _child_runs(
    job: Callable[[], None], reply: int, parent: int
) -> None:  # pragma: no cover - runs in the child
    """Run `job` and end the process: exit 0, or 1 with the exception pickled on `reply`. The child ends with
    `parent`, the process that forked it, whatever ends that (_ends_with)."""
    _ends_with(parent)
    code = 0
    try:
        job()
    except BaseException as exc:  # noqa: BLE001 - every failure goes back to the parent
        try:
            message = pickle.dumps(exc)
        except Exception:  # noqa: BLE001
            message = pickle.dumps(RuntimeError(f"{type(exc).__name__}: {exc}"))
        try:
            with os.fdopen(reply, "wb") as fh:
                fh.write(message)
        except OSError:
            pass
        code = 1
    os._exit(code)


# prctl(2)'s option: the signal the kernel sends a process when the thread that forked it ends
PR_SET_PDEATHSIG = 1


def _ends_with(parent: int) -> None:  # pragma: no cover - runs in the child
    """Ask the kernel to kill this child when its parent ends (Linux: prctl(PR_SET_PDEATHSIG, SIGKILL)): a signal
    that stops the command between a fork and the moment it keeps the child (a SIGTERM right after os.fork
    returned) would otherwise leave the child running alone, a writer holding its half-written file for minutes.
    Where there is no prctl (macOS) the parent's own cleanup is all there is. A parent that ended before the request
    ends the child now."""
    try:
        prctl = ctypes.CDLL(None, use_errno=True).prctl
    except (OSError, AttributeError):
        return
    prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:
        os._exit(1)


def _raise_from(message: bytes, status: int) -> None:
    """The error a child of apart or Drawer sent, raised here; or how it ended, if it sent none and failed."""
    if message:
        raise pickle.loads(message)
    if status != 0:
        raise LogparseError(f"drawing the report stopped ({_ended(status)})")


class Drawer:
    """A process forked when `analyze` starts, before pandas is imported, which imports the drawing code
    (matplotlib: a third of a small log's analysis) while this one imports pandas and reads the log, then draws
    the report whose figures it is sent.

    Made by `start` (None where forking is unsafe). Exactly one of `draw` (returns the call that waits for the
    report) or `close` (nothing to draw: the process is ended) is called; `close` after `draw` is
    harmless."""

    def __init__(self, pid: int, send: int, reply: int) -> None:
        self.pid, self.send, self.reply = pid, send, reply
        self.used = False

    @classmethod
    def start(cls) -> Drawer | None:
        if not may_fork():
            return None
        to_child, send = os.pipe()
        reply, from_child = os.pipe()
        parent = os.getpid()
        pid = os.fork()
        if pid == 0:  # pragma: no cover - the child
            os.close(send)
            os.close(reply)
            _child_runs(lambda: _draw_when_sent(to_child), from_child, parent)
        os.close(to_child)
        os.close(from_child)
        return cls(pid, send, reply)

    def draw(self, figures: ReportData, path: Any, thumb: Any = None) -> Child | None:
        """Send the report's figures (gather.report_data); returns the child, whose call waits for report.png (and
        its thumbnail at `thumb`, when given; None when they cannot be pickled: the caller draws it itself)."""
        try:
            message = pickle.dumps((figures, path, thumb), protocol=pickle.HIGHEST_PROTOCOL)
        except Exception:  # noqa: BLE001 - anything unpicklable: drawn here instead
            self.close()
            return None
        self.used = True
        try:
            with os.fdopen(self.send, "wb") as fh:
                fh.write(message)
        except OSError:  # the child is gone (it failed to start): drawn here instead
            os.close(self.reply)
            os.waitpid(self.pid, 0)
            return None
        return Child(self.pid, self.reply)

    def close(self) -> None:
        """Nothing to draw: the child, which has written nothing, is ended rather than waited for while it
        imports the drawing code (a second and more, on every refused option or unreadable log), and not left to
        read the end of its pipe and exit: a process forked after it, steps.csv's writer, holds that pipe open
        too, and an interrupt closes this one while it runs."""
        if self.send < 0:
            return
        if not self.used:
            try:
                os.kill(self.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            os.close(self.send)
            os.close(self.reply)
            os.waitpid(self.pid, 0)
        self.send = -1


def _draw_when_sent(source: int) -> None:  # pragma: no cover - runs in the child
    from . import plots  # the slow import, while the parent imports pandas and reads the log

    settle()

    with os.fdopen(source, "rb") as fh:
        message = fh.read()
    if message:
        figures, path, thumb = pickle.loads(message)
        plots.plot_report(figures, path, thumb=thumb)


def _ended(status: int) -> str:
    if os.WIFSIGNALED(status):
        return f"signal {os.WTERMSIG(status)}"
    return f"exit {os.WEXITSTATUS(status)}"
