"""Errors a user can cause: each carries one sentence that says what went wrong and what to do."""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import partial
from typing import Any


class LogparseError(Exception):
    """A problem with the input or the options, reported as one line `error: ...`: exit 1, or 2 for a
    UsageError."""


class UsageError(LogparseError):
    """An option given a value it cannot take (out of range, not finite, a name nothing is known by) or
    options that cannot go together: on the command line a usage error, one line and exit 2 (click's
    convention). From a run folder's logparse.toml it is that run's error, as any other."""


class PatternError(LogparseError):
    """A pattern set that cannot be loaded or that misbehaves on a line."""


class UnrecognisedLog(LogparseError):
    """No pattern set recognises the log (`logparse patterns explain` then shows its line shapes)."""


class NotATrainingLog(UnrecognisedLog):
    """A document that quotes a few log lines (a README): `reason` says what was found in it."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.reason = reason


class NotText(LogparseError):
    """A file with no text to read (empty, NULs only, blank lines only, or binary): `reason` says which."""

    def __init__(self, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.reason = reason


class Interrupted(KeyboardInterrupt):
    """A signal that stops a command (SIGTERM, as Ctrl-C's SIGINT does): raised where it arrives, so that every
    temporary file and forked writer is cleaned up on the way out; the command then says which and exits
    128 + its number (the shell's convention for a process a signal ended)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


# The signals on_signal has handled while its block runs. CPython can lose the exception a handler raises (the
# handler runs inside C code that goes on as if nothing were raised: seen in matplotlib's font lookup, after which
# the command drew its report and waited for ever on its forked writer), so the waits and the final renames ask
# `interrupted` too.
_RECEIVED: list[int] = []


def on_signal(signum: int, frame: object) -> None:
    """A signal handler that raises Interrupted (and remembers the signal: `interrupted`)."""
    _RECEIVED.append(signum)
    raise Interrupted(signum)


def interrupted() -> None:
    """Raise Interrupted again for a signal already handled, in case its exception was lost on the way: called
    before a blocking wait and before outputs are renamed into place."""
    if _RECEIVED:
        raise Interrupted(_RECEIVED[-1])


@contextmanager
def on_sigterm(handler: Callable[[int, Any], None] = on_signal) -> Iterator[None]:
    """SIGTERM (`kill`, a job scheduler's stop) handled by `handler`, which raises, while the block runs: by
    default the signal ends the process at once, leaving its temporary files and forked writers behind. The
    handler before it is put back after. Only the main thread can handle a signal: elsewhere nothing changes."""
    try:
        before = signal.signal(signal.SIGTERM, handler)
    except ValueError:  # not the main thread
        yield
        return
    hook = sys.unraisablehook
    if handler is on_signal:
        sys.unraisablehook = partial(_quiet_if_interrupted, hook)
    try:
        yield
        interrupted()  # (a block that finished although a signal came: its exception was lost)
    finally:
        signal.signal(signal.SIGTERM, before)
        sys.unraisablehook = hook
        _RECEIVED.clear()


def _quiet_if_interrupted(hook: Callable[[Any], object], unraisable: Any) -> None:
    """An Interrupted that Python could not raise (the signal came while a finalizer ran: regex's Group.__del__)
    is not printed as "Exception ignored in ...": it is raised again where the command next waits
    (`interrupted`), which then says it in one line. Anything else goes to the hook before."""
    if isinstance(unraisable.exc_value, Interrupted):
        return
    hook(unraisable)


class OptionError(UsageError, TypeError):
    """An option of the wrong kind or out of range: a TypeError to Python code, one line to the CLI."""


# How messages name an option: `--seq-len` on the command line (cli.py sets it around every command),
# `seq_len` to Python code
_CLI: ContextVar[bool] = ContextVar("logparse_cli", default=False)


def flag(name: str, value: object = None) -> str:
    """Option `name` (an Options field) as the caller knows it: --seq-len in the CLI, seq_len in Python;
    with a value, `--gpus 8` or `gpus=8`."""
    if _CLI.get():
        named = "--" + name.replace("_", "-")
        return named if value is None else f"{named} {value}"
    return name if value is None else f"{name}={value}"


@contextmanager
def cli_names() -> Iterator[None]:
    """Within this block messages name options as CLI flags."""
    token = _CLI.set(True)
    try:
        yield
    finally:
        _CLI.reset(token)


def failure_text(exc: BaseException, where: str) -> str:
    """The one line that says why a run failed, wherever a run fails without stopping the others (`batch`,
    `analyze` of several logs): a user error as it says itself; a file that could not be read or written (a
    full disk) with its path, `where` when the error names none; anything else as the bug it is."""
    if isinstance(exc, LogparseError):
        return str(exc)
    if isinstance(exc, OSError):
        return f"{exc.filename or where}: {exc.strerror or exc}"
    if isinstance(exc, MemoryError):
        return "out of memory"
    return f"internal error: {type(exc).__name__}: {exc}"
