"""`logparse analyze` stopped by SIGTERM (`kill`, a scheduler's stop) cleans up and says so in one line.

SIGTERM's default action ended the process at once: its `.steps.PID.tmp.csv` stayed behind, the forked process
writing it went on alone, and nothing was said. Now the signal is raised where it arrives, as Ctrl-C is: the
forked writers are stopped, every temporary file removed, and the command prints `error: interrupted (SIGTERM)`
and exits 143 (128 + 15, as a shell reports a process a signal ended).
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from logparse.core.atomic import staged
from logparse.core.errors import Interrupted, on_sigterm
from logparse.report.drawing import Child

from .conftest import SAMPLES
from .test_batch_faults import _children, _gone

# analyze with steps.csv written by a forked writer (StepsAhead) that holds its file open, half written, until it
# is stopped: the moment a SIGTERM finds a large run's analysis in
SLOW_WRITER = """
import sys, time
from logparse.report import outputs
outputs.DRAW_APART_ROWS = 10
def slow(frame, path, *args, **kwargs):
    with open(path, "w") as fh:
        fh.write("step,loss\\n")
        fh.flush()
        time.sleep(300)
outputs.write_steps = slow
from logparse.cli import cli
cli(sys.argv[1:], prog_name="logparse")
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_sigterm_mid_write_removes_the_temporary_files_stops_the_writer_and_says_so(tmp_path):
    out, errors = tmp_path / "out", tmp_path / "stderr.txt"
    with open(errors, "w") as err:  # (a file, not a pipe: a writer left running would hold a pipe open)
        proc = subprocess.Popen(
            [sys.executable, "-c", SLOW_WRITER, "analyze", str(SAMPLES / "megatron_llama2-7b_8xh100.log"), "--hw",
             "h100", "--out", str(out)],
            stdout=subprocess.DEVNULL,
            stderr=err,
        )  # fmt: skip
    children: set[int] = set()
    try:
        end = time.monotonic() + 120
        while time.monotonic() < end and not list(out.glob(".steps.*.tmp.csv")):
            assert proc.poll() is None, errors.read_text()
            time.sleep(0.05)
        assert list(out.glob(".steps.*.tmp.csv")), "the writer never started"
        children = _children(proc.pid)
        assert children, "no forked writer"
        proc.send_signal(signal.SIGTERM)
        proc.wait(timeout=60)
        assert _gone(children), f"the writer {children} outlived the command"
    finally:
        for pid in children | _children(proc.pid):  # never leave a writer behind, whatever failed
            try:
                os.kill(pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
        proc.kill()
        proc.wait()
    assert proc.returncode == 128 + signal.SIGTERM
    stderr = errors.read_text()
    assert stderr.splitlines() == ["error: interrupted (SIGTERM)"], stderr[-2000:]
    left = sorted(p.name for p in out.iterdir()) if out.exists() else []
    assert left == []  # no temporary file, no half-written output


def _sigterm_lost() -> None:
    """A SIGTERM handled while the block runs whose exception never reaches the caller, as CPython loses one
    raised inside some C code (a command then went on, drew its report and waited for ever on its writer)."""
    try:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # (the handler raises here, at the latest)
    except Interrupted:
        return
    raise AssertionError("the handler never ran")


def test_a_sigterm_whose_exception_was_lost_renames_nothing_into_place(tmp_path):
    target = tmp_path / "summary.json"
    with pytest.raises(Interrupted), on_sigterm():
        _sigterm_lost()
        with staged() as stage:
            stage(target).write_text("{}")
    assert sorted(tmp_path.iterdir()) == []


def test_a_sigterm_whose_exception_was_lost_stops_the_wait_for_a_forked_writer():
    # a process that holds its reply pipe open for 30 s, as a forked writer does while it writes (without the
    # check the wait ends when it does, and the test fails)
    proc = subprocess.Popen(["sleep", "30"], stdout=subprocess.PIPE)
    child = Child(proc.pid, os.dup(proc.stdout.fileno()))
    proc.stdout.close()
    try:
        with pytest.raises(Interrupted), on_sigterm():
            _sigterm_lost()
            child()
    finally:
        child.stop()
        proc.returncode = -signal.SIGKILL  # (Child ended and reaped it: Popen must not wait for it)


def test_a_block_that_ends_after_a_lost_sigterm_still_says_interrupted():
    with pytest.raises(Interrupted) as caught, on_sigterm():
        _sigterm_lost()
    assert caught.value.signum == signal.SIGTERM
    with on_sigterm():  # (the next command starts afresh)
        pass


class _SignalledInAFinalizer:
    """An object whose finalizer is running when SIGTERM comes: Python cannot raise from a finalizer and prints
    "Exception ignored in ..." instead (seen with regex's Group.__del__ while analyze drew its report)."""

    def __del__(self) -> None:
        os.kill(os.getpid(), signal.SIGTERM)
        time.sleep(5)  # (the handler runs here)


class _FailsInAFinalizer:
    def __del__(self) -> None:
        raise ValueError("a finalizer's own error")


def test_a_sigterm_in_a_finalizer_prints_no_traceback_and_still_stops(monkeypatch):
    printed = []  # what Python hands to sys.unraisablehook, which prints "Exception ignored in ..."
    monkeypatch.setattr(sys, "unraisablehook", printed.append)
    with pytest.raises(Interrupted), on_sigterm():
        _SignalledInAFinalizer()  # (collected at once: its finalizer runs here)
    assert printed == []
    with on_sigterm():  # any other error of a finalizer is printed as before
        _FailsInAFinalizer()
    assert [type(u.exc_value) for u in printed] == [ValueError]
    assert sys.unraisablehook == printed.append  # (put back)


# a command that forks a writer with `apart` and is then killed outright (SIGKILL: no handler runs, nothing is
# stopped): the kernel ends the child with it
KILLED_PARENT = """
import os, signal, sys, time
from logparse.report import drawing
child = drawing.apart(time.sleep, 300)
assert child is not None, "no fork here"
print(child.pid, flush=True)
time.sleep(0.5)  # (the child has asked to end with its parent by now)
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.skipif(not Path("/proc/self/task").is_dir(), reason="reads /proc (Linux)")
def test_a_forked_child_ends_with_a_parent_killed_outright():
    proc = subprocess.run([sys.executable, "-c", KILLED_PARENT], capture_output=True, text=True, timeout=60)
    assert proc.returncode == -signal.SIGKILL, proc.stderr
    child = int(proc.stdout.split()[0])
    try:
        assert _gone({child}), f"the child {child} outlived its parent"
    finally:
        try:
            os.kill(child, signal.SIGKILL)
        except ProcessLookupError:
            pass
